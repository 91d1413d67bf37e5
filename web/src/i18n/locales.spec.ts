/// <reference types="jest" />
/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, LOCALES, NOTICE_CODES } from '@wb/proto';
import { ROUTES } from '../app/routes';
import { NAMESPACES } from './i18n';

type Tree = { [key: string]: string | Tree };
const load = (l: string, ns?: string) =>
  JSON.parse(readFileSync(join(__dirname, 'locales', ...(ns ? [ns] : []), `${l}.json`), 'utf8')) as Tree;

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else for (const [kk, vv] of flatten(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}
const placeholders = (s: string) => [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

/**
 * i18next plural forms: `key_one`, `key_few`, … — each language has exactly the forms of its own
 * plural rules (Intl.PluralRules: English one/other, Russian one/few/many/other, …).
 */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const pluralForms = (locale: string) => new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
/** the keys `locale` must have given English's keys: English's plural forms swapped for its own */
function expectedKeys(enKeys: Iterable<string>, locale: string): Set<string> {
  const keys = [...enKeys];
  const plurals = new Set(keys.filter((k) => k.endsWith('_other')).map((k) => k.replace(PLURAL_SUFFIX, '')));
  const out = new Set<string>();
  for (const k of keys) {
    const base = k.replace(PLURAL_SUFFIX, '');
    if (plurals.has(base)) for (const form of pluralForms(locale)) out.add(`${base}_${form}`);
    else out.add(k);
  }
  return out;
}
/** the English string a key is checked against (a plural form: English's `_other`) */
const englishOf = (en: Map<string, string>, key: string) =>
  en.get(key) ?? (PLURAL_SUFFIX.test(key) ? en.get(key.replace(PLURAL_SUFFIX, '_other')) : undefined);

const en = flatten(load('en'));

/** the main file and each feature namespace (`locales/<ns>/<lng>.json`, see NAMESPACES) */
const FILES = [undefined, ...NAMESPACES];
const cases = FILES.flatMap((ns) => LOCALES.filter((l) => l !== 'en').map((l) => [l, ns ?? 'translation'] as const));

describe.each(cases)('locale %s, namespace %s', (locale, namespace) => {
  const ns = namespace === 'translation' ? undefined : namespace;
  const en = flatten(load('en', ns));
  const strings = flatten(load(locale, ns));
  test('has exactly the keys of English (plural forms: its own)', () => {
    const expected = expectedKeys(en.keys(), locale);
    expect([...expected].filter((k) => !strings.has(k))).toEqual([]);
    expect([...strings.keys()].filter((k) => !expected.has(k))).toEqual([]);
  });
  test('is really translated: at most a few strings (names, codes) equal the English text', () => {
    const same = [...strings].filter(([k, v]) => v === englishOf(en, k) && /[a-z]{3}/.test(v)).length;
    expect(same / strings.size).toBeLessThan(0.1);
  });
  test('no empty strings, same {{placeholders}}', () => {
    for (const [k, v] of strings) {
      expect([k, v.trim().length > 0]).toEqual([k, true]);
      expect([k, placeholders(v)]).toEqual([k, placeholders(englishOf(en, k) ?? '')]);
    }
  });
});

test.each(FILES.map((ns) => ns ?? 'translation'))('English (%s) has exactly its plural forms', (namespace) => {
  const keys = [...flatten(load('en', namespace === 'translation' ? undefined : namespace)).keys()];
  expect(keys.filter((k) => !expectedKeys(keys, 'en').has(k))).toEqual([]);
  expect([...expectedKeys(keys, 'en')].filter((k) => !keys.includes(k))).toEqual([]);
});

test('every error code and notice of the catalogue is translated', () => {
  expect(ERROR_CODES.filter((c) => !en.has(`errors.${c}`))).toEqual([]);
  expect(NOTICE_CODES.filter((c) => !en.has(`notices.${c}`))).toEqual([]);
});

test('every route title and description exists', () => {
  const keys = ROUTES.flatMap((r) => [r.title, r.description].filter((k): k is string => !!k));
  expect(keys.filter((k) => !en.has(k))).toEqual([]);
});
