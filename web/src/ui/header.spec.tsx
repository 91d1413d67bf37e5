/// <reference types="jest" />
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import { makeStore } from '../app/store';
import { i18n } from '../i18n/i18n';
import { avatarColor } from '@wb/proto';
import { Header } from './Header';

/** the gateway as the session loads see it: a user (or none), settings and a plan */
function stubApi(user: { id: number; name: string } | null) {
  const answers: Record<string, unknown> = {
    '/api/user': user,
    '/api/user/settings': { role: 'teacher', roleOnboarding: false },
  };
  globalThis.fetch = jest.fn(async (url: string) => {
    const found = url in answers;
    return {
      ok: found && answers[url] !== null,
      status: found && answers[url] !== null ? 200 : 401,
      statusText: '',
      headers: { get: (h: string) => (h === 'content-type' ? 'application/json' : null) },
      text: async () => JSON.stringify(answers[url] ?? {}),
    };
  }) as unknown as typeof fetch;
}

function renderHeader(path = '/') {
  render(
    <Provider store={makeStore()}>
      <MemoryRouter initialEntries={[path]}>
        <I18nextProvider i18n={i18n}>
          <Header />
        </I18nextProvider>
      </MemoryRouter>
    </Provider>,
  );
}

afterEach(() => {
  delete (globalThis as { fetch?: unknown }).fetch;
});

/** the account button once its menu (loaded lazily) is there: the stand-in has no popup */
async function accountButton(name: string | RegExp) {
  await waitFor(() => expect(screen.getByRole('button', { name }).getAttribute('aria-haspopup')).toBe('true'));
  return screen.getByRole('button', { name });
}

test('the account button is named by its visible text (label in name) and opens its menu', async () => {
  stubApi({ id: 7, name: 'Ada Lovelace' });
  renderHeader();
  const button = await accountButton('Ada Lovelace Account menu');
  expect(button.hasAttribute('aria-label')).toBe(false);
  expect(button.textContent).toContain('Ada Lovelace');
  expect(button.getAttribute('aria-expanded')).toBe('false');
  act(() => button.focus());
  fireEvent.click(button);
  expect(button.getAttribute('aria-expanded')).toBe('true');
  expect(screen.getByRole('menu', { name: /Account menu/ })).toBeTruthy();
  expect(screen.getByRole('menuitem', { name: 'Profile' }).getAttribute('href')).toBe('/settings/profile');
  await waitFor(() => expect(screen.getByRole('menu').contains(document.activeElement)).toBe(true));
  fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
  expect(screen.queryByRole('menuitem', { name: 'Profile' })).toBeNull();
  expect(button.getAttribute('aria-expanded')).toBe('false');
  await waitFor(() => expect(document.activeElement).toBe(button));
});

test('the burger opens and closes the panel with the menu and the tools', async () => {
  stubApi({ id: 7, name: 'Ada Lovelace' });
  renderHeader();
  await accountButton(/Account menu/);
  const burger = screen.getByRole('button', { name: 'Menu' });
  const panel = document.getElementById(burger.getAttribute('aria-controls')!)!;
  expect(panel.contains(screen.getByRole('navigation', { name: 'Main menu' }))).toBe(true);
  expect(panel.contains(screen.getByLabelText('Language'))).toBe(true);
  expect(panel.className).not.toContain('open');
  fireEvent.click(burger);
  expect(burger.getAttribute('aria-expanded')).toBe('true');
  expect(panel.className).toContain('open');
  // a press outside the header closes it
  act(() => {
    document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
  });
  expect(panel.className).not.toContain('open');
});

test('logged out: "Log in" stays in the bar, "Sign up" is in the bar and in the burger panel', async () => {
  stubApi(null);
  renderHeader();
  await waitFor(() => expect(screen.getAllByRole('link', { name: 'Sign up' })).toHaveLength(2));
  const panel = document.querySelector('.header-panel')!;
  const [inBar, inPanel] = [...document.querySelectorAll('a[href="/signup"]')].map((a) => panel.contains(a));
  expect([inBar, inPanel].sort()).toEqual([false, true]);
  expect(panel.contains(screen.getByRole('link', { name: 'Log in' }))).toBe(false);
});

test("the avatar's colour is the person's (proto avatarColor of their id), the same as on a board", async () => {
  stubApi({ id: 7, name: 'Ada Lovelace' });
  renderHeader();
  const button = await accountButton('Ada Lovelace Account menu');
  const avatar = button.querySelector<HTMLElement>('.kit-avatar')!;
  const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
  expect(avatar.style.background).toBe(rgb(avatarColor(7)));
});

test('"Home" is highlighted on the dashboard only, not in a folder view below it', async () => {
  stubApi({ id: 7, name: 'Ada Lovelace' });
  renderHeader('/dashboard/boards/5');
  const home = await screen.findByRole('link', { name: 'Home' });
  expect(home.getAttribute('aria-current')).toBeNull();
  expect(screen.getByRole('navigation', { name: 'Main menu' }).querySelectorAll('[aria-current="page"]').length).toBe(
    0,
  );
});

test('"Home" is highlighted on the dashboard itself', async () => {
  stubApi({ id: 7, name: 'Ada Lovelace' });
  renderHeader('/dashboard');
  expect((await screen.findByRole('link', { name: 'Home' })).getAttribute('aria-current')).toBe('page');
});
