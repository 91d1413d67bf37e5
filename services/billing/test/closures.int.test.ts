/**
 * Subscriptions that end because of other services, and billing-period changes, through the real
 * gateway with auth, billing and teams (PostgreSQL, NATS, Redis) and the FakeBraintree of this
 * test:
 * - closing a business (teams.business.closed.v1) cancels the subscription that paid for it at
 *   the provider; the plan stays until the paid period ends (spec §4), nothing more is charged;
 * - a terminated account (auth.user.terminated.v1) has its running subscription cancelled, also
 *   when the provider fails at first (the event is delivered again) and when its payment is only
 *   confirmed after the termination (the maintenance job);
 * - monthly ↔ yearly: a new subscription on the same card from the end of the paid period, the old
 *   one cancelled, charged once per period, also when the provider fails half-way.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Pool } from 'pg';
import { appendEvent, createLogger, createPool, withTransaction } from '@wb/platform';
import { startStack } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';
import type { Subscription } from '@wb/proto';
import { processMaintenanceJob } from '../src/jobs/maintenance';
import { BraintreeProvider } from '../src/payments/braintreeProvider';
import { customerIdFor } from '../src/payments/provider';
import { BILLING_TEST_ENV, eventually, FakeBraintree, planOf, signUp, sleep, subscribeBody, testDeps } from './helpers';
import type { Browser } from './helpers';

let fake: FakeBraintree;
let stack: RunningStack;
let db: Pool;

beforeAll(async () => {
  fake = await FakeBraintree.start();
  stack = await startStack({
    deployables: ['services/auth', 'services/billing', 'services/teams', 'gateway'],
    envFor: {
      'services/billing': {
        BRAINTREE_ENVIRONMENT: fake.url,
        BRAINTREE_MERCHANT_ID: fake.merchantId,
        BRAINTREE_PUBLIC_KEY: fake.publicKey,
        BRAINTREE_PRIVATE_KEY: fake.privateKey,
        ...BILLING_TEST_ENV,
        SEAT_POLICY: 'teams',
      },
    },
  });
  db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
}, 120_000);

afterAll(async () => {
  await db?.end();
  await stack?.stop();
  await fake?.close();
});

async function subscribed(b: Browser, over: Parameters<typeof subscribeBody>[0] = {}): Promise<Subscription> {
  const res = await b.post('/api/billing/subscription', subscribeBody(over));
  expect(res.status).toBe(200);
  return res.body as Subscription;
}

async function ownsBusiness(b: Browser): Promise<void> {
  await eventually(
    async () => ((await b.get('/api/business/info')).body as { role?: string } | null)?.role === 'owner',
    5000,
  );
}

/** runs the maintenance job's processor as a worker would (clock `aheadMs` ahead) */
async function runMaintenance(aheadMs = 0) {
  const deps = testDeps(stack, fake, () => new Date(Date.now() + aheadMs));
  try {
    return await processMaintenanceJob(deps);
  } finally {
    await deps.close();
  }
}

/** auth.user.terminated.v1 as auth writes it (its outbox): the termination that raced a new business */
async function authTerminates(userId: number): Promise<void> {
  const log = createLogger({ service: 'closures-test', level: 'silent' });
  const pool = createPool({ url: stack.databaseUrl, schema: 'auth', poolSize: 1, log });
  try {
    await withTransaction(pool, (client) => appendEvent(client, 'auth', 'auth.user.terminated.v1', { userId }));
  } finally {
    await pool.end();
  }
}

describe('closing a business', () => {
  it('cancels its subscription at the provider; the plan stays until the paid period ends, no new charge', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Olga Owner');
    const sub = await subscribed(browser, { seats: 3 });
    await ownsBusiness(browser);
    expect(fake.subscriptions.get(sub.id)!.status).toBe('Active');

    const closed = await browser.post('/api/business/close', { confirmation: 'CLOSE' });
    expect(closed.status).toBe(200);
    await eventually(async () => fake.subscriptions.get(sub.id)!.status === 'Canceled', 5000);
    await eventually(
      async () => ((await browser.get('/api/billing/subscription')).body as Subscription).status === 'Canceled',
      5000,
    );
    const after = (await browser.get('/api/billing/subscription')).body as Subscription;
    expect(after).toMatchObject({ id: sub.id, next_billing_date: null, expires: sub.expires });
    expect(await planOf(browser)).toBe('standard'); // paid up: spec §4 cancelled
    expect(fake.subscriptions.get(sub.id)!.nextBillingDate).toBeNull();
    expect(fake.charges(customerIdFor(id))).toHaveLength(1);
    const { rows } = await db.query(`SELECT cancel_reason FROM billing.subscriptions WHERE id = $1`, [sub.id]);
    expect(rows[0]).toEqual({ cancel_reason: 'business_closed' });

    // the owner may now terminate the account; billing has nothing more to cancel
    const gone = await browser.post('/api/user/terminate', { confirmation: 'TERMINATE' });
    expect(gone.status).toBe(200);
    await eventually(
      async () => (await db.query('SELECT 1 FROM billing.terminated_users WHERE user_id = $1', [id])).rowCount === 1,
      5000,
    );
    expect(fake.charges(customerIdFor(id))).toHaveLength(1);
  });
});

describe('a terminated account', () => {
  it('has its running subscription cancelled, retried when the provider fails at first', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Tom Terminated');
    const sub = await subscribed(browser, { plan: 'premium' });
    await ownsBusiness(browser);
    // the first two cancellation calls fail: the event is delivered again
    fake.failNext(2, { method: 'PUT', path: /\/subscriptions\/[^/]+\/cancel$/ });
    await authTerminates(id);
    await eventually(async () => fake.subscriptions.get(sub.id)!.status === 'Canceled', 15_000, 100);
    await eventually(async () => {
      const { rows } = await db.query(`SELECT status FROM billing.subscriptions WHERE id = $1`, [sub.id]);
      return rows[0]?.status === 'Canceled';
    }, 5000);
    expect(fake.charges(customerIdFor(id))).toHaveLength(1);
  }, 30_000);

  it('a payment confirmed only after the termination is cancelled by the maintenance job', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Lena Late');
    // Braintree creates and charges, but answers after the service gave up: the operation stays pending
    fake.delayNext(1, 2500, { method: 'POST', path: /^\/subscriptions$/ });
    const res = await browser.post('/api/billing/subscription', subscribeBody());
    expect(res.status).toBe(402);
    await sleep(1500);
    const atProvider = [...fake.subscriptions.values()].find((s) =>
      fake.charges(customerIdFor(id)).some((t) => t.subscriptionId === s.id),
    );
    expect(atProvider?.status).toBe('Active');

    await authTerminates(id);
    await eventually(
      async () => (await db.query('SELECT 1 FROM billing.terminated_users WHERE user_id = $1', [id])).rowCount === 1,
      5000,
    );
    const job = await runMaintenance();
    expect(job.reconciled.completed).toBeGreaterThanOrEqual(1);
    expect(fake.subscriptions.get(atProvider!.id)!.status).toBe('Canceled');
    const { rows } = await db.query(`SELECT status FROM billing.subscriptions WHERE id = $1`, [atProvider!.id]);
    expect(rows[0]).toEqual({ status: 'Canceled' });
    expect(fake.charges(customerIdFor(id))).toHaveLength(1);
    // nothing announced for the account that is gone: no plan, no business
    const { rows: events } = await db.query(
      `SELECT 1 FROM billing.outbox WHERE type = 'billing.subscription.changed.v1' AND (data->>'userId')::int = $1`,
      [id],
    );
    expect(events).toHaveLength(0);
    expect(await planOf(browser)).toBe('starter');
    // nothing left for the next run
    expect((await runMaintenance()).cancellations).toEqual({ cancelled: 0, failed: 0 });
  }, 30_000);
});

describe('changing the billing period', () => {
  it('the fake refuses a cross-cycle plan update like Braintree (91922)', async () => {
    const { browser } = await signUp(stack.gatewayUrl, 'Petra Period');
    const sub = await subscribed(browser);
    // what the old in-place change sent, through the real SDK: refused as by Braintree
    const sdk = new BraintreeProvider({ ...fake.config, timeoutMs: 1500 }).gateway;
    const result = (await sdk.subscription.update(sub.id, { planId: 'standard-yearly' })) as unknown as {
      success: boolean;
      message: string;
      errors: { deepErrors(): { code: string; attribute: string }[] };
    };
    expect(result.success).toBe(false);
    expect(result.message).toBe('Cannot update subscription to a plan with a different billing frequency.');
    expect(result.errors.deepErrors().map((e) => e.code)).toEqual(['91922']);
    expect(fake.subscriptions.get(sub.id)!.planId).toBe('standard-monthly');
  });

  it('monthly → yearly: a new subscription on the same card from the end of the paid period; the old one cancelled', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Yara Yearly');
    const monthly = await subscribed(browser, { seats: 2 });
    const oldCard = fake.subscriptions.get(monthly.id)!.paymentMethodToken;

    const res = await browser.put('/api/billing/subscription', { billing_period: 'yearly' });
    expect(res.status).toBe(200);
    const yearly = res.body as Subscription;
    expect(yearly.id).not.toBe(monthly.id);
    expect(yearly.id).toMatch(/^sub-/);
    // standard yearly 9 € × 12 × 2 seats + 24 % VAT
    expect(yearly).toMatchObject({
      plan: 'standard',
      billing_period: 'yearly',
      seats: 2,
      trial: 0,
      next_billing_amount: 26784,
    });
    expect(yearly.first_billing_date!.slice(0, 10)).toBe(monthly.next_billing_date!.slice(0, 10));
    expect(Date.parse(yearly.expires!)).toBe(Date.parse(monthly.expires!));

    const newAtProvider = fake.subscriptions.get(yearly.id)!;
    expect(newAtProvider).toMatchObject({ status: 'Pending', planId: 'standard-yearly', paymentMethodToken: oldCard });
    expect(fake.subscriptions.get(monthly.id)!.status).toBe('Canceled');
    expect(fake.charges(customerIdFor(id))).toHaveLength(1); // nothing charged now
    expect(await planOf(browser)).toBe('standard');
    const { rows } = await db.query(`SELECT status FROM billing.subscriptions WHERE id = $1`, [monthly.id]);
    expect(rows[0]).toEqual({ status: 'Canceled' });

    // the same request again (a lost answer) changes and charges nothing
    const again = await browser.put('/api/billing/subscription', { billing_period: 'yearly' });
    expect((again.body as Subscription).id).toBe(yearly.id);
    expect(fake.subscriptions.size).toBeGreaterThan(0);
    expect([...fake.subscriptions.values()].filter((s) => s.paymentMethodToken === oldCard)).toHaveLength(2);

    // when the paid month ends, the year is charged once
    const tx = fake.bill(yearly.id);
    expect(tx.amountCents).toBe(26784);
    expect(fake.charges(customerIdFor(id))).toHaveLength(2);
  });

  it('a provider failure after the new subscription exists: finished by reconciliation, never charged twice', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Milo Monthly');
    const yearly = await subscribed(browser, { billing_period: 'yearly' });
    // the new subscription is created, then cancelling the old one fails (provider down)
    fake.failNext(1, { method: 'PUT', path: /\/subscriptions\/[^/]+\/cancel$/ });
    const res = await browser.put('/api/billing/subscription', { billing_period: 'monthly', plan: 'premium' });
    expect(res.status).toBe(402);
    expect(fake.subscriptions.get(yearly.id)!.status).toBe('Active');
    const { rows: pending } = await db.query(
      `SELECT kind, state FROM billing.operations WHERE user_id = $1 AND state = 'pending'`,
      [id],
    );
    expect(pending).toEqual([{ kind: 'period_change', state: 'pending' }]);
    // the user's next billing request first reconciles (the provider is up again)
    const now = (await browser.get('/api/billing/subscription')).body as Subscription;
    expect(now).toMatchObject({ plan: 'premium', billing_period: 'monthly' });
    expect(fake.subscriptions.get(yearly.id)!.status).toBe('Canceled');
    expect(fake.subscriptions.get(now.id)!.status).toBe('Pending');
    expect(fake.charges(customerIdFor(id))).toHaveLength(1);
  });

  it('refuses a period change while past due (the open balance first)', async () => {
    const { browser } = await signUp(stack.gatewayUrl, 'Dana Due');
    const sub = await subscribed(browser);
    fake.advanceToPastDue(sub.id);
    const hook = await fetch(`${stack.gatewayUrl}/api/billing/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fake.webhook('subscription_went_past_due', sub.id)).toString(),
    });
    expect(hook.status).toBe(200);
    await eventually(
      async () => ((await browser.get('/api/billing/subscription')).body as Subscription).status === 'Past Due',
      5000,
    );
    const res = await browser.put('/api/billing/subscription', { billing_period: 'yearly' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'ERR_INVALID_INPUT' });
  });
});
