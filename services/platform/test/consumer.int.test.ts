/**
 * Durable JetStream consumers against the real NATS and PostgreSQL: idempotent on redelivered or
 * duplicated events, failing handlers retried then dead-lettered, graceful stop.
 */
import { headers as natsHeaders } from '@nats-io/nats-core';
import type { EventEnvelope, EventType } from '@wb/proto';
import { eventSubject } from '@wb/proto';
import { withTransaction } from '../src/db';
import type { Pool, PoolClient } from '../src/db';
import type { Bus } from '../src/nats';
import { EventProcessor, startConsumer } from '../src/consumer';
import type { RunningConsumer } from '../src/consumer';
import { appendEvent, startOutboxRelay } from '../src/outbox';
import { createTestDatabase, dropTestDatabase, randomId } from '../src/testing/stack';
import { captureLog, closeBus, eventually, migratedPool, sleep, testBus } from './fixtures';

const SCHEMA = 'cns';
const { log, lines } = captureLog('debug');
let url: string;
let pool: Pool;
let bus: Bus;
const running: RunningConsumer[] = [];

beforeAll(async () => {
  url = await createTestDatabase();
  pool = await migratedPool(url, SCHEMA, log, {
    '0001_handled.sql':
      'CREATE TABLE handled (consumer text, event_id text, user_id int, at timestamptz DEFAULT clock_timestamp());',
  });
});
// A stream per test: a new durable starts at the beginning of the stream (deliver all).
beforeEach(async () => {
  bus = await testBus(log);
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.stop()));
  await closeBus(bus);
});
afterAll(async () => {
  await pool?.end();
  await dropTestDatabase(url);
});

/** Records each event in `handled` (inside the consumer's transaction); `fail` decides per attempt. */
class Recorder extends EventProcessor {
  readonly attempts = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly eventTypes: readonly EventType[],
    override readonly maxDeliveries = 5,
    private readonly fail: (event: EventEnvelope, attempt: number) => boolean = () => false,
    private readonly delayMs = 0,
  ) {
    super();
  }
  async handle(event: EventEnvelope, client: PoolClient): Promise<void> {
    const attempt = (this.attempts.get(event.id) ?? 0) + 1;
    this.attempts.set(event.id, attempt);
    await client.query('INSERT INTO handled (consumer, event_id, user_id) VALUES ($1, $2, $3)', [
      this.name,
      event.id,
      (event.data as { userId: number }).userId,
    ]);
    if (this.delayMs) await sleep(this.delayMs);
    if (this.fail(event, attempt)) throw new Error(`handler failed on attempt ${attempt}`);
  }
}

async function start(p: EventProcessor): Promise<RunningConsumer> {
  const c = await startConsumer({ bus, pool, schema: SCHEMA, processor: p, log, retryBaseMs: 50 });
  running.push(c);
  return c;
}

/** Publish an envelope straight to the stream (a duplicate copy needs its own Nats-Msg-Id). */
async function publish(
  type: EventType,
  id: string,
  data: unknown,
  msgID = `${id}#${randomId()}`,
  traceparent?: string,
): Promise<void> {
  const h = natsHeaders();
  if (traceparent) h.set('traceparent', traceparent);
  const env: EventEnvelope = { id, type, occurredAt: new Date().toISOString(), data };
  await bus.js.publish(eventSubject(bus.prefix, type), JSON.stringify(env), { msgID, headers: h });
}

async function handledRows(consumer: string): Promise<Array<{ event_id: string; user_id: number }>> {
  const { rows } = await pool.query<{ event_id: string; user_id: number }>(
    'SELECT event_id, user_id FROM handled WHERE consumer = $1 ORDER BY at',
    [consumer],
  );
  return rows;
}

async function settled(durable: string): Promise<boolean> {
  const ci = await (await bus.jsm()).consumers.info(bus.eventStream, durable);
  return ci.num_pending === 0 && ci.num_ack_pending === 0;
}

it('handles events published through the outbox, in order', async () => {
  const p = new Recorder(`e2e_${randomId()}`, ['auth.user.terminated.v1']);
  await start(p);
  const relay = startOutboxRelay({ pool, schema: SCHEMA, bus, log, pollMs: 50 });
  try {
    const ids = await withTransaction(pool, async (c) => [
      await appendEvent(c, SCHEMA, 'auth.user.terminated.v1', { userId: 1 }),
      await appendEvent(c, SCHEMA, 'auth.user.terminated.v1', { userId: 2 }),
    ]);
    const rows = await eventually(async () => {
      const r = await handledRows(p.name);
      return r.length === 2 && r;
    });
    expect(rows).toEqual([
      { event_id: ids[0], user_id: 1 },
      { event_id: ids[1], user_id: 2 },
    ]);
  } finally {
    await relay.stop();
  }
});

it('processes an event once however often it is delivered', async () => {
  const p = new Recorder(`idem_${randomId()}`, ['auth.user.terminated.v1']);
  const eventId = `test:${randomId()}`;
  // The same event three times in the stream (a re-publish outside the duplicate window).
  await publish('auth.user.terminated.v1', eventId, { userId: 10 });
  await publish('auth.user.terminated.v1', eventId, { userId: 10 });
  await start(p);
  await publish('auth.user.terminated.v1', eventId, { userId: 10 });
  await eventually(() => settled(p.name));
  expect(await handledRows(p.name)).toEqual([{ event_id: eventId, user_id: 10 }]);
  const processed = await pool.query(`SELECT consumer FROM ${SCHEMA}.processed_events WHERE event_id = $1`, [eventId]);
  expect(processed.rows).toEqual([{ consumer: p.name }]);
  expect(lines.some((l) => l.msg === 'duplicate event skipped' && l.eventId === eventId)).toBe(true);
  // Another processor is independent: it handles the same event itself.
  const other = new Recorder(`idem2_${randomId()}`, ['auth.user.terminated.v1']);
  await start(other);
  await eventually(async () => (await handledRows(other.name)).length === 1);
});

it('retries a failing handler (rolling back its work) until it succeeds', async () => {
  const p = new Recorder(`retry_${randomId()}`, ['auth.user.terminated.v1'], 5, (_e, attempt) => attempt < 3);
  await start(p);
  const eventId = `test:${randomId()}`;
  await publish('auth.user.terminated.v1', eventId, { userId: 20 });
  await eventually(async () => (await handledRows(p.name)).length === 1);
  await eventually(() => settled(p.name));
  expect(p.attempts.get(eventId)).toBe(3);
  expect(await handledRows(p.name)).toEqual([{ event_id: eventId, user_id: 20 }]);
});

it('dead-letters an event after maxDeliveries and goes on with the next', async () => {
  const p = new Recorder(
    `dead_${randomId()}`,
    ['auth.user.terminated.v1'],
    3,
    (e) => e.data !== null && (e.data as { userId: number }).userId === 30,
  );
  await start(p);
  const bad = `test:${randomId()}`;
  const good = `test:${randomId()}`;
  await publish('auth.user.terminated.v1', bad, { userId: 30 });
  await publish('auth.user.terminated.v1', good, { userId: 31 });
  const dead = await eventually(async () =>
    lines.find((l) => l.msg === 'event dead-lettered after max deliveries' && l.eventId === bad),
  );
  expect(dead).toMatchObject({ level: 'error', eventType: 'auth.user.terminated.v1', deliveries: 3, consumer: p.name });
  await eventually(() => settled(p.name));
  await sleep(400); // no further delivery after term()
  expect(p.attempts.get(bad)).toBe(3);
  expect(await handledRows(p.name)).toEqual([{ event_id: good, user_id: 31 }]);
  const processed = await pool.query(`SELECT event_id FROM ${SCHEMA}.processed_events WHERE consumer = $1`, [p.name]);
  expect(processed.rows).toEqual([{ event_id: good }]);
});

it('terminates malformed messages at once', async () => {
  const p = new Recorder(`bad_${randomId()}`, ['auth.user.terminated.v1']);
  await start(p);
  await publish('auth.user.terminated.v1', `test:${randomId()}`, { userId: 'not a number' });
  await bus.js.publish(eventSubject(bus.prefix, 'auth.user.terminated.v1'), 'not json');
  await eventually(
    async () => lines.filter((l) => l.msg === 'malformed event dead-lettered' && l.consumer === p.name).length === 2,
  );
  await eventually(() => settled(p.name));
  expect(p.attempts.size).toBe(0);
});

it('handles several event types (one filter or one durable per type, by server version)', async () => {
  const p = new Recorder(`multi_${randomId()}`, ['auth.user.terminated.v1', 'auth.user.email_verified.v1']);
  await start(p);
  await publish('auth.user.terminated.v1', `test:${randomId()}`, { userId: 40 });
  await publish('auth.user.email_verified.v1', `test:${randomId()}`, { userId: 41, email: 'x@example.com' });
  await publish('auth.user.role_changed.v1', `test:${randomId()}`, { userId: 42, role: 'student', previousRole: null });
  await eventually(async () => (await handledRows(p.name)).length === 2);
  await sleep(200);
  expect((await handledRows(p.name)).map((r) => r.user_id).sort()).toEqual([40, 41]);
});

it('keeps its position across restarts and updates the durable config', async () => {
  const name = `restart_${randomId()}`;
  const first = new Recorder(name, ['auth.user.terminated.v1'], 5);
  const c1 = await start(first);
  await publish('auth.user.terminated.v1', `test:${randomId()}`, { userId: 50 });
  await eventually(async () => (await handledRows(name)).length === 1);
  await c1.stop();
  await publish('auth.user.terminated.v1', `test:${randomId()}`, { userId: 51 });
  const second = new Recorder(name, ['auth.user.terminated.v1'], 7);
  await start(second);
  await eventually(async () => (await handledRows(name)).length === 2);
  const ci = await (await bus.jsm()).consumers.info(bus.eventStream, name);
  expect(ci.config.max_deliver).toBe(7);
  expect(second.attempts.size).toBe(1);
});

it('stop() lets the event in hand finish and commit', async () => {
  const p = new Recorder(`stop_${randomId()}`, ['auth.user.terminated.v1'], 5, () => false, 600);
  const c = await start(p);
  await publish('auth.user.terminated.v1', `test:${randomId()}`, { userId: 60 });
  await eventually(async () => p.attempts.size === 1, 5000, 10);
  await c.stop();
  expect(await handledRows(p.name)).toHaveLength(1);
  await eventually(() => settled(p.name));
});

it('keeps a slow handler from being redelivered while it works (progress heartbeats)', async () => {
  const p = new Recorder(`slow_${randomId()}`, ['auth.user.terminated.v1'], 5, () => false, 2500);
  const c = await startConsumer({ bus, pool, schema: SCHEMA, processor: p, log, ackWaitMs: 1200 });
  running.push(c);
  const eventId = `test:${randomId()}`;
  await publish('auth.user.terminated.v1', eventId, { userId: 70 });
  await eventually(async () => (await handledRows(p.name)).length === 1);
  await eventually(() => settled(p.name));
  expect(p.attempts.get(eventId)).toBe(1);
  const ci = await (await bus.jsm()).consumers.info(bus.eventStream, p.name);
  expect(ci.delivered.consumer_seq).toBe(1); // delivered once, never again
  expect(lines.some((l) => l.msg === 'duplicate event skipped' && l.eventId === eventId)).toBe(false);
});
