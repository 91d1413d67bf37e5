/**
 * The real braintree SDK, through BraintreeProvider, against the local fake gateway: every
 * provider operation, declines, gateway failures and timeouts, idempotent retries, webhooks.
 */
import braintree from 'braintree';
import { AppError, billingFormSchema, type BillingForm } from '@wb/proto';
import { FakeBraintree, WEBHOOK_SAMPLE_KINDS } from '../testing/fakeBraintree';
import { BraintreeProvider, braintreeEnvironment } from './braintreeProvider';
import { customerIdFor, wasRefused, type SubscribeInput } from './provider';

const DAY = 86400000;
let fake: FakeBraintree;
let provider: BraintreeProvider;
let keySeq = 0;

function buildForm(over: Partial<BillingForm> = {}): BillingForm {
  return billingFormSchema.parse({
    first_name: 'Mari',
    last_name: 'Maasikas',
    email: 'mari@example.com',
    company: 'Kool OÜ',
    country_code: 'EE',
    city_region: 'Tallinn',
    postal_code: '10111',
    street_address: 'Narva mnt 5',
    ...over,
  });
}

async function customer(userId = 1): Promise<string> {
  return (await provider.ensureCustomer({ id: userId, email: 'mari@example.com' }, buildForm())).customerId;
}

function subscribeInput(customerId: string, over: Partial<SubscribeInput> = {}): SubscribeInput {
  keySeq += 1;
  return {
    customerId,
    nonce: 'fake-valid-nonce',
    planId: 'premium-yearly',
    amountCents: 37200,
    idempotencyKey: `k${keySeq}`,
    ...over,
  };
}

/** the AppError a promise rejects with (fails the test if it resolves or throws something else) */
async function appError(promise: Promise<unknown>): Promise<AppError> {
  const err: unknown = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

beforeEach(async () => {
  fake = await FakeBraintree.start();
  provider = new BraintreeProvider({ ...fake.config, timeoutMs: 300 });
});
afterEach(async () => {
  await fake.close();
});

describe('environment', () => {
  it('maps sandbox, production and a URL; refuses anything else', () => {
    expect(braintreeEnvironment('sandbox')).toBe(braintree.Environment.Sandbox);
    expect(braintreeEnvironment('production')).toBe(braintree.Environment.Production);
    expect(braintreeEnvironment('http://127.0.0.1:4010')).toMatchObject({
      server: '127.0.0.1',
      port: '4010',
      ssl: false,
    });
    expect(braintreeEnvironment('https://bt.example.com')).toMatchObject({ port: '443', ssl: true });
    expect(() => braintreeEnvironment('staging')).toThrow(RangeError);
  });
});

describe('customers and client tokens', () => {
  it('ensureCustomer creates the customer once, then updates its details', async () => {
    expect(await customer(7)).toBe(customerIdFor(7));
    await provider.ensureCustomer({ id: 7, email: 'x@example.com' }, buildForm({ last_name: 'Tamm', company: '' }));
    expect(fake.customers.size).toBe(1);
    expect(fake.customers.get('wb-user-7')).toMatchObject({
      firstName: 'Mari',
      lastName: 'Tamm',
      email: 'mari@example.com',
    });
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/customers')).toHaveLength(1);
  });

  it('clientToken works without and with a customer; an unknown customer is ERR_BRAINTREE', async () => {
    const anonymous = JSON.parse(Buffer.from(await provider.clientToken(), 'base64').toString()) as Record<
      string,
      unknown
    >;
    expect(anonymous).toMatchObject({ version: 2, merchantId: fake.merchantId });
    const id = await customer();
    const own = JSON.parse(Buffer.from(await provider.clientToken(id), 'base64').toString()) as Record<string, unknown>;
    expect(own.customerId).toBe(id);
    expect((await appError(provider.clientToken('nobody'))).code).toBe('ERR_BRAINTREE');
  });

  it('wrong credentials are ERR_BRAINTREE without the SDK message', async () => {
    const stranger = new BraintreeProvider({ ...fake.config, privateKey: 'wrong' });
    const err = await appError(stranger.clientToken());
    expect(err.code).toBe('ERR_BRAINTREE');
    expect(err.message).not.toMatch(/Authentication/);
  });
});

describe('subscribe', () => {
  it('vaults the card, charges the first period and answers a domain subscription', async () => {
    const id = await customer();
    const sub = await provider.subscribe(subscribeInput(id));
    expect(sub).toMatchObject({ status: 'Active', planId: 'premium-yearly', amountCents: 37200, trialing: false });
    expect(sub.id).toMatch(/^sub-/);
    expect(sub.nextBillingDate! > sub.paidThroughDate!).toBe(true);
    expect(fake.charges(id).map((c) => c.amountCents)).toEqual([37200]);
    expect(await provider.findSubscription(sub.id)).toEqual(sub);
  });

  it('a future first billing date is a trial: id "trial-…", nothing charged until it ends', async () => {
    const id = await customer();
    const sub = await provider.subscribe(subscribeInput(id, { firstBillingDate: new Date(Date.now() + 7 * DAY) }));
    expect(sub.id).toMatch(/^trial-/);
    expect(sub).toMatchObject({ status: 'Pending', trialing: true });
    expect(fake.charges()).toHaveLength(0);
    fake.bill(sub.id); // the trial ends
    expect(await provider.findSubscription(sub.id)).toMatchObject({ status: 'Active', trialing: false });
    expect(fake.charges()).toHaveLength(1);
  });

  it('a processor-declined card is refused at verification: ERR_BRAINTREE, nothing created', async () => {
    const id = await customer();
    const err = await appError(provider.subscribe(subscribeInput(id, { nonce: 'fake-processor-declined-visa-nonce' })));
    expect(err.code).toBe('ERR_BRAINTREE');
    expect(err.message).toMatch(/could not be verified \(Do Not Honor\)/);
    expect(fake.subscriptions.size).toBe(0);
    expect(fake.charges()).toHaveLength(0);
  });

  it.each([
    [200000, 'Do Not Honor'],
    [200100, 'Insufficient Funds'],
    [299999, 'Processor Declined'],
  ])('amount %p cents is processor-declined (%s)', async (amountCents, text) => {
    const id = await customer();
    const err = await appError(provider.subscribe(subscribeInput(id, { amountCents })));
    expect(err.code).toBe('ERR_BRAINTREE');
    expect(err.message).toBe(`Your card was declined by the bank (${text}). Please use another card.`);
    expect(fake.subscriptions.size).toBe(0);
  });

  it('amounts just outside 2000.00–2999.99 go through', async () => {
    const id = await customer();
    await provider.subscribe(subscribeInput(id, { amountCents: 199999 }));
    await provider.subscribe(subscribeInput(id, { amountCents: 300000 }));
    expect(fake.charges()).toHaveLength(2);
  });

  it('a consumed nonce is refused with a readable message', async () => {
    const id = await customer();
    const err = await appError(provider.subscribe(subscribeInput(id, { nonce: 'fake-consumed-nonce' })));
    expect(err).toMatchObject({ code: 'ERR_BRAINTREE' });
    expect(err.message).toMatch(/already used/);
    const single = fake.issueNonce();
    await provider.subscribe(subscribeInput(id, { nonce: single }));
    const again = await appError(provider.subscribe(subscribeInput(id, { nonce: single })));
    expect(again.message).toMatch(/already used/);
  });

  it('an unknown plan is ERR_BRAINTREE', async () => {
    const id = await customer();
    expect((await appError(provider.subscribe(subscribeInput(id, { planId: 'gold' })))).message).toMatch(/plan/);
  });
});

describe('gateway failures', () => {
  it('a 5xx answer is ERR_BRAINTREE with a readable message and the cause kept', async () => {
    const id = await customer();
    fake.failNext(1, { status: 503 });
    const err = await appError(provider.findSubscription('sub-x'));
    expect(err.code).toBe('ERR_BRAINTREE');
    expect(err.message).toBe('The payment provider is not reachable at the moment, please try again');
    expect((err as Error).cause).toMatchObject({ type: 'serviceUnavailableError' });
    fake.failNext(1, { status: 500, method: 'POST', path: /^\/subscriptions$/ });
    expect((await appError(provider.subscribe(subscribeInput(id)))).code).toBe('ERR_BRAINTREE');
    expect(fake.subscriptions.size).toBe(0);
  });

  it('a timeout is ERR_BRAINTREE', async () => {
    fake.delayNext(1, 1000);
    const started = Date.now();
    const err = await appError(provider.clientToken());
    expect(err.code).toBe('ERR_BRAINTREE');
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('a refused connection is ERR_BRAINTREE', async () => {
    const gone = new BraintreeProvider({ ...fake.config });
    await fake.close();
    expect((await appError(gone.clientToken())).code).toBe('ERR_BRAINTREE');
    fake = await FakeBraintree.start(); // for afterEach
  });
});

describe('idempotent subscribe', () => {
  it('a retry after a timeout (the first attempt did charge) returns it without a second charge', async () => {
    const id = await customer();
    const input = subscribeInput(id, { nonce: fake.issueNonce() });
    fake.delayNext(1, 1000, { method: 'POST', path: /^\/subscriptions$/ });
    expect((await appError(provider.subscribe(input))).code).toBe('ERR_BRAINTREE');
    expect(fake.charges()).toHaveLength(1); // it went through on Braintree's side

    const retried = await provider.subscribe(input);
    expect(retried).toMatchObject({ id: `sub-${input.idempotencyKey}`, status: 'Active' });
    expect(fake.charges()).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/subscriptions')).toHaveLength(1);
  });

  it('a retry after a failure between vaulting and subscribing reuses the vaulted card (nonce spent once)', async () => {
    const id = await customer();
    const input = subscribeInput(id, { nonce: fake.issueNonce() });
    fake.failNext(1, { method: 'POST', path: /^\/subscriptions$/ });
    await appError(provider.subscribe(input));
    const sub = await provider.subscribe(input);
    expect(sub.status).toBe('Active');
    expect(fake.charges()).toHaveLength(1);
    expect(fake.requests.filter((r) => r.path === '/payment_methods')).toHaveLength(1);
  });

  it('two concurrent attempts with one key make one subscription and one charge', async () => {
    const id = await customer();
    const input = subscribeInput(id, { nonce: fake.issueNonce() });
    const [a, b] = await Promise.all([provider.subscribe(input), provider.subscribe(input)]);
    expect(a.id).toBe(b.id);
    expect(fake.subscriptions.size).toBe(1);
    expect(fake.charges()).toHaveLength(1);
  });
});

describe('change, cancel, find', () => {
  it('changes plan and price from the next billing on, without charging now', async () => {
    const id = await customer();
    const sub = await provider.subscribe(subscribeInput(id));
    const changed = await provider.changeSubscription({
      subscriptionId: sub.id,
      planId: 'ultimate-yearly',
      amountCents: 221712,
    });
    expect(changed).toMatchObject({ planId: 'ultimate-yearly', amountCents: 221712, status: 'Active' });
    expect(fake.charges()).toHaveLength(1);
  });

  it('refuses a plan with another billing cycle like Braintree (91922), changing nothing', async () => {
    const id = await customer();
    const sub = await provider.subscribe(subscribeInput(id));
    const err = await appError(
      provider.changeSubscription({ subscriptionId: sub.id, planId: 'premium-monthly', amountCents: 3596 }),
    );
    expect(err.code).toBe('ERR_BRAINTREE');
    expect(wasRefused(err)).toBe(true);
    expect(err.message).toMatch(/billing period cannot be changed/);
    expect(fake.subscriptions.get(sub.id)).toMatchObject({ planId: 'premium-yearly', priceCents: 37200 });
  });

  it('starts a following subscription on the same card later, as sub-<key>, charging nothing now', async () => {
    const id = await customer();
    const first = await provider.subscribe(subscribeInput(id));
    expect(first.paymentMethodToken).toBeTruthy();
    const start = new Date(Date.now() + 30 * 24 * 3600_000);
    const next = await provider.subscribe(
      subscribeInput(id, {
        nonce: undefined,
        paymentMethodToken: first.paymentMethodToken!,
        planId: 'premium-monthly',
        amountCents: 3596,
        firstBillingDate: start,
        trial: false,
      }),
    );
    expect(next.id).toMatch(/^sub-/);
    expect(next).toMatchObject({ status: 'Pending', firstBillingDate: start.toISOString().slice(0, 10) });
    expect(next.paymentMethodToken).toBe(first.paymentMethodToken);
    expect(fake.charges(id)).toHaveLength(1);
  });

  it('a new payment method resumes a past-due subscription by charging the balance', async () => {
    const id = await customer();
    const sub = await provider.subscribe(subscribeInput(id, { amountCents: 1240 }));
    fake.advanceToPastDue(sub.id);
    expect(await provider.findSubscription(sub.id)).toMatchObject({ status: 'Past Due', balanceCents: 1240 });
    const resumed = await provider.changeSubscription({ subscriptionId: sub.id, nonce: 'fake-valid-mastercard-nonce' });
    expect(resumed).toMatchObject({ status: 'Active', balanceCents: 0 });
    expect(fake.charges().map((c) => c.amountCents)).toEqual([1240, 1240]);
  });

  it('a declining new payment method leaves it past due: ERR_BRAINTREE', async () => {
    const id = await customer();
    const sub = await provider.subscribe(subscribeInput(id));
    fake.advanceToPastDue(sub.id);
    const declining = fake.issueNonce({ declines: true });
    const err = await appError(provider.changeSubscription({ subscriptionId: sub.id, nonce: declining }));
    expect(err.message).toMatch(/could not be verified/);
    expect((await provider.findSubscription(sub.id))!.status).toBe('Past Due');
  });

  it('cancels; cancelling again is a no-op; a cancelled subscription cannot change', async () => {
    const id = await customer();
    const sub = await provider.subscribe(subscribeInput(id));
    expect(await provider.cancelSubscription(sub.id)).toMatchObject({ status: 'Canceled', nextBillingDate: null });
    expect((await provider.cancelSubscription(sub.id)).status).toBe('Canceled');
    const err = await appError(provider.changeSubscription({ subscriptionId: sub.id, amountCents: 100 }));
    expect(err).toMatchObject({
      code: 'ERR_BRAINTREE',
      message: 'This subscription is cancelled and cannot be changed',
    });
  });

  it('unknown subscriptions: find is null, cancel and change are ERR_NOT_FOUND', async () => {
    expect(await provider.findSubscription('sub-none')).toBeNull();
    expect((await appError(provider.cancelSubscription('sub-none'))).code).toBe('ERR_NOT_FOUND');
    expect((await appError(provider.changeSubscription({ subscriptionId: 'sub-none', amountCents: 1 }))).code).toBe(
      'ERR_NOT_FOUND',
    );
  });
});

describe('listTransactions', () => {
  it("lists the customer's payments and refunds, newest first, without declined ones", async () => {
    const id = await customer(1);
    const other = await customer(2);
    const sub = await provider.subscribe(subscribeInput(id, { amountCents: 1240 }));
    await provider.subscribe(subscribeInput(other));
    fake.advanceToPastDue(sub.id); // a declined renewal: not an invoice
    await new Promise((r) => setTimeout(r, 5));
    fake.bill(sub.id);
    fake.settle(fake.charges(id)[0]!.id);
    await new Promise((r) => setTimeout(r, 5));
    fake.refund(fake.charges(id)[0]!.id);

    const list = await provider.listTransactions(id);
    expect(list.map((t) => [t.type, t.status, t.amountCents])).toEqual([
      ['refund', 'pending', 1240],
      ['payment', 'pending', 1240],
      ['payment', 'settled', 1240],
    ]);
    expect(list.every((t) => t.currency === 'EUR' && t.subscriptionId === sub.id)).toBe(true);
    expect(await provider.listTransactions('wb-user-404')).toEqual([]);
  });

  it('a failing search is ERR_BRAINTREE', async () => {
    fake.failNext(1, { path: /advanced_search_ids/ });
    expect((await appError(provider.listTransactions('wb-user-1'))).code).toBe('ERR_BRAINTREE');
  });
});

describe('webhooks', () => {
  it.each(WEBHOOK_SAMPLE_KINDS)('parses %s with the subscription it is about', async (kind) => {
    const id = await customer();
    const sub = await provider.subscribe(subscribeInput(id));
    const { bt_signature, bt_payload } = fake.webhook(kind, sub.id);
    const event = await provider.parseWebhook(bt_signature, bt_payload);
    expect(event).toMatchObject({ kind, rawKind: kind, subscriptionId: sub.id });
    expect(event.subscription).toMatchObject({ id: sub.id, status: 'Active', amountCents: 37200 });
    expect(event.timestamp.getTime()).not.toBeNaN();
  });

  it.each(WEBHOOK_SAMPLE_KINDS)("parses the SDK's own sample %s (id only)", async (kind) => {
    const sample = provider.gateway.webhookTesting.sampleNotification(
      kind as braintree.WebhookNotificationKind,
      'sub-42',
    );
    const event = await provider.parseWebhook(sample.bt_signature, sample.bt_payload);
    expect(event).toMatchObject({ kind, subscriptionId: 'sub-42', subscription: null });
  });

  it('an unknown kind is "other"', async () => {
    const { bt_signature, bt_payload } = fake.webhook('subscription_billing_skipped', 'sub-1');
    expect(await provider.parseWebhook(bt_signature, bt_payload)).toMatchObject({
      kind: 'other',
      rawKind: 'subscription_billing_skipped',
    });
  });

  it('a tampered payload or a foreign signature is ERR_FORBIDDEN', async () => {
    const { bt_signature, bt_payload } = fake.webhook('subscription_canceled', 'sub-1');
    const xml = Buffer.from(bt_payload, 'base64').toString().replace('sub-1', 'sub-2');
    const tampered = Buffer.from(xml).toString('base64') + '\n';
    expect((await appError(provider.parseWebhook(bt_signature, tampered))).code).toBe('ERR_FORBIDDEN');
    const foreign = await FakeBraintree.start({ privateKey: 'another-key' });
    try {
      const signed = foreign.webhook('subscription_canceled', 'sub-1');
      expect((await appError(provider.parseWebhook(signed.bt_signature, signed.bt_payload))).code).toBe(
        'ERR_FORBIDDEN',
      );
    } finally {
      await foreign.close();
    }
    expect((await appError(provider.parseWebhook('', bt_payload))).code).toBe('ERR_FORBIDDEN');
  });
});
