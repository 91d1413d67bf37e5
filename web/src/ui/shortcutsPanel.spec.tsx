/// <reference types="jest" />
/** The app's shortcuts panel speaks the person's key names (issue 26 #15) and lists only real shortcuts. */
import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { i18n, setLocale } from '../i18n/i18n';
import { ShortcutsPanel } from './ShortcutsPanel';

const chips = () => [...screen.getByRole('dialog').querySelectorAll('kbd')].map((k) => k.textContent);

test('English: Ctrl and Shift; no chat or files keys (those letters are board tools)', () => {
  render(
    <MemoryRouter>
      <I18nextProvider i18n={i18n}>
        <ShortcutsPanel onClose={() => undefined} />
      </I18nextProvider>
    </MemoryRouter>,
  );
  expect(chips()).toEqual(expect.arrayContaining(['Ctrl+Z', 'Ctrl+Shift+Z', 'Del', '←↑→↓', 'Shift+1', '?']));
  expect(chips()).not.toContain('C');
  expect(chips()).not.toContain('F');
  expect(screen.getByText('Move by 1 (Shift: 10, Ctrl+Shift: 100)')).toBeTruthy();
});

test('German: Strg, Umschalt and Entf', async () => {
  await act(() => setLocale('de'));
  try {
    render(
      <MemoryRouter>
        <I18nextProvider i18n={i18n}>
          <ShortcutsPanel onClose={() => undefined} />
        </I18nextProvider>
      </MemoryRouter>,
    );
    expect(chips()).toEqual(expect.arrayContaining(['Strg+Z', 'Strg+Umschalt+Z', 'Entf', 'Umschalt+1']));
    expect(chips().filter((c) => /Ctrl|Shift|Del\b/.test(c ?? ''))).toEqual([]);
    expect(screen.getByText('Um 1 verschieben (Umschalt: 10, Strg+Umschalt: 100)')).toBeTruthy();
  } finally {
    await act(() => setLocale('en'));
  }
});
