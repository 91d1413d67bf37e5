/**
 * Outbox + relay against the real PostgreSQL and JetStream: only committed events are published,
 * each exactly once (Nats-Msg-Id = event id), in commit order, whatever the relays do.
 */
import fc from 'fast-check';
import type { StoredMsg } from '@nats-io/jetstream';
import type { EventEnvelope } from '@wb/proto';
import { withTransaction } from '../src/db';
import type { Pool, PoolClient } from '../src/db';
import type { Bus } from '../src/nats';
import { appendEvent, startOutboxRelay } from '../src/outbox';
import type { OutboxRelay } from '../src/outbox';
import { createTestDatabase, dropTestDatabase } from '../src/testing/stack';
import { captureLog, closeBus, eventually, migratedPool, sleep, testBus } from './fixtures';

const SCHEMA = 'obx';
const { log, lines } = captureLog('debug');
let url: string;
let pool: Pool;
let bus: Bus;
const relays: OutboxRelay[] = [];
const relay = (extra: { pollMs?: number; bus?: Bus } = {}): OutboxRelay => {
  const r = startOutboxRelay({ pool, schema: SCHEMA, bus: extra.bus ?? bus, log, pollMs: extra.pollMs ?? 50 });
  relays.push(r);
  return r;
};

beforeAll(async () => {
  url = await createTestDatabase();
  pool = await migratedPool(url, SCHEMA, log);
  bus = await testBus(log);
});
afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
});
afterAll(async () => {
  await pool?.end();
  await closeBus(bus);
  await dropTestDatabase(url);
});

/** Every message in the event stream after sequence `after`. */
async function streamMessages(after = 0): Promise<StoredMsg[]> {
  const jsm = await bus.jsm();
  const info = await jsm.streams.info(bus.eventStream);
  const out: StoredMsg[] = [];
  for (let seq = Math.max(after + 1, info.state.first_seq); seq <= info.state.last_seq; seq++) {
    const m = await jsm.streams.getMessage(bus.eventStream, { seq });
    if (m) out.push(m);
  }
  return out;
}
async function lastSeq(): Promise<number> {
  return (await (await bus.jsm()).streams.info(bus.eventStream)).state.last_seq;
}
const userIds = (msgs: StoredMsg[]): number[] =>
  msgs.map((m) => m.json<EventEnvelope<{ userId: number }>>().data.userId);

let nextUser = 1;
async function commitEvents(n: number): Promise<{ ids: string[]; users: number[] }> {
  const users = Array.from({ length: n }, () => nextUser++);
  const ids = await withTransaction(pool, async (c) => {
    const out: string[] = [];
    for (const userId of users) out.push(await appendEvent(c, SCHEMA, 'auth.user.terminated.v1', { userId }));
    return out;
  });
  return { ids, users };
}
async function rollbackEvents(n: number): Promise<void> {
  await expect(
    withTransaction(pool, async (c) => {
      for (let i = 0; i < n; i++) await appendEvent(c, SCHEMA, 'auth.user.terminated.v1', { userId: -nextUser++ });
      throw new Error('rolled back on purpose');
    }),
  ).rejects.toThrow('rolled back on purpose');
}

describe('appendEvent', () => {
  it('validates the payload against the proto schema and returns <schema>:<id>', async () => {
    await withTransaction(pool, async (c) => {
      const id = await appendEvent(c, SCHEMA, 'auth.user.created.v1', { userId: 7, email: 'a@example.com', name: 'A' });
      expect(id).toMatch(/^obx:\d+$/);
      // @ts-expect-error a wrong payload does not even compile…
      await expect(appendEvent(c, SCHEMA, 'auth.user.created.v1', { userId: 'seven' })).rejects.toThrow();
      throw new Error('rollback');
    }).catch((e: Error) => expect(e.message).toMatch(/rollback|userId/));
    await expect(
      withTransaction(pool, (c) =>
        appendEvent(c, SCHEMA, 'no.such.event.v1' as 'auth.user.terminated.v1', { userId: 1 }),
      ),
    ).rejects.toThrow(/unknown event type/);
  });
});

describe('relay', () => {
  it('publishes committed events once, in order, with Nats-Msg-Id = id; never rolled-back ones', async () => {
    const start = await lastSeq();
    const a = await commitEvents(3);
    await rollbackEvents(2);
    const b = await commitEvents(2);
    const r = relay({ pollMs: 60_000 });
    await r.flush();
    const msgs = await streamMessages(start);
    expect(userIds(msgs)).toEqual([...a.users, ...b.users]);
    expect(msgs.map((m) => m.header.get('Nats-Msg-Id'))).toEqual([...a.ids, ...b.ids]);
    const env = msgs[0]!.json<EventEnvelope>();
    expect(env).toEqual({
      id: a.ids[0],
      type: 'auth.user.terminated.v1',
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: { userId: a.users[0] },
    });
    expect(msgs[0]!.subject).toBe(`${bus.prefix}evt.auth.user.terminated.v1`);
    const pending = await pool.query(`SELECT count(*)::int AS n FROM ${SCHEMA}.outbox WHERE published_at IS NULL`);
    expect(pending.rows[0].n).toBe(0);
  });

  it('is woken by NOTIFY on commit, without waiting for the poll', async () => {
    relay({ pollMs: 60_000 });
    await sleep(300); // LISTEN in place
    const start = await lastSeq();
    const t0 = Date.now();
    const a = await commitEvents(1);
    const msgs = await eventually(
      async () => {
        const m = await streamMessages(start);
        return m.length === 1 && m;
      },
      5000,
      20,
    );
    expect(userIds(msgs)).toEqual(a.users);
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('never duplicates with two relays publishing concurrently or a lost "published" mark', async () => {
    const start = await lastSeq();
    const batches = await Promise.all([commitEvents(40), commitEvents(40)]);
    const r1 = relay({ pollMs: 10 });
    const r2 = relay({ pollMs: 10 });
    await Promise.all([r1.flush(), r2.flush(), r1.flush(), r2.flush()]);
    let msgs = await streamMessages(start);
    expect(msgs).toHaveLength(80);
    expect(new Set(msgs.map((m) => m.header.get('Nats-Msg-Id'))).size).toBe(80);
    // Commit order = id order (appendEvent serialises), so the stream is sorted by outbox id.
    const ids = msgs.map((m) => Number(m.header.get('Nats-Msg-Id').split(':')[1]));
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(new Set(userIds(msgs))).toEqual(new Set(batches.flatMap((b) => b.users)));

    // A crash after publishing but before marking: the re-publish is dropped by the stream.
    await pool.query(`UPDATE ${SCHEMA}.outbox SET published_at = NULL WHERE id = ANY($1::bigint[])`, [ids.slice(-5)]);
    await r1.flush();
    msgs = await streamMessages(start);
    expect(msgs).toHaveLength(80);
    expect(lines.some((l) => l.msg === 'event was already in the stream (re-publish after a crash)')).toBe(true);
  });

  it('keeps order when a publish fails and retries on the next poll', async () => {
    const start = await lastSeq();
    let failures = 2;
    const flaky: Bus = {
      ...bus,
      js: {
        ...bus.js,
        publish: (
          subject: string,
          payload?: Parameters<Bus['js']['publish']>[1],
          o?: Parameters<Bus['js']['publish']>[2],
        ) => {
          if (failures > 0) {
            failures--;
            return Promise.reject(new Error('NATS away'));
          }
          return bus.js.publish(subject, payload, o);
        },
      } as Bus['js'],
    };
    const a = await commitEvents(5);
    const r = relay({ bus: flaky, pollMs: 30 });
    await eventually(async () => (await streamMessages(start)).length === 5);
    expect(userIds(await streamMessages(start))).toEqual(a.users);
    expect(failures).toBe(0);
    await expect(r.flush()).resolves.toBe(0);
    expect(lines.some((l) => l.msg === 'outbox publish failed; retrying every poll')).toBe(true);
  });

  it('flush() rejects while the stream is unreachable and loses nothing', async () => {
    const start = await lastSeq();
    const broken: Bus = { ...bus, js: { ...bus.js, publish: () => Promise.reject(new Error('down')) } as Bus['js'] };
    const a = await commitEvents(2);
    const r = relay({ bus: broken, pollMs: 60_000 });
    await expect(r.flush()).rejects.toThrow('down');
    await r.stop();
    await relay({ pollMs: 60_000 }).flush();
    expect(userIds(await streamMessages(start))).toEqual(a.users);
  });

  it('deletes published rows older than the retention', async () => {
    await commitEvents(1);
    await relay({ pollMs: 60_000 }).flush();
    await pool.query(
      `UPDATE ${SCHEMA}.outbox SET published_at = now() - interval '2 days' WHERE published_at IS NOT NULL`,
    );
    const fresh = await commitEvents(1);
    const r = startOutboxRelay({ pool, schema: SCHEMA, bus, log, pollMs: 20, cleanupEveryMs: 10 });
    relays.push(r);
    await eventually(async () => {
      const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${SCHEMA}.outbox`);
      return rows[0]!.n === 1;
    });
    const { rows } = await pool.query(`SELECT id::text FROM ${SCHEMA}.outbox`);
    expect(`${SCHEMA}:${rows[0].id}`).toBe(fresh.ids[0]);
  });
});

/**
 * Property: whatever mix of committed and rolled-back transactions (some overlapping in time),
 * relay restarts and second relays happens, the stream receives exactly the committed events,
 * once each, in commit order.
 */
type Op =
  | { kind: 'commit'; n: number }
  | { kind: 'rollback'; n: number }
  | { kind: 'overlap'; firstCommits: boolean; secondCommits: boolean; n: number }
  | { kind: 'restart' }
  | { kind: 'second-relay' }
  | { kind: 'flush' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('commit' as const), n: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rollback' as const), n: fc.integer({ min: 1, max: 3 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('overlap' as const),
      firstCommits: fc.boolean(),
      secondCommits: fc.boolean(),
      n: fc.integer({ min: 1, max: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'second-relay' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'flush' as const }) },
);

describe('relay property', () => {
  it('publishes exactly the committed events, in commit order, under any interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
        const start = await lastSeq();
        const expected: number[] = [];
        const running: OutboxRelay[] = [relay({ pollMs: 15 })];
        const append = async (c: PoolClient, n: number): Promise<number[]> => {
          const users = Array.from({ length: n }, () => nextUser++);
          for (const userId of users) await appendEvent(c, SCHEMA, 'auth.user.terminated.v1', { userId });
          return users;
        };
        for (const op of ops) {
          switch (op.kind) {
            case 'commit':
              expected.push(...(await withTransaction(pool, (c) => append(c, op.n))));
              break;
            case 'rollback':
              await withTransaction(pool, async (c) => {
                await append(c, op.n);
                throw new Error('rollback');
              }).catch(() => undefined);
              break;
            case 'overlap': {
              // Both transactions are open at once; the second appends while the first is undecided.
              const c1 = await pool.connect();
              const c2 = await pool.connect();
              try {
                await c1.query('BEGIN');
                await c2.query('BEGIN');
                await c2.query(`SELECT 1`);
                const u1 = await append(c1, op.n);
                const second = append(c2, op.n); // waits for the first to finish
                await sleep(5);
                await c1.query(op.firstCommits ? 'COMMIT' : 'ROLLBACK');
                if (op.firstCommits) expected.push(...u1);
                const u2 = await second;
                await c2.query(op.secondCommits ? 'COMMIT' : 'ROLLBACK');
                if (op.secondCommits) expected.push(...u2);
              } finally {
                c1.release();
                c2.release();
              }
              break;
            }
            case 'restart':
              await running.shift()?.stop();
              running.push(relay({ pollMs: 15 }));
              break;
            case 'second-relay':
              running.push(relay({ pollMs: 15 }));
              break;
            case 'flush':
              await running[0]?.flush();
              break;
          }
        }
        await running[running.length - 1]!.flush();
        const msgs = await eventually(async () => {
          const m = await streamMessages(start);
          return m.length >= expected.length && m;
        });
        await sleep(30); // anything extra would show up now
        const got = userIds(await streamMessages(start));
        await Promise.all(running.map((r) => r.stop()));
        expect(got).toEqual(expected);
        expect(msgs.length).toBe(expected.length);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
