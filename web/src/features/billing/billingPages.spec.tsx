/// <reference types="jest" />
/**
 * The billing and team pages against a stubbed gateway: the exact paths and bodies they call, the
 * states they show and the rules they enforce (terms before a trial, owner-only subscription
 * pages, confirmation phrases, one result per invited address, join-team error codes).
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { ReactNode } from 'react';
import { makeStore } from '../../app/store';
import { i18n, loadNamespace } from '../../i18n/i18n';
import { TrialStep, PlanStep } from './OnboardingPlan';
import { PricingPage } from './PricingPage';
import { SubscriptionOverview, UpgradeSettings, UpdateSettings, InvoicesSettings } from './SubscriptionSettings';
import { CloseBusinessSettings, LeaveBusinessSettings, TeamView, UsersSettings } from './TeamSettings';
import { JoinTeamPage } from './JoinTeamPage';

type Answer = { status?: number; body: unknown };
type Calls = { method: string; url: string; body: unknown }[];

/** `answers['GET /api/x']`; anything unknown answers 404 */
function stubApi(answers: Record<string, Answer | ((body: unknown) => Answer)>): Calls {
  const calls: Calls = [];
  globalThis.fetch = jest.fn(async (url: string, init: RequestInit) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, url, body });
    const a = answers[`${method} ${url}`];
    const answer =
      typeof a === 'function' ? a(body) : (a ?? { status: 404, body: { message: 'nope', code: 'ERR_NOT_FOUND' } });
    const status = answer.status ?? 200;
    return {
      ok: status < 400,
      status,
      statusText: '',
      headers: { get: (h: string) => (h === 'content-type' ? 'application/json' : null) },
      text: async () => JSON.stringify(answer.body),
    };
  }) as unknown as typeof fetch;
  return calls;
}

function Where() {
  const l = useLocation();
  return <output data-testid="where">{l.pathname + l.search}</output>;
}

function renderAt(path: string, element: ReactNode) {
  render(
    <Provider store={makeStore()}>
      <MemoryRouter initialEntries={[path]}>
        <I18nextProvider i18n={i18n}>
          <Routes>
            <Route path="*" element={element} />
          </Routes>
          <Where />
        </I18nextProvider>
      </MemoryRouter>
    </Provider>,
  );
}

const USER = { id: 7, name: 'Ada Lovelace', email: 'ada@example.com', email_status: 'verified' };
const session = {
  'GET /api/user': { body: USER },
  'GET /api/user/settings': { body: { role: 'teacher', roleOnboarding: false } },
  'GET /api/plan': { body: { name: 'starter', price: { monthly: 0, yearly: 0 }, features: {}, limits: {} } },
};
const sub = (over: Record<string, unknown>) => ({
  id: 'sub-1',
  plan: 'premium',
  billing_period: 'yearly',
  seats: 3,
  status: 'Active',
  next_billing_date: '2099-05-01',
  next_billing_amount: 111_600,
  balance: 0,
  created: '2026-01-20T10:00:00Z',
  expires: '2099-05-01',
  trial: 0,
  first_billing_date: '2026-01-27',
  payment_method: 1,
  ...over,
});
const fakeToken = Buffer.from(JSON.stringify({ environment: 'fake' })).toString('base64');

beforeAll(() => loadNamespace('billing', 'en'));
afterEach(() => {
  delete (globalThis as { fetch?: unknown }).fetch;
});

test('pricing: four plans from PLANS, EUR per seat, the monthly/yearly switch changes the prices', async () => {
  stubApi({});
  renderAt('/pricing', <PricingPage />);
  expect(await screen.findByRole('heading', { name: 'Premium' })).toBeTruthy();
  expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
    'Starter',
    'Standard',
    'Premium',
    'Ultimate',
  ]);
  expect(screen.getByTestId('price-premium').textContent).toContain('€25');
  expect(screen.getByTestId('price-ultimate').textContent).toContain('€149');
  fireEvent.click(screen.getByLabelText('Monthly'));
  expect(screen.getByTestId('price-premium').textContent).toContain('€29');
  expect(screen.getByTestId('price-standard').textContent).toContain('€10');
  expect(screen.getByTestId('price-starter').textContent).toContain('€0');
  expect(screen.getAllByText('Folders for boards')).toHaveLength(3);
  expect(screen.getAllByText('Priority support')).toHaveLength(1);
});

test('onboarding: the trial is offered only when GET /api/billing/free-trial says so', async () => {
  stubApi({ 'GET /api/billing/free-trial': { body: { canHaveFreeTrial: false } } });
  const onTrial = jest.fn();
  renderAt('/setup', <PlanStep onBack={jest.fn()} onStarter={jest.fn()} onTrial={onTrial} />);
  expect(await screen.findByRole('button', { name: 'Continue with Starter' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Try a paid plan free' })).toBeNull();
});

test('onboarding trial step: the button stays disabled until the terms are ticked, then POSTs the trial', async () => {
  const calls = stubApi({
    'GET /api/billing/free-trial': { body: { canHaveFreeTrial: true } },
    'POST /api/billing/trial': { body: sub({ id: 'trial-1', trial: 1 }) },
  });
  const onStarted = jest.fn();
  renderAt('/setup?step=trial', <TrialStep onBack={jest.fn()} onStarted={onStarted} />);
  const start = (await screen.findByRole('button', { name: 'Start free trial' })) as HTMLButtonElement;
  expect(start.disabled).toBe(true);
  fireEvent.click(screen.getByLabelText(/Premium/));
  fireEvent.click(screen.getByLabelText('Monthly'));
  fireEvent.submit(start.closest('form')!);
  expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  fireEvent.click(screen.getByRole('checkbox'));
  expect(start.disabled).toBe(false);
  fireEvent.click(start);
  await waitFor(() => expect(onStarted).toHaveBeenCalled());
  expect(calls.find((c) => c.method === 'POST')).toEqual({
    method: 'POST',
    url: '/api/billing/trial',
    body: { plan: 'premium', billing_period: 'monthly', terms: true },
  });
});

test('onboarding trial step: a refusal (ERR_TRIAL_UNAVAILABLE) does not finish the step', async () => {
  stubApi({
    'POST /api/billing/trial': {
      status: 409,
      body: { code: 'ERR_TRIAL_UNAVAILABLE', message: 'no' },
    },
  });
  const onStarted = jest.fn();
  renderAt('/setup?step=trial', <TrialStep onBack={jest.fn()} onStarted={onStarted} />);
  fireEvent.click(await screen.findByRole('checkbox'));
  fireEvent.click(screen.getByRole('button', { name: 'Start free trial' }));
  await waitFor(() => expect((globalThis.fetch as jest.Mock).mock.calls.length).toBeGreaterThan(0));
  await new Promise((r) => setTimeout(r, 20));
  expect(onStarted).not.toHaveBeenCalled();
});

test.each([
  [
    sub({
      id: 'trial-abc',
      trial: 1,
      status: 'Pending',
      next_billing_amount: 0,
      payment_method: 0,
      first_billing_date: new Date(Date.now() + 3 * 86_400_000 - 60_000).toISOString(),
    }),
    'Free trial. Days left: 3',
  ],
  [
    sub({
      id: 'trial-abc',
      trial: 1,
      payment_method: 0,
      first_billing_date: '2026-01-01',
      expires: '2026-01-01',
      status: 'Canceled',
    }),
    'Your free trial has ended.',
  ],
  [sub({ status: 'Past Due' }), 'The last payment failed. Add a payment method to resume.'],
  [sub({ status: 'Canceled', expires: '2099-05-01' }), 'Cancelled. The plan stays active until May 1, 2099.'],
  [sub({}), 'Active'],
  [null, 'You are on the free Starter plan.'],
])('subscription overview shows the proto state (%#)', async (s, text) => {
  stubApi({ ...session, 'GET /api/business/info': { body: null }, 'GET /api/billing/subscription': { body: s } });
  renderAt('/settings/subscription', <SubscriptionOverview />);
  expect(
    await screen.findByText(
      (_, el) => el?.classList.contains('sub-state') === true && el.textContent?.startsWith(text) === true,
    ),
  ).toBeTruthy();
  if (s && s.status === 'Active' && s.trial === 0) {
    expect(screen.getByText(/May 1, 2099 · €1116\.00/)).toBeTruthy();
  }
});

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000 - 60_000).toISOString();
const cardLessTrial = sub({
  id: 'trial-free',
  plan: 'premium',
  seats: 1,
  trial: 1,
  status: 'Pending',
  next_billing_date: null,
  next_billing_amount: 0,
  payment_method: 0,
  first_billing_date: inDays(5),
  expires: inDays(5),
});
// issue 26 #11: the same trial after a card was added (a provider subscription, first charged when it ends)
const trialWithCard = sub({
  id: 'trial-card',
  plan: 'premium',
  seats: 1,
  trial: 1,
  status: 'Pending',
  next_billing_date: inDays(5),
  next_billing_amount: 37_200,
  payment_method: 1,
  first_billing_date: inDays(5),
  expires: inDays(5),
});
const trialEndText = (iso: string) =>
  new Date(iso).toLocaleDateString('en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

test('overview, trial with a card (issue 26 #11): one state, the trial’s end and the first charge, no second offer', async () => {
  stubApi({
    ...session,
    'GET /api/business/info': { body: null },
    'GET /api/billing/subscription': { body: trialWithCard },
  });
  renderAt('/settings/subscription', <SubscriptionOverview />);
  const end = trialEndText(trialWithCard.first_billing_date);
  expect(
    await screen.findByText(`Free trial until ${end}. Then your card is charged €372.00.`, { exact: true }),
  ).toBeTruthy();
  expect(screen.getByTestId('trial-ends').textContent).toBe(end);
  expect(screen.getByTestId('first-charge').textContent).toBe(`${end} · €372.00`);
  expect(screen.queryByText(/Subscribe now|Add a card|Next payment/)).toBeNull();
  const change = screen.getAllByRole('link', { name: 'Change subscription' }).find((a) => a.closest('.sub-card'));
  expect(change?.getAttribute('href')).toBe('/settings/subscription/update');
});

test('overview, trial without a card: its end, no charge, and one offer (add a card)', async () => {
  stubApi({
    ...session,
    'GET /api/business/info': { body: null },
    'GET /api/billing/subscription': { body: cardLessTrial },
  });
  renderAt('/settings/subscription', <SubscriptionOverview />);
  expect(await screen.findByText('Free trial. Days left: 5')).toBeTruthy();
  expect(screen.getByTestId('first-charge').textContent).toMatch(/^None yet/);
  expect(screen.getByRole('link', { name: 'Add a card to keep the plan' })).toBeTruthy();
  expect(screen.queryByText(/€/)).toBeNull();
});

test.each([
  [true, 'Try it free for 7 days'],
  [false, 'Upgrade now'],
])('overview on Starter: try for free only when GET /api/billing/free-trial says so (%s)', async (can, label) => {
  stubApi({
    ...session,
    'GET /api/business/info': { body: null },
    'GET /api/billing/subscription': { body: null },
    'GET /api/billing/free-trial': { body: { canHaveFreeTrial: can } },
  });
  renderAt('/settings/subscription', <SubscriptionOverview />);
  const link = await screen.findByRole('link', { name: label });
  expect(link.getAttribute('href')).toBe('/settings/subscription/upgrade');
});

test('upgrade with a trial available (issue 26 #10): the trial starts without a card; paying now is the other way', async () => {
  const calls = stubApi({
    ...session,
    'GET /api/business/info': { body: null },
    'GET /api/business': { body: { id: 0 } },
    'GET /api/billing/subscription': { body: null },
    'GET /api/billing/free-trial': { body: { canHaveFreeTrial: true } },
    'GET /api/billing/client-token': { body: { clientToken: fakeToken } },
    'POST /api/billing/trial': { body: cardLessTrial },
  });
  renderAt('/settings/subscription/upgrade', <UpgradeSettings />);
  const start = (await screen.findByRole('button', { name: 'Start free trial' })) as HTMLButtonElement;
  expect(screen.queryByText('TEST MODE')).toBeNull();
  expect(screen.queryByLabelText('Licences')).toBeNull();
  expect(start.disabled).toBe(true);
  fireEvent.click(screen.getByLabelText(/Premium/));
  fireEvent.click(screen.getByRole('checkbox'));
  fireEvent.click(start);
  await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/settings/subscription'));
  expect(calls.find((c) => c.method === 'POST')).toEqual({
    method: 'POST',
    url: '/api/billing/trial',
    body: { plan: 'premium', billing_period: 'yearly', terms: true },
  });
});

test('upgrade with a trial available: "subscribe now without a trial" shows the card checkout', async () => {
  stubApi({
    ...session,
    'GET /api/business/info': { body: null },
    'GET /api/business': { body: { id: 0 } },
    'GET /api/billing/subscription': { body: null },
    'GET /api/billing/free-trial': { body: { canHaveFreeTrial: true } },
    'GET /api/billing/client-token': { body: { clientToken: fakeToken } },
  });
  renderAt('/settings/subscription/upgrade', <UpgradeSettings />);
  fireEvent.click(await screen.findByRole('button', { name: 'Subscribe now without a trial' }));
  expect(await screen.findByText('TEST MODE')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Subscribe' })).toBeTruthy();
});

test('upgrade during a card-less trial: nothing today, the first charge when the trial ends', async () => {
  stubApi({
    ...session,
    'GET /api/business/info': { body: null },
    'GET /api/business': { body: { id: 0 } },
    'GET /api/billing/subscription': { body: cardLessTrial },
    'GET /api/billing/client-token': { body: { clientToken: fakeToken } },
  });
  renderAt('/settings/subscription/upgrade', <UpgradeSettings />);
  expect(await screen.findByText('TEST MODE')).toBeTruthy();
  const end = trialEndText(cardLessTrial.first_billing_date);
  expect(screen.getByTestId('trial-checkout-note').textContent).toContain(`when the trial ends on ${end}`);
  expect(screen.getByTestId('sum-today').textContent).toBe('€0.00');
  expect(screen.getByTestId('sum-total-label').textContent).toBe(`First charge on ${end}`);
  expect(screen.getByRole('button', { name: 'Add card' })).toBeTruthy();
});

test('upgrade with a trial that has its card: no checkout, the state and a way to change it', async () => {
  stubApi({
    ...session,
    'GET /api/business/info': { body: null },
    'GET /api/business': { body: { id: 0 } },
    'GET /api/billing/subscription': { body: trialWithCard },
  });
  renderAt('/settings/subscription/upgrade', <UpgradeSettings />);
  expect(await screen.findByText(/Then your card is charged €372\.00\./)).toBeTruthy();
  expect(screen.queryByText('TEST MODE')).toBeNull();
  expect(screen.queryByRole('button', { name: /Subscribe|Add card/ })).toBeNull();
  expect(screen.getAllByRole('link', { name: 'Change subscription' }).find((a) => a.closest('.sub-card'))).toBeTruthy();
});

test('subscription pages send a member of someone else’s team to the team page', async () => {
  stubApi({
    ...session,
    'GET /api/business/info': {
      body: {
        id: 3,
        name: 'Acme',
        owner: { id: 9, name: 'Boss' },
        status: { active: 1 },
        role: 'member',
        plan: 'premium',
      },
    },
  });
  renderAt('/settings/subscription/upgrade', <UpgradeSettings />);
  await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/settings/team'));
});

test('upgrade: TEST MODE card form with the fake gateway, VAT per country, POST /api/billing/subscription', async () => {
  const calls = stubApi({
    ...session,
    'GET /api/business/info': { body: null },
    'GET /api/business': {
      body: {
        id: 0,
        first_name: '',
        last_name: '',
        email: '',
        company: '',
        country_code: '',
        city_region: '',
        street_address: '',
        extended_address: '',
        postal_code: '',
        vat_nr: '',
      },
    },
    'GET /api/billing/subscription': { body: null },
    'GET /api/billing/client-token': { body: { clientToken: fakeToken } },
    'POST /api/billing/subscription': { body: sub({}) },
  });
  renderAt('/settings/subscription/upgrade', <UpgradeSettings />);
  expect(await screen.findByText('TEST MODE')).toBeTruthy();
  await waitFor(() => expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Ada'));
  fireEvent.click(screen.getByLabelText(/Premium/));
  fireEvent.change(screen.getByLabelText('Licences'), { target: { value: '3' } });
  fireEvent.change(screen.getByLabelText('Country'), { target: { value: 'DE' } });
  expect(screen.getByTestId('sum-net').textContent).toBe('€900.00');
  expect(screen.getByTestId('sum-vat').textContent).toBe('€171.00');
  expect(screen.getByTestId('sum-total').textContent).toBe('€1071.00');
  fireEvent.change(screen.getByLabelText('VAT number (optional)'), { target: { value: 'DE123456789' } });
  expect(screen.getByTestId('sum-vat').textContent).toBe('€0.00');
  // missing address fields: nothing is sent
  fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
  expect(await screen.findByText('Please fill in the marked fields.')).toBeTruthy();
  expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  fireEvent.change(screen.getByLabelText('City / region'), { target: { value: 'Berlin' } });
  fireEvent.change(screen.getByLabelText('Postal code'), { target: { value: '10115' } });
  fireEvent.change(screen.getByLabelText('Street address'), { target: { value: 'Unter den Linden 1' } });
  fireEvent.click(screen.getByLabelText(/declines/));
  fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
  await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/settings/subscription'));
  const post = calls.find((c) => c.method === 'POST')!;
  expect(post.url).toBe('/api/billing/subscription');
  expect(post.body).toMatchObject({
    plan: 'premium',
    billing_period: 'yearly',
    seats: 3,
    nonce: 'fake-processor-declined-visa-nonce',
    billing: {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      country_code: 'DE',
      vat_nr: 'DE123456789',
    },
  });
});

test('upgrade: sandbox/production shows Braintree Drop-in (loading) and no pay button works without a card', async () => {
  stubApi({
    ...session,
    'GET /api/business/info': { body: null },
    'GET /api/billing/subscription': { body: null },
    'GET /api/billing/client-token': {
      body: { clientToken: Buffer.from('{"environment":"sandbox"}').toString('base64') },
    },
  });
  renderAt('/settings/subscription/upgrade', <UpgradeSettings />);
  expect(await screen.findByTestId('dropin')).toBeTruthy();
  expect((screen.getByRole('button', { name: 'Subscribe' }) as HTMLButtonElement).disabled).toBe(true);
});

test('update: change seats with PUT, cancel only after typing CANCEL', async () => {
  const calls = stubApi({
    ...session,
    'GET /api/business/info': { body: null },
    'GET /api/billing/subscription': { body: sub({}) },
    'PUT /api/billing/subscription': { body: sub({ seats: 5 }) },
    'POST /api/billing/subscription/cancel': { body: sub({ status: 'Canceled' }) },
  });
  renderAt('/settings/subscription/update', <UpdateSettings />);
  const seats = (await screen.findByLabelText('Licences')) as HTMLInputElement;
  await waitFor(() => expect(seats.value).toBe('3'));
  fireEvent.change(seats, { target: { value: '5' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
  await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
  expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ seats: 5 });
  const cancel = screen.getByRole('button', { name: 'Cancel subscription' }) as HTMLButtonElement;
  expect(cancel.disabled).toBe(true);
  fireEvent.change(screen.getByLabelText('Type CANCEL to confirm'), { target: { value: 'cancel' } });
  expect(cancel.disabled).toBe(true);
  fireEvent.change(screen.getByLabelText('Type CANCEL to confirm'), { target: { value: 'CANCEL' } });
  fireEvent.click(cancel);
  await waitFor(() => expect(calls.some((c) => c.url === '/api/billing/subscription/cancel')).toBe(true));
  expect(calls.find((c) => c.url === '/api/billing/subscription/cancel')?.body).toEqual({ confirmation: 'CANCEL' });
});

test('invoices: a row per invoice with its PDF link', async () => {
  stubApi({
    ...session,
    'GET /api/business/info': { body: null },
    'GET /api/billing/invoices': {
      body: [
        {
          id: 'tx_1',
          date: '2026-02-01T10:00:00Z',
          amount: 111_600,
          currency: 'EUR',
          type: 'payment',
          status: 'settled',
          vat_amount: 0,
          net_amount: 0,
          vat_rate: 0,
        },
        {
          id: 'tx_2',
          date: '2026-02-03T10:00:00Z',
          amount: -1000,
          currency: 'EUR',
          type: 'refund',
          status: 'pending',
          vat_amount: 0,
          net_amount: 0,
          vat_rate: 0,
        },
      ],
    },
  });
  renderAt('/settings/subscription/invoices', <InvoicesSettings />);
  expect(await screen.findByText('€1116.00')).toBeTruthy();
  expect(screen.getByText('Refund')).toBeTruthy();
  expect(screen.getByText('Pending')).toBeTruthy();
  expect(screen.getAllByRole('link', { name: 'PDF' }).map((a) => a.getAttribute('href'))).toEqual([
    '/api/billing/invoices/tx_1.pdf',
    '/api/billing/invoices/tx_2.pdf',
  ]);
});

const ownerInfo = {
  id: 3,
  name: 'Acme',
  owner: { id: 7, name: 'Ada Lovelace' },
  status: { active: 1 },
  role: 'owner',
  plan: 'premium',
  licences: { used: 2, total: 3, requested: null },
  members: [
    { id: 7, name: 'Ada Lovelace', email: null, role: 'owner', status: 'active', joined: '2026-01-01T00:00:00Z' },
    { id: 8, name: 'Bob', email: 'bob@example.com', role: 'member', status: 'active', joined: '2026-01-02T00:00:00Z' },
  ],
  deactivated: [],
  invitations: [{ id: 41, email: 'carol@example.com', created: '2026-01-03T00:00:00Z' }],
};

test('users: licences, several invitations with one result code each, confirm before deactivating', async () => {
  const calls = stubApi({
    ...session,
    'GET /api/business/info': { body: ownerInfo },
    'POST /api/business/invitations': {
      body: {
        results: [
          {
            email: 'dan@example.com',
            invitation: { id: 42, email: 'dan@example.com', created: '2026-01-04T00:00:00Z' },
            code: null,
            message: null,
          },
          { email: 'ada@example.com', invitation: null, code: 'ERR_CANT_INVITE_YOURSELF', message: 'self' },
        ],
        info: ownerInfo,
      },
    },
    'POST /api/business/members/8/deactivate': { body: ownerInfo },
    'DELETE /api/business/invitations/41': { body: ownerInfo },
  });
  renderAt('/settings/users', <UsersSettings />);
  expect((await screen.findByTestId('licences')).textContent).toContain('Licences used: 2 of 3');
  fireEvent.change(screen.getByLabelText('Invite people by email'), {
    target: { value: 'Dan@example.com, ada@example.com' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Send invitations (2)' }));
  await screen.findByText('dan@example.com');
  expect(calls.find((c) => c.url === '/api/business/invitations')?.body).toEqual({
    emails: ['dan@example.com', 'ada@example.com'],
  });
  const results = document.querySelectorAll('.invite-results li');
  expect([...results].map((li) => li.getAttribute('data-code'))).toEqual(['OK', 'ERR_CANT_INVITE_YOURSELF']);
  // the refused address stays in the box
  expect((screen.getByLabelText('Invite people by email') as HTMLTextAreaElement).value).toBe('ada@example.com');

  fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'Deactivate licence?' });
  expect(calls.some((c) => c.url.includes('/deactivate'))).toBe(false);
  fireEvent.click(dialog.querySelector('button.danger')!);
  await waitFor(() => expect(calls.some((c) => c.url === '/api/business/members/8/deactivate')).toBe(true));

  fireEvent.click(screen.getByRole('button', { name: 'Cancel invitation' }));
  const cancel = await screen.findByRole('alertdialog', { name: 'Cancel invitation?' });
  fireEvent.click(cancel.querySelector('button.danger')!);
  await waitFor(() =>
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/business/invitations/41')).toBe(true),
  );
});

test('team: a member sees the team, its owner and that the licence expired', async () => {
  const member = {
    id: 3,
    name: 'Acme',
    owner: { id: 9, name: 'Boss' },
    status: { active: 0 },
    role: 'member',
    plan: null,
  };
  stubApi({ ...session, 'GET /api/business/info': { body: member } });
  renderAt('/settings/team', <TeamView />);
  expect(await screen.findByText('You are a member of Acme.')).toBeTruthy();
  expect(screen.getByText('Account owner: Boss')).toBeTruthy();
  expect(screen.getByText('Your licence has expired. Contact the account owner.')).toBeTruthy();
});

test('leave-business: the button waits for LEAVE, then POSTs it and goes to the dashboard', async () => {
  const member = {
    id: 3,
    name: 'Acme',
    owner: { id: 9, name: 'Boss' },
    status: { active: 1 },
    role: 'member',
    plan: 'premium',
  };
  const calls = stubApi({
    ...session,
    'GET /api/business/info': { body: member },
    'POST /api/business/leave': (body) =>
      (body as { confirmation: string }).confirmation === 'LEAVE'
        ? { body: { ok: true } }
        : { status: 400, body: { code: 'ERR_CONFIRMATION_FAILED', message: 'x' } },
  });
  renderAt('/settings/leave-business', <LeaveBusinessSettings />);
  const button = (await screen.findByRole('button', { name: 'Leave team' })) as HTMLButtonElement;
  expect(button.disabled).toBe(true);
  fireEvent.change(screen.getByLabelText('Type LEAVE to confirm'), { target: { value: 'LEAVE' } });
  fireEvent.click(button);
  await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/dashboard'));
  expect(calls.find((c) => c.url === '/api/business/leave')?.body).toEqual({ confirmation: 'LEAVE' });
});

test('close-business: owner only, needs CLOSE', async () => {
  const calls = stubApi({
    ...session,
    'GET /api/business/info': { body: ownerInfo },
    'POST /api/business/close': { body: { ok: true } },
  });
  renderAt('/settings/close-business', <CloseBusinessSettings />);
  const button = (await screen.findByRole('button', { name: 'Close business account' })) as HTMLButtonElement;
  fireEvent.change(screen.getByLabelText('Type CLOSE to confirm'), { target: { value: 'CLOS' } });
  expect(button.disabled).toBe(true);
  fireEvent.change(screen.getByLabelText('Type CLOSE to confirm'), { target: { value: 'CLOSE' } });
  fireEvent.click(button);
  await waitFor(() => expect(calls.some((c) => c.url === '/api/business/close')).toBe(true));
});

test('join-team: a visitor is asked to log in first, with the way back', async () => {
  stubApi({ 'GET /api/user': { status: 200, body: null } });
  renderAt('/join-team?token=abc', <JoinTeamPage />);
  const login = await screen.findByRole('link', { name: 'Log in' });
  expect(login.getAttribute('href')).toBe(`/login?goto=${encodeURIComponent('/join-team?token=abc')}`);
});

test.each([
  ['ERR_INVITATION_MISSING', 'Invitation not found or meant for a different email'],
  ['ERR_NO_EMAIL_MATCH', 'The email address does not match'],
  ['ERR_NO_AVAILABLE_SEATS', 'There are no available licences'],
  ['ERR_USER_IN_BUSINESS', 'This user is already in a business account'],
])('join-team shows the message of %s', async (code, message) => {
  const calls = stubApi({
    ...session,
    'POST /api/business/join': { status: 409, body: { code, message: 'server text' } },
  });
  renderAt('/join-team?token=tok-1', <JoinTeamPage />);
  fireEvent.click(await screen.findByRole('button', { name: 'Join team' }));
  expect(await screen.findByText(message)).toBeTruthy();
  expect(calls.find((c) => c.method === 'POST')).toEqual({
    method: 'POST',
    url: '/api/business/join',
    body: { token: 'tok-1' },
  });
});

test('join-team: joined', async () => {
  stubApi({ ...session, 'POST /api/business/join': { body: { ...ownerInfo, role: 'member', name: 'Acme' } } });
  renderAt('/join-team?token=tok-1', <JoinTeamPage />);
  fireEvent.click(await screen.findByRole('button', { name: 'Join team' }));
  expect(await screen.findByText('You joined Acme.')).toBeTruthy();
});
