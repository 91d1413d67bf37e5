/// <reference types="jest" />
/**
 * The header's upgrade button (starter, onboarding done, no trial-ended banner) and the
 * trial-ended banner (proto showTrialEndedBanner), and the upgrade prompt's variant for a
 * locked feature (try-for-free when GET /api/billing/free-trial allows it).
 */
import { render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { makeStore } from '../../app/store';
import { i18n } from '../../i18n/i18n';
import { Header } from '../../ui/Header';
import { UpgradePrompt } from '../../ui/UpgradePrompt';
import { TrialEndedBanner } from './TrialEndedBanner';
import { useUpgradeVariant } from './useBilling';

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

const starter = { name: 'starter', price: { monthly: 0, yearly: 0 }, features: {}, limits: {} };
const base = {
  '/api/user': { id: 7, name: 'Ada Lovelace', email: 'ada@example.com', email_status: 'verified' },
  '/api/user/settings': { role: 'teacher', roleOnboarding: false },
  '/api/plan': starter,
  '/api/business/info': null,
  '/api/config': { plans: {}, flags: {}, country: 'DE' },
};
const expiredTrial = {
  id: 'trial-9',
  plan: 'premium',
  billing_period: 'yearly',
  seats: 1,
  status: 'Canceled',
  next_billing_date: null,
  next_billing_amount: 0,
  balance: 0,
  created: '2026-01-20T10:00:00Z',
  expires: '2026-01-27T10:00:00Z',
  trial: 1,
  first_billing_date: '2026-01-27T10:00:00Z',
};

function renderAt(path: string, ui: React.ReactNode) {
  render(
    <Provider store={makeStore()}>
      <MemoryRouter initialEntries={[path]}>
        <I18nextProvider i18n={i18n}>{ui}</I18nextProvider>
      </MemoryRouter>
    </Provider>,
  );
}

afterEach(() => {
  delete (globalThis as { fetch?: unknown }).fetch;
});

test('a starter user who finished onboarding sees the upgrade button; no banner without an expired trial', async () => {
  stubApi({ ...base, '/api/billing/subscription': null });
  renderAt(
    '/dashboard',
    <>
      <Header />
      <TrialEndedBanner />
    </>,
  );
  expect(await screen.findByRole('link', { name: 'Upgrade' })).toBeTruthy();
  expect(screen.queryByTestId('trial-ended-banner')).toBeNull();
});

test('an expired trial shows the banner instead of the upgrade button', async () => {
  stubApi({ ...base, '/api/billing/subscription': expiredTrial });
  renderAt(
    '/dashboard',
    <>
      <Header />
      <TrialEndedBanner />
    </>,
  );
  expect((await screen.findByTestId('trial-ended-banner')).textContent).toContain('Your free trial has ended.');
  await screen.findByRole('button', { name: /Account menu/ });
  expect(screen.queryByRole('link', { name: 'Upgrade' })).toBeNull();
});

test('no banner in Estonia, nor on the update-subscription page', async () => {
  stubApi({
    ...base,
    '/api/config': { plans: {}, flags: {}, country: 'EE' },
    '/api/billing/subscription': expiredTrial,
  });
  renderAt(
    '/dashboard',
    <>
      <Header />
      <TrialEndedBanner />
    </>,
  );
  expect(await screen.findByRole('link', { name: 'Upgrade' })).toBeTruthy();
  expect(screen.queryByTestId('trial-ended-banner')).toBeNull();
});

test('no banner on the update-subscription page', async () => {
  stubApi({ ...base, '/api/billing/subscription': expiredTrial });
  renderAt(
    '/settings/subscription/update',
    <>
      <Header />
      <TrialEndedBanner />
    </>,
  );
  expect(await screen.findByRole('link', { name: 'Upgrade' })).toBeTruthy();
  expect(screen.queryByTestId('trial-ended-banner')).toBeNull();
});

function Prompt() {
  return <UpgradePrompt variant={useUpgradeVariant()} />;
}

test.each([
  [{ canHaveFreeTrial: true }, null, 'tryFree', 'Try it for free'],
  [{ canHaveFreeTrial: false }, null, 'upgradeNow', 'Upgrade now'],
  [{ canHaveFreeTrial: true }, { role: 'owner' }, 'teamOwner', 'Upgrade now'],
  [{ canHaveFreeTrial: true }, { role: 'member' }, 'teamMember', 'Contact the account owner'],
])('upgrade prompt variant for a logged-in user (%#)', async (trial, team, variant, label) => {
  stubApi({ ...base, '/api/billing/free-trial': trial, '/api/business/info': team });
  renderAt('/dashboard', <Prompt />);
  await waitFor(() => expect(document.querySelector(`[data-variant="${variant}"]`)).not.toBeNull());
  expect(screen.getByRole('link', { name: label })).toBeTruthy();
});

test('a visitor gets the sign-up variant', async () => {
  stubApi({ '/api/user': null });
  renderAt('/dashboard', <Prompt />);
  expect(await screen.findByRole('link', { name: 'Sign up for free' })).toBeTruthy();
});
