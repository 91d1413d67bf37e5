/// <reference types="jest" />
/**
 * The one shortcuts panel, off a board: read from the board's table (actions.ts), so C and F are
 * the curve and formula tools here too; keys in the person's key names (issue 26 #15).
 */
import { act, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { i18n, setLocale } from '../i18n/i18n';
import { ShortcutsPanel } from './ShortcutsPanel';

async function panel() {
  render(
    <MemoryRouter>
      <I18nextProvider i18n={i18n}>
        <ShortcutsPanel onClose={() => undefined} />
      </I18nextProvider>
    </MemoryRouter>,
  );
  // the board's strings are fetched first
  return screen.findByRole('dialog');
}
const chips = (dialog: HTMLElement) => [...dialog.querySelectorAll('kbd')].map((k) => k.textContent);
const keysOf = (dialog: HTMLElement, id: string) =>
  [...dialog.querySelectorAll(`[data-shortcut="${id}"] kbd`)].map((k) => k.textContent);

test("English: the board's table, every row (C is the curve tool, F the formula tool), Ctrl and Shift", async () => {
  const dialog = await panel();
  expect(keysOf(dialog, 'tool:curve')).toEqual(['C']);
  expect(keysOf(dialog, 'tool:formula')).toEqual(['F']);
  expect(keysOf(dialog, 'action:shortcuts')).toEqual(['?']);
  expect(within(dialog).getByText('Curve')).toBeTruthy();
  expect(chips(dialog)).toEqual(expect.arrayContaining(['Ctrl+Z', 'Ctrl+Shift+Z', 'Del', '→', 'Shift+1']));
  expect(dialog.textContent).toContain('Arrows move the selection by 1, with Shift by 10, with Ctrl+Shift by 100.');
});

test('German: Strg, Umschalt and Entf', async () => {
  await act(() => setLocale('de'));
  try {
    const dialog = await panel();
    expect(chips(dialog)).toEqual(expect.arrayContaining(['Strg+Z', 'Strg+Umschalt+Z', 'Entf', 'Umschalt+1']));
    expect(chips(dialog).filter((c) => /Ctrl|Shift|Del\b/.test(c ?? ''))).toEqual([]);
  } finally {
    await act(() => setLocale('en'));
  }
});
