/**
 * The effective plan (issue 12): auth consumes what billing (own subscription) and teams (team
 * licence) say, stores effectivePlanName of them as the user's plan and announces changes; the
 * boards service's limits follow at once. The producers are played by this test, which publishes
 * their events to the stack's JetStream stream exactly as their outbox relays would.
 * Real gateway, auth and boards services, PostgreSQL, NATS and Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Pool } from 'pg';
import { connectBus, createLogger, subscribeBroadcast } from '@wb/platform';
import type { Bus } from '@wb/platform';
import { signUp, startStack } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';
import { eventSubject } from '@wb/proto';
import type { EventData, EventEnvelope, PlanName } from '@wb/proto';
import { Browser, eventually } from './browser';

let stack: RunningStack;
let db: Pool;
let bus: Bus;
/** outbox sequences of the pretend producers */
const seq = { billing: 0, teams: 0 };
const latencies: number[] = [];

beforeAll(async () => {
  stack = await startStack({ deployables: ['services/auth', 'services/boards', 'gateway'] });
  db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
  bus = await connectBus({
    url: stack.env.NATS_URL!,
    prefix: stack.natsPrefix,
    name: 'test-producers',
    log: createLogger({ service: 'test', level: 'silent' }),
    ensureStream: false,
  });
}, 90_000);

afterAll(async () => {
  if (latencies.length) {
    const sorted = [...latencies].sort((a, b) => a - b);
    process.stdout.write(
      `plan change → GET /api/plan and boards limit: n=${sorted.length} median ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms\n`,
    );
  }
  await bus?.drain();
  await db?.end();
  await stack?.stop();
});

async function publish<T extends 'billing.subscription.changed.v1' | 'teams.licence.changed.v1'>(
  type: T,
  data: EventData<T>,
  opts: { id?: string; msgId?: string } = {},
): Promise<string> {
  const producer = type.startsWith('billing') ? 'billing' : 'teams';
  const id = opts.id ?? `${producer}:${++seq[producer]}`;
  const envelope: EventEnvelope = { id, type, occurredAt: new Date().toISOString(), data };
  await bus.js.publish(eventSubject(stack.natsPrefix, type), JSON.stringify(envelope), { msgID: opts.msgId ?? id });
  return id;
}

const planOf = async (b: Browser): Promise<PlanName> => ((await b.get('/api/plan')).body as { name: PlanName }).name;

/** waits until GET /api/plan says `plan`; returns the milliseconds since `since` */
async function planReaches(b: Browser, plan: PlanName, since: number): Promise<number> {
  await eventually(async () => (await planOf(b)) === plan, 5000, 20);
  return Date.now() - since;
}

describe('the effective plan: own subscription, else team licence, else starter', () => {
  it('a subscription gives its plan within 1 s, to GET /api/plan and to the boards limits', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Sam Subscriber');
    for (let i = 0; i < 5; i++) expect((await browser.post('/api/boards', { title: `b${i}` })).status).toBe(200);
    expect((await browser.post('/api/boards', { title: 'sixth' })).body.code).toBe('ERR_MAX_BOARDS_REACHED');
    // boards now holds the starter plan in its cache; the change must reach it anyway
    const started = Date.now();
    await publish('billing.subscription.changed.v1', {
      userId: id,
      subscriptionId: 'sub-1',
      plan: 'standard',
      seats: 1,
    });
    const planMs = await planReaches(browser, 'standard', started);
    await eventually(async () => (await browser.post('/api/boards', { title: 'sixth' })).status === 200, 5000, 20);
    const limitMs = Date.now() - started;
    latencies.push(planMs, limitMs);
    expect(planMs).toBeLessThan(1000);
    expect(limitMs).toBeLessThan(1000);
    // announced for the other services
    const { rows } = await db.query<{ type: string; data: unknown }>(
      "SELECT type, data FROM auth.outbox WHERE type = 'auth.user.plan_changed.v1' AND (data->>'userId')::int = $1",
      [id],
    );
    expect(rows.map((r) => r.data)).toEqual([{ userId: id, plan: 'standard', previousPlan: 'starter' }]);
  });

  it('a team licence gives the team plan; an own subscription wins over it; losing both is starter', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Tia Teammate');
    const announced: unknown[] = [];
    const sub = subscribeBroadcast(bus, eventSubject(stack.natsPrefix, 'auth.user.plan_changed.v1'), (e) => {
      const data = (e as EventEnvelope<{ userId: number }>).data;
      if (data.userId === id) announced.push(data);
    });
    try {
      await publish('teams.licence.changed.v1', { userId: id, businessId: 7, plan: 'premium' });
      latencies.push(await planReaches(browser, 'premium', Date.now()));
      await publish('billing.subscription.changed.v1', { userId: id, subscriptionId: 's', plan: 'standard', seats: 1 });
      await planReaches(browser, 'standard', Date.now());
      await publish('billing.subscription.changed.v1', { userId: id, subscriptionId: 's', plan: null, seats: 0 });
      await planReaches(browser, 'premium', Date.now());
      // deactivated licence: features go, data stays
      await publish('teams.licence.changed.v1', { userId: id, businessId: 7, plan: null });
      await planReaches(browser, 'starter', Date.now());
      await eventually(async () => announced.length === 4, 2000);
      expect(announced).toEqual([
        { userId: id, plan: 'premium', previousPlan: 'starter' },
        { userId: id, plan: 'standard', previousPlan: 'premium' },
        { userId: id, plan: 'premium', previousPlan: 'standard' },
        { userId: id, plan: 'starter', previousPlan: 'premium' },
      ]);
    } finally {
      sub.unsubscribe();
    }
  });

  it('a redelivered event changes nothing; an older event arriving late is ignored', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Rae Replay');
    const newer = `billing:${(seq.billing += 10)}`;
    const older = `billing:${seq.billing - 5}`;
    await publish(
      'billing.subscription.changed.v1',
      { userId: id, subscriptionId: 'x', plan: 'ultimate', seats: 1 },
      { id: newer },
    );
    await planReaches(browser, 'ultimate', Date.now());
    // the same event again (a different JetStream message id, so only auth's own de-duplication stops it)
    await publish(
      'billing.subscription.changed.v1',
      { userId: id, subscriptionId: 'x', plan: 'ultimate', seats: 1 },
      { id: newer, msgId: `${newer}-again` },
    );
    // a stale word from before: would downgrade if it were applied
    await publish(
      'billing.subscription.changed.v1',
      { userId: id, subscriptionId: 'x', plan: null, seats: 0 },
      { id: older },
    );
    // a marker event after both, for another user, tells when the consumer has passed them
    const marker = await signUp(stack.gatewayUrl, 'Marker');
    await publish('billing.subscription.changed.v1', {
      userId: marker.id,
      subscriptionId: 'm',
      plan: 'standard',
      seats: 1,
    });
    await planReaches(marker.browser, 'standard', Date.now());
    expect(await planOf(browser)).toBe('ultimate');
    const { rows } = await db.query(
      "SELECT count(*)::int AS n FROM auth.outbox WHERE type = 'auth.user.plan_changed.v1' AND (data->>'userId')::int = $1",
      [id],
    );
    expect(rows[0]).toEqual({ n: 1 });
  });

  it('an event for an unknown user is skipped without blocking the ones after it', async () => {
    await publish('billing.subscription.changed.v1', {
      userId: 2_000_000_000,
      subscriptionId: 'ghost',
      plan: 'premium',
      seats: 1,
    });
    const { browser, id } = await signUp(stack.gatewayUrl, 'After Ghost');
    await publish('teams.licence.changed.v1', { userId: id, businessId: 1, plan: 'standard' });
    await planReaches(browser, 'standard', Date.now());
    expect(stack.logs('services/auth').some((l) => /dead-lettered/.test(l))).toBe(false);
  });
});
