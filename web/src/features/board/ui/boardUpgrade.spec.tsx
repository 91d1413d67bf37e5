/// <reference types="jest" />
/**
 * A paid board control's dialog (issue 26 #8, #14): the lesson's timer and presentation open the
 * same upgrade dialog as files, power tools and the call, in the person's variant (spec §2); a
 * visitor (a guest) reads one message, "account required", not "part of the paid plans" too.
 */
import { render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { makeStore } from '../../../app/store';
import { i18n, loadNamespace } from '../../../i18n/i18n';
import { BoardUpgradeDialog, type BoardUpgradeReason } from './BoardUpgrade';

function stubApi(answers: Record<string, unknown>) {
  globalThis.fetch = jest.fn(async (url: string) => {
    const found = url in answers;
    return {
      ok: found,
      status: found ? 200 : 404,
      statusText: '',
      headers: { get: (h: string) => (h === 'content-type' ? 'application/json' : null) },
      text: async () => JSON.stringify(found ? answers[url] : { code: 'ERR_NOT_FOUND', message: 'no' }),
    };
  }) as unknown as typeof fetch;
}

const signedIn = {
  '/api/user': { id: 7, name: 'Ada Lovelace', email: 'ada@example.com', email_status: 'verified' },
  '/api/user/settings': { role: 'teacher', roleOnboarding: false },
  '/api/plan': { name: 'starter', price: { monthly: 0, yearly: 0 }, features: {}, limits: {} },
  '/api/config': { plans: {}, flags: {}, country: 'DE' },
};

function show(reason: BoardUpgradeReason) {
  render(
    <Provider store={makeStore()}>
      <MemoryRouter initialEntries={['/boards/b1']}>
        <I18nextProvider i18n={i18n}>
          <BoardUpgradeDialog reason={reason} maxPresets={3} onClose={() => undefined} />
        </I18nextProvider>
      </MemoryRouter>
    </Provider>,
  );
}

beforeAll(async () => {
  await i18n.changeLanguage('en');
  await loadNamespace('board', 'en');
});

test.each([
  [
    'tryFree',
    { canHaveFreeTrial: true },
    null,
    'Upgrade available',
    'Try it for free',
    '/settings/subscription/upgrade',
  ],
  [
    'upgradeNow',
    { canHaveFreeTrial: false },
    null,
    'Upgrade available',
    'Upgrade now',
    '/settings/subscription/upgrade',
  ],
  [
    'teamOwner',
    { canHaveFreeTrial: false },
    { role: 'owner' },
    'Upgrade required',
    'Upgrade now',
    '/settings/subscription/upgrade',
  ],
  [
    'teamMember',
    { canHaveFreeTrial: true },
    { role: 'member' },
    'Upgrade required',
    'Contact the account owner',
    '/settings/team',
  ],
])('timer and present: the %s variant', async (variant, trial, team, heading, label, href) => {
  stubApi({ ...signedIn, '/api/billing/free-trial': trial, '/api/business/info': team });
  show('lesson');
  await screen.findByRole('dialog', { name: 'The timer and presenting are part of the paid plans' });
  await waitFor(() => expect(document.querySelector(`.upgrade-prompt[data-variant="${variant}"]`)).not.toBeNull());
  expect(screen.getByText(/Run a lesson timer/)).toBeTruthy();
  expect(screen.getByText(heading)).toBeTruthy();
  expect(screen.getByRole('link', { name: label }).getAttribute('href')).toBe(href);
});

test.each(['lesson', 'fileUpload', 'powerTools'] as const)('a visitor reads one message for %s', async (reason) => {
  stubApi({ '/api/user': null });
  show(reason);
  const dialog = await screen.findByRole('dialog', { name: 'Account required' });
  await waitFor(() => expect(dialog.querySelector('.upgrade-prompt[data-variant="visitor"]')).not.toBeNull());
  expect(screen.getByRole('link', { name: 'Sign up for free' }).getAttribute('href')).toBe('/signup');
  expect(dialog.textContent).not.toMatch(/paid plan/i);
  // the title is said once (the dialog's), not again inside the prompt
  expect(screen.getAllByText('Account required')).toHaveLength(1);
});
