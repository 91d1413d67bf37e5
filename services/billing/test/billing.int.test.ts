/**
 * The billing service through the real gateway, with the real auth service turning billing's
 * events into the user's plan, PostgreSQL, NATS and Redis; Braintree is the FakeBraintree run by
 * this test (the real SDK talks to it). Every rule and error code of the routes, the trial and
 * its expiry job (injected clock), invoices and their PDF, webhooks and their replay.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Pool } from 'pg';
import { Queue } from 'bullmq';
import { z } from 'zod';
import { bullPrefix, connectBus, createLogger, createRedis, createService, endpoint } from '@wb/platform';
import type { Bus, RunningService } from '@wb/platform';
import type { RunningStack } from '@wb/platform/testing';
import { AppError, CANCEL_SUBSCRIPTION_CONFIRMATION_PHRASE, invoiceSchema, subscriptionSchema } from '@wb/proto';
import type { Invoice, Subscription } from '@wb/proto';
import { processMaintenanceJob, MAINTENANCE_QUEUE, MAINTENANCE_SCHEDULER } from '../src/jobs/maintenance';
import { customerIdFor } from '../src/payments/provider';
import {
  eventually,
  FakeBraintree,
  pdfText,
  planOf,
  signUp,
  startBillingStack,
  subscribeBody,
  testDeps,
} from './helpers';
import type { Browser } from './helpers';

const DAY = 24 * 3600_000;

let fake: FakeBraintree;
let stack: RunningStack;
let db: Pool;

beforeAll(async () => {
  fake = await FakeBraintree.start();
  stack = await startBillingStack(fake);
  db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
}, 90_000);

afterAll(async () => {
  await db?.end();
  await stack?.stop();
  await fake?.close();
});

/** billing.subscription.changed.v1 events of one user, in order */
async function eventsOf(userId: number): Promise<unknown[]> {
  const { rows } = await db.query<{ data: unknown }>(
    `SELECT data FROM billing.outbox WHERE type = 'billing.subscription.changed.v1' AND (data->>'userId')::int = $1
      ORDER BY id`,
    [userId],
  );
  return rows.map((r) => r.data);
}

/** waits until GET /api/plan says `plan`; returns the milliseconds it took from `since` */
async function planReaches(b: Browser, plan: string, since = Date.now()): Promise<number> {
  await eventually(async () => (await planOf(b)) === plan, 5000, 20);
  return Date.now() - since;
}

/** runs the maintenance job's processor as a worker would, with a clock `aheadMs` in the future */
async function runMaintenance(aheadMs: number): Promise<{ lapsed: number }> {
  const deps = testDeps(stack, fake, () => new Date(Date.now() + aheadMs));
  try {
    return await processMaintenanceJob(deps);
  } finally {
    await deps.close();
  }
}

describe('the free trial', () => {
  it('starts once per person, without a card, and gives the plan through auth within 1 s', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Tina Trial');
    expect((await browser.get('/api/billing/free-trial')).body).toEqual({ canHaveFreeTrial: true });
    expect((await browser.get('/api/billing/subscription')).body).toBeNull();

    const noTerms = await browser.post('/api/billing/trial', {
      plan: 'premium',
      billing_period: 'monthly',
      terms: false,
    });
    expect(noTerms.status).toBe(400);
    expect(noTerms.body.code).toBe('ERR_INVALID_INPUT');
    expect(noTerms.body.fields).toHaveProperty('terms');
    const starter = await browser.post('/api/billing/trial', {
      plan: 'starter',
      billing_period: 'monthly',
      terms: true,
    });
    expect(starter.body.code).toBe('ERR_INVALID_INPUT');

    const started = Date.now();
    const res = await browser.post('/api/billing/trial', { plan: 'premium', billing_period: 'monthly', terms: true });
    expect(res.status).toBe(200);
    const sub = subscriptionSchema.parse(res.body);
    expect(sub).toMatchObject({
      plan: 'premium',
      seats: 1,
      trial: 1,
      status: 'Pending',
      next_billing_amount: 0,
      payment_method: 0,
    });
    expect(sub.id).toMatch(/^trial-/);
    const firstBilling = Date.parse(sub.first_billing_date!);
    expect(Math.abs(firstBilling - (started + 7 * DAY))).toBeLessThan(60_000);
    expect(await planReaches(browser, 'premium', started)).toBeLessThan(1000);
    expect(fake.customers.has(customerIdFor(id))).toBe(false); // no card, no customer at the provider

    expect((await browser.get('/api/billing/free-trial')).body).toEqual({ canHaveFreeTrial: false });
    const again = await browser.post('/api/billing/trial', { plan: 'standard', billing_period: 'yearly', terms: true });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ERR_TRIAL_UNAVAILABLE');
    expect(await eventsOf(id)).toEqual([{ userId: id, subscriptionId: sub.id, plan: 'premium', seats: 1 }]);
  });

  it('a trial that ends without a payment method drops to starter (maintenance job, injected clock)', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Tom Lapse');
    const sub = (await browser.post('/api/billing/trial', { plan: 'standard', billing_period: 'yearly', terms: true }))
      .body as Subscription;
    await planReaches(browser, 'standard');
    // six days on: still a trial
    await runMaintenance(6 * DAY);
    expect(await planOf(browser)).toBe('standard');
    // eight days on: over
    const started = Date.now();
    const { lapsed } = await runMaintenance(8 * DAY);
    expect(lapsed).toBeGreaterThanOrEqual(1);
    expect(await planReaches(browser, 'starter', started)).toBeLessThan(1000);
    expect(await eventsOf(id)).toEqual([
      { userId: id, subscriptionId: sub.id, plan: 'standard', seats: 1 },
      { userId: id, subscriptionId: sub.id, plan: null, seats: 0 },
    ]);
    // the expired trial is still the subscription shown (spec §4 "trial expired" banner)
    expect(((await browser.get('/api/billing/subscription')).body as Subscription).id).toBe(sub.id);
    // running the job again changes nothing
    await runMaintenance(9 * DAY);
    expect(await eventsOf(id)).toHaveLength(2);
  });

  it('the job is registered as a repeatable BullMQ job', async () => {
    const connection = createRedis(stack.env.REDIS_URL!, { forBullmq: true });
    const queue = new Queue(MAINTENANCE_QUEUE, { connection, prefix: bullPrefix(stack.redisPrefix) });
    try {
      const schedulers = await queue.getJobSchedulers();
      expect(schedulers.find((s) => s.key === MAINTENANCE_SCHEDULER)?.every).toBe(60_000);
    } finally {
      await queue.close();
      await connection.quit();
    }
  });

  it('subscribing during the trial starts billing when the trial ends (nothing charged now)', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Cora Convert');
    const trial = (
      await browser.post('/api/billing/trial', { plan: 'premium', billing_period: 'monthly', terms: true })
    ).body as Subscription;
    const res = await browser.post('/api/billing/subscription', subscribeBody({ plan: 'premium' }));
    expect(res.status).toBe(200);
    const sub = subscriptionSchema.parse(res.body);
    expect(sub.id).toMatch(/^trial-/);
    expect(sub.id).not.toBe(trial.id);
    expect(sub).toMatchObject({
      trial: 1,
      status: 'Pending',
      plan: 'premium',
      next_billing_amount: 3596,
      payment_method: 1,
    });
    expect(sub.first_billing_date!.slice(0, 10)).toBe(trial.first_billing_date!.slice(0, 10));
    expect(fake.charges(customerIdFor(id))).toHaveLength(0);
    expect(await planOf(browser)).toBe('premium');
    // the subscription shown is the trial with the card (the web shows one state: trial, first charge)
    expect((await browser.get('/api/billing/subscription')).body).toMatchObject({ id: sub.id, payment_method: 1 });
    // the job leaves a trial with a card alone while the provider still has it running
    await runMaintenance(DAY);
    expect(await planOf(browser)).toBe('premium');
  });
});

describe('subscribing', () => {
  it('charges the card once, VAT included; the invoice is listed and its PDF can be filed', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Paula Pay');
    const started = Date.now();
    const res = await browser.post('/api/billing/subscription', subscribeBody({ plan: 'standard', seats: 1 }));
    expect(res.status).toBe(200);
    const sub = subscriptionSchema.parse(res.body);
    // standard monthly: 10.00 net + 24 % Estonian VAT
    expect(sub).toMatchObject({ plan: 'standard', status: 'Active', trial: 0, seats: 1, next_billing_amount: 1240 });
    expect(sub.id).toMatch(/^sub-/);
    expect(await planReaches(browser, 'standard', started)).toBeLessThan(1000);
    expect(fake.charges(customerIdFor(id)).map((c) => c.amountCents)).toEqual([1240]);
    expect((await browser.get('/api/billing/subscription')).body).toEqual(sub);
    expect((await browser.get('/api/billing/free-trial')).body).toEqual({ canHaveFreeTrial: false });

    const invoices = z.array(invoiceSchema).parse((await browser.get('/api/billing/invoices')).body);
    expect(invoices).toHaveLength(1);
    const [invoice] = invoices as [Invoice];
    expect(invoice).toMatchObject({
      amount: 1240,
      net_amount: 1000,
      vat_amount: 240,
      vat_rate: 24,
      type: 'payment',
      status: 'pending',
      currency: 'EUR',
    });
    fake.settle();
    expect(((await browser.get('/api/billing/invoices')).body as Invoice[])[0]!.status).toBe('settled');

    const pdf = await fetch(`${stack.gatewayUrl}/api/billing/invoices/${invoice.id}.pdf`, {
      headers: { cookie: browser.cookieHeader() },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment; filename="invoice-\d+\.pdf"$/);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(bytes);
    for (const line of ['INVOICE', 'Net amount: 10.00 EUR', 'VAT 24%: 2.40 EUR', 'Total: 12.40 EUR', 'Ann Tamm']) {
      expect(text).toContain(line);
    }
    expect(text).toMatch(/VAT number: EE\d+/); // the seller's

    // someone else's invoice, or none: 404
    const other = await signUp(stack.gatewayUrl, 'Nosy Neighbour');
    const theirs = await other.browser.get(`/api/billing/invoices/${invoice.id}.pdf`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('ERR_NOT_FOUND');
    expect(await eventsOf(id)).toEqual([{ userId: id, subscriptionId: sub.id, plan: 'standard', seats: 1 }]);
  });

  it('a declined card answers ERR_BRAINTREE and stores nothing', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Dee Clined');
    const res = await browser.post(
      '/api/billing/subscription',
      subscribeBody({ nonce: 'fake-processor-declined-visa-nonce' }),
    );
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('ERR_BRAINTREE');
    expect(res.body.message).toMatch(/declined|verified/);
    expect((await browser.get('/api/billing/subscription')).body).toBeNull();
    const count = async (table: string) =>
      (await db.query(`SELECT count(*)::int AS n FROM billing.${table} WHERE user_id = $1`, [id])).rows[0].n;
    expect(await count('subscriptions')).toBe(0);
    expect(await count('customers')).toBe(0);
    expect(await count('invoices')).toBe(0);
    expect(
      (await db.query(`SELECT state FROM billing.operations WHERE user_id = $1`, [id])).rows.map((r) => r.state),
    ).toEqual(['failed']);
    expect(fake.charges(customerIdFor(id))).toHaveLength(0);
    expect(await eventsOf(id)).toEqual([]);
    expect(await planOf(browser)).toBe('starter');
    // a good card afterwards works
    expect((await browser.post('/api/billing/subscription', subscribeBody())).status).toBe(200);
  });

  it('VAT: a malformed or unregistered number is ERR_INVALID_VAT; a valid EU business number pays no VAT', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Vera Vat');
    const malformed = await browser.post(
      '/api/billing/subscription',
      subscribeBody({}, { country_code: 'DE', vat_nr: 'DE12' }),
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('ERR_INVALID_VAT');
    // well-formed, but the online check (the fake VIES) does not know it
    const unknown = await browser.post(
      '/api/billing/subscription',
      subscribeBody({}, { country_code: 'DE', vat_nr: 'DE123450000' }),
    );
    expect(unknown.body.code).toBe('ERR_INVALID_VAT');
    expect(fake.charges(customerIdFor(id))).toHaveLength(0);

    const ok = await browser.post(
      '/api/billing/subscription',
      subscribeBody(
        { plan: 'premium', billing_period: 'yearly', seats: 3 },
        { country_code: 'DE', vat_nr: 'DE123456789', company: 'Schule GmbH' },
      ),
    );
    expect(ok.status).toBe(200);
    // premium yearly: 25 € × 12 × 3 = 900 €, reverse charge: no VAT
    expect(ok.body).toMatchObject({ next_billing_amount: 90000, seats: 3 });
    expect(fake.charges(customerIdFor(id)).map((c) => c.amountCents)).toEqual([90000]);
    const [invoice] = (await browser.get('/api/billing/invoices')).body as Invoice[];
    expect(invoice).toMatchObject({ amount: 90000, vat_amount: 0, net_amount: 90000, vat_rate: 0 });
    const pdf = await fetch(`${stack.gatewayUrl}/api/billing/invoices/${invoice!.id}.pdf`, {
      headers: { cookie: browser.cookieHeader() },
    });
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('reverse charge');
    expect(text).toContain('VAT number: DE123456789');
    expect(text).toContain('Schule GmbH');
  });

  it('promo codes: unknown → ERR_UNKNOWN_PROMO_CODE; a known one takes its percent off every cycle', async () => {
    await db.query(
      `INSERT INTO billing.promo_codes (code, percent_off) VALUES ('SCHOOL20', 20) ON CONFLICT DO NOTHING`,
    );
    const { browser, id } = await signUp(stack.gatewayUrl, 'Pia Promo');
    const unknown = await browser.post('/api/billing/subscription', subscribeBody({ promo: 'NOPE' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('ERR_UNKNOWN_PROMO_CODE');
    const res = await browser.post('/api/billing/subscription', subscribeBody({ promo: 'school20' }));
    expect(res.status).toBe(200);
    // 10.00 − 20 % = 8.00, + 24 % VAT = 9.92
    expect(res.body.next_billing_amount).toBe(992);
    expect(fake.charges(customerIdFor(id)).map((c) => c.amountCents)).toEqual([992]);
  });

  it('answers 401 without a session and gives a client token with one', async () => {
    const guest = await fetch(`${stack.gatewayUrl}/api/billing/subscription`);
    expect(guest.status).toBe(401);
    const { browser } = await signUp(stack.gatewayUrl, 'Toby Token');
    const res = await browser.get('/api/billing/client-token');
    expect(res.status).toBe(200);
    expect(typeof res.body.clientToken).toBe('string');
  });
});

describe('changing and cancelling', () => {
  let teamsBus: Bus;
  let teams: RunningService;
  const activeUsers = new Map<number, number>();

  beforeAll(async () => {
    // the teams service (memberships) is played by this test: svc.teams.seats.check
    const log = createLogger({ service: 'test-teams', level: 'silent' });
    teamsBus = await connectBus({
      url: stack.env.NATS_URL!,
      prefix: stack.natsPrefix,
      name: 'test-teams',
      log,
      ensureStream: false,
    });
    teams = await createService(teamsBus, {
      name: 'teams',
      version: '0.0.0',
      description: 'test double of the teams service',
      log,
      endpoints: [
        endpoint({
          operation: 'seats.check',
          input: z.object({ seats: z.number().int() }),
          output: z.object({ ok: z.literal(true), activeUsers: z.number().int() }),
          handler: async ({ seats }, ctx) => {
            const active = activeUsers.get(ctx.actor.userId) ?? 1;
            if (seats < active) throw new AppError('ERR_SEAT_COUNT_TOO_LOW');
            return { ok: true as const, activeUsers: active };
          },
        }),
      ],
    });
  });

  afterAll(async () => {
    await teams?.stop();
    await teamsBus?.drain();
  });

  it('changes plan and seats at the provider (price from the next billing date); seats never below active users', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Olga Owner');
    const sub = (await browser.post('/api/billing/subscription', subscribeBody({ plan: 'standard', seats: 2 })))
      .body as Subscription;
    activeUsers.set(id, 3);
    // 2 → 3 seats needs no check; 3 → 2 with 3 active users is refused
    const up = await browser.put('/api/billing/subscription', { plan: 'premium', seats: 3 });
    expect(up.status).toBe(200);
    // premium monthly 29 € × 3 = 87 € + 24 % = 107.88 €
    expect(up.body).toMatchObject({ id: sub.id, plan: 'premium', seats: 3, next_billing_amount: 10788 });
    expect(fake.subscriptions.get(sub.id)).toMatchObject({ planId: 'premium-monthly', priceCents: 10788 });
    await planReaches(browser, 'premium');
    const down = await browser.put('/api/billing/subscription', { seats: 2 });
    expect(down.status).toBe(400);
    expect(down.body.code).toBe('ERR_SEAT_COUNT_TOO_LOW');
    expect(fake.subscriptions.get(sub.id)!.priceCents).toBe(10788);
    activeUsers.set(id, 2);
    expect((await browser.put('/api/billing/subscription', { seats: 2 })).body.seats).toBe(2);
    expect(await eventsOf(id)).toEqual([
      { userId: id, subscriptionId: sub.id, plan: 'standard', seats: 2 },
      { userId: id, subscriptionId: sub.id, plan: 'premium', seats: 3 },
      { userId: id, subscriptionId: sub.id, plan: 'premium', seats: 2 },
    ]);
    // only the first payment was charged: no proration
    expect(fake.charges(customerIdFor(id))).toHaveLength(1);
    const empty = await browser.put('/api/billing/subscription', {});
    expect(empty.body.code).toBe('ERR_INVALID_INPUT');
    const nobody = await signUp(stack.gatewayUrl, 'Nobody Subscribed');
    const none = await nobody.browser.put('/api/billing/subscription', { seats: 2 });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('ERR_NOT_FOUND');
  });

  it('cancelling needs the phrase; the plan stays until the paid period ends, then the job takes it', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Cleo Cancel');
    const sub = (await browser.post('/api/billing/subscription', subscribeBody({ plan: 'ultimate' })))
      .body as Subscription;
    await planReaches(browser, 'ultimate');
    const wrong = await browser.post('/api/billing/subscription/cancel', { confirmation: 'yes please' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('ERR_CONFIRMATION_FAILED');
    expect(fake.subscriptions.get(sub.id)!.status).toBe('Active');

    const res = await browser.post('/api/billing/subscription/cancel', {
      confirmation: CANCEL_SUBSCRIPTION_CONFIRMATION_PHRASE,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: sub.id, status: 'Canceled', next_billing_date: null });
    expect(Date.parse(res.body.expires)).toBeGreaterThan(Date.now() + 25 * DAY);
    expect(fake.subscriptions.get(sub.id)!.status).toBe('Canceled');
    // cancelling again is harmless
    expect((await browser.post('/api/billing/subscription/cancel', { confirmation: 'CANCEL' })).body.status).toBe(
      'Canceled',
    );
    await runMaintenance(5 * DAY);
    expect(await planOf(browser)).toBe('ultimate');
    await runMaintenance(40 * DAY);
    await planReaches(browser, 'starter');
    expect(await eventsOf(id)).toEqual([
      { userId: id, subscriptionId: sub.id, plan: 'ultimate', seats: 1 },
      { userId: id, subscriptionId: sub.id, plan: null, seats: 0 },
    ]);
    // no refund
    expect(fake.transactions.filter((t) => t.customerId === customerIdFor(id) && t.type === 'credit')).toEqual([]);
  });
});

describe('webhooks', () => {
  const post = (body: Record<string, string>, type = 'application/x-www-form-urlencoded') =>
    fetch(`${stack.gatewayUrl}/api/billing/webhooks`, {
      method: 'POST',
      headers: { 'content-type': type },
      body: type.includes('json') ? JSON.stringify(body) : new URLSearchParams(body).toString(),
    });

  it('are verified by signature (no session, no CSRF), applied, and a replay changes nothing', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Wes Hook');
    const sub = (await browser.post('/api/billing/subscription', subscribeBody({ plan: 'premium' })))
      .body as Subscription;
    await planReaches(browser, 'premium');

    const forged = fake.webhook('subscription_canceled', sub.id);
    const bad = await post({ ...forged, bt_signature: `${fake.publicKey}|${'0'.repeat(40)}` });
    expect(bad.status).toBe(403);
    expect(((await bad.json()) as { code: string }).code).toBe('ERR_FORBIDDEN');
    expect((await post(forged, 'application/json')).status).toBe(415);
    expect((await post({ bt_signature: 'x' })).status).toBe(400);

    // the renewal is declined: past due (the plan stays: add a payment method to resume)
    fake.advanceToPastDue(sub.id);
    const pastDue = fake.webhook('subscription_went_past_due', sub.id);
    const applied = await post(pastDue);
    expect(applied.status).toBe(200);
    expect(await applied.json()).toEqual({ ok: true, duplicate: false });
    expect(((await browser.get('/api/billing/subscription')).body as Subscription).status).toBe('Past Due');
    expect(await planOf(browser)).toBe('premium');

    // a new card resumes it: charged again, active
    const resumed = await browser.put('/api/billing/subscription', { nonce: 'fake-valid-mastercard-nonce' });
    expect(resumed.status).toBe(200);
    expect(resumed.body.status).toBe('Active');
    const charged = await post(fake.webhook('subscription_charged_successfully', sub.id));
    expect(await charged.json()).toEqual({ ok: true, duplicate: false });
    expect((await browser.get('/api/billing/invoices')).body).toHaveLength(2);

    // the old past-due notification again: handled before, changes nothing
    const outboxBefore = (await db.query('SELECT count(*)::int AS n FROM billing.outbox')).rows[0].n;
    const rowBefore = (await db.query('SELECT * FROM billing.subscriptions WHERE id = $1', [sub.id])).rows[0];
    const replay = await post(pastDue);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ ok: true, duplicate: true });
    expect((await db.query('SELECT * FROM billing.subscriptions WHERE id = $1', [sub.id])).rows[0]).toEqual(rowBefore);
    expect((await db.query('SELECT count(*)::int AS n FROM billing.outbox')).rows[0].n).toBe(outboxBefore);
    expect(((await browser.get('/api/billing/subscription')).body as Subscription).status).toBe('Active');

    // cancelled at Braintree (e.g. from its control panel): cancelled here, the plan stays until the period ends
    fake.subscriptions.get(sub.id)!.status = 'Canceled';
    expect(await (await post(fake.webhook('subscription_canceled', sub.id))).json()).toEqual({
      ok: true,
      duplicate: false,
    });
    expect(((await browser.get('/api/billing/subscription')).body as Subscription).status).toBe('Canceled');
    expect(await planOf(browser)).toBe('premium');
    // expired at Braintree: the plan goes at once
    fake.subscriptions.get(sub.id)!.status = 'Expired';
    fake.subscriptions.get(sub.id)!.paidThroughDate = new Date(Date.now() - 2 * DAY).toISOString().slice(0, 10);
    await post(fake.webhook('subscription_expired', sub.id));
    await planReaches(browser, 'starter');
    expect((await eventsOf(id)).at(-1)).toEqual({ userId: id, subscriptionId: sub.id, plan: null, seats: 0 });

    // a notification about a subscription that is not ours is acknowledged and ignored
    const stranger = await post(fake.webhook('subscription_charged_successfully', 'sub-not-ours'));
    expect(stranger.status).toBe(200);
  });
});

describe('observability', () => {
  it('/metrics counts subscriptions by outcome, provider errors and webhook kinds', async () => {
    const port = stack.envOf('services/billing').HEALTH_PORT;
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(text).toMatch(/billing_subscriptions_total\{kind="subscribe",outcome="ok"\} [1-9]/);
    expect(text).toMatch(/billing_subscriptions_total\{kind="subscribe",outcome="refused"\} [1-9]/);
    expect(text).toMatch(/billing_provider_errors_total\{operation="subscribe",reason="refused"\} [1-9]/);
    expect(text).toMatch(/billing_webhooks_total\{kind="subscription_went_past_due",result="duplicate"\} 1/);
    expect(text).toMatch(/billing_commands_total\{operation="trial.start",outcome="ERR_TRIAL_UNAVAILABLE"\} [1-9]/);
    // no card data or nonces in the logs
    expect(stack.logs('services/billing').join('\n')).not.toMatch(/fake-valid|fake-processor-declined/);
  });
});
