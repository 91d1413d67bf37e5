/// <reference types="jest" />
/**
 * The dashboard's move toast (issue 26 #15): i18next plural forms in every language, so one
 * board reads "Moved 1 board to …", never "Moved 1 to …".
 */
import { LOCALES } from '@wb/proto';
import { i18n, loadNamespace, setLocale } from '../../i18n/i18n';

const moved = (count: number) => i18n.t('done.moved', { ns: 'boards', count, folder: 'Maths' });

afterAll(() => setLocale('en'));

test('English: one board, several boards', async () => {
  await loadNamespace('boards', 'en');
  await setLocale('en');
  expect(moved(1)).toBe('Moved 1 board to Maths');
  expect(moved(3)).toBe('Moved 3 boards to Maths');
});

test('Russian, Polish and Ukrainian take their one, few and many forms', async () => {
  await setLocale('ru');
  await loadNamespace('boards', 'ru');
  expect([moved(1), moved(3), moved(5), moved(21)]).toEqual([
    '1 доска перемещена в Maths',
    '3 доски перемещены в Maths',
    '5 досок перемещено в Maths',
    '21 доска перемещена в Maths',
  ]);
  await setLocale('pl');
  await loadNamespace('boards', 'pl');
  expect([moved(1), moved(2), moved(5)]).toEqual([
    'Przeniesiono 1 tablicę do Maths',
    'Przeniesiono 2 tablice do Maths',
    'Przeniesiono 5 tablic do Maths',
  ]);
  await setLocale('uk');
  await loadNamespace('boards', 'uk');
  expect(moved(2)).toBe('2 дошки переміщено до Maths');
});

test.each(LOCALES)('%s: every count has a sentence with the number and the folder', async (locale) => {
  await setLocale(locale);
  await loadNamespace('boards', locale);
  for (const n of [1, 2, 5, 21, 1_000_000]) {
    const text = moved(n);
    expect(text).toContain('Maths');
    expect(text).not.toMatch(/done\.moved/);
    expect(text.replace(/\D/g, '')).toContain(String(n).slice(0, 1));
  }
});
