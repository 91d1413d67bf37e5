/// <reference types="jest" />
/**
 * The users page (issue 26 #13): the team's name and every member's address as the server gives
 * them, and one message per refused invitation in the reader's language — never the bare code.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { makeStore } from '../../app/store';
import { i18n, loadNamespace, setLocale } from '../../i18n/i18n';
import { UsersSettings } from './TeamSettings';

const info = {
  id: 3,
  name: 'Riverside Academy',
  owner: { id: 7, name: 'Stan Starter' },
  status: { active: 1 },
  role: 'owner',
  plan: 'premium',
  licences: { used: 1, total: 3, requested: null },
  members: [
    {
      id: 7,
      name: 'Stan Starter',
      email: 'stan@example.com',
      role: 'owner',
      status: 'active',
      joined: '2026-01-01T00:00:00Z',
    },
  ],
  deactivated: [],
  invitations: [],
};

const invitationReply = {
  results: [
    {
      email: 'stan@example.com',
      invitation: null,
      code: 'ERR_CANT_INVITE_YOURSELF',
      message: 'You cannot invite yourself',
    },
    { email: 'x@mailinator.com', invitation: null, code: 'ERR_THROWAWAY_NOT_ALLOWED', message: 'throwaway' },
    // a code the app does not know yet: the server's message
    { email: 'y@example.com', invitation: null, code: 'ERR_SOMETHING_NEW', message: 'Try again tomorrow' },
  ],
  info,
};

function stubApi(): void {
  const answers: Record<string, unknown> = {
    'GET /api/user': { id: 7, name: 'Stan Starter', email: 'stan@example.com', email_status: 'verified' },
    'GET /api/user/settings': { role: 'teacher', roleOnboarding: false },
    'GET /api/business/info': info,
    'POST /api/business/invitations': invitationReply,
  };
  globalThis.fetch = jest.fn(async (url: string, init: RequestInit) => {
    const key = `${(init.method ?? 'GET').toUpperCase()} ${url}`;
    const found = key in answers;
    return {
      ok: found,
      status: found ? 200 : 404,
      statusText: '',
      headers: { get: (h: string) => (h === 'content-type' ? 'application/json' : null) },
      text: async () => JSON.stringify(found ? answers[key] : { code: 'ERR_NOT_FOUND', message: 'nope' }),
    };
  }) as unknown as typeof fetch;
}

function renderUsers(): void {
  render(
    <Provider store={makeStore()}>
      <MemoryRouter initialEntries={['/settings/users']}>
        <I18nextProvider i18n={i18n}>
          <UsersSettings />
        </I18nextProvider>
      </MemoryRouter>
    </Provider>,
  );
}

async function inviteAll(): Promise<HTMLElement[]> {
  fireEvent.change(await screen.findByRole('textbox'), {
    target: { value: 'stan@example.com, x@mailinator.com, y@example.com' },
  });
  fireEvent.click(document.querySelector('.invite-form button[type="submit"]')!);
  await screen.findByText('y@example.com');
  return [...document.querySelectorAll<HTMLElement>('.invite-results li')];
}

afterEach(async () => {
  delete (globalThis as { fetch?: unknown }).fetch;
  await setLocale('en');
});

test("the team's name, and the owner's row with their address", async () => {
  await loadNamespace('billing', 'en');
  stubApi();
  renderUsers();
  expect((await screen.findByText('Riverside Academy')).tagName).toBe('STRONG');
  const ownerRow = screen.getByText('stan@example.com').closest('tr')!;
  expect(ownerRow.textContent).toContain('Stan Starter');
  expect(ownerRow.querySelectorAll('td')[1]!.textContent).toBe('stan@example.com');
});

test('each refused invitation reads as its message, not its code', async () => {
  await loadNamespace('billing', 'en');
  stubApi();
  renderUsers();
  const rows = await inviteAll();
  expect(rows.map((li) => li.getAttribute('data-code'))).toEqual([
    'ERR_CANT_INVITE_YOURSELF',
    'ERR_THROWAWAY_NOT_ALLOWED',
    'ERR_SOMETHING_NEW',
  ]);
  expect(rows.map((li) => li.textContent)).toEqual([
    'stan@example.com: You cannot invite yourself',
    'x@mailinator.com: Temporary email addresses are not allowed',
    'y@example.com: Try again tomorrow',
  ]);
  expect(document.querySelector('.invite-results')!.textContent).not.toMatch(/ERR_/);
});

test('in German the messages are German', async () => {
  await setLocale('de');
  await loadNamespace('billing', 'de');
  stubApi();
  renderUsers();
  const rows = await inviteAll();
  expect(rows[0]!.textContent).toBe('stan@example.com: Du kannst dich nicht selbst einladen');
  expect(document.querySelector('.invite-results')!.textContent).not.toMatch(/ERR_/);
});
