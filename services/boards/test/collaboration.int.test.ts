/**
 * The collaboration-minutes counter against the real PostgreSQL (own database) with an injected
 * clock: the weekly reset on Monday 00:00 UTC, spans cut at the reset, and checkpoints that are
 * redelivered or arrive out of order counting once. The service-level path (gateway figure,
 * access.check lock, upgrade) is in boards.int.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { createLogger, createPool, migrate, withTransaction } from '@wb/platform';
import type { Pool } from '@wb/platform';
import { createTestDatabase, dropTestDatabase } from '@wb/platform/testing';
import { PLANS } from '@wb/proto';
import type { CollaborationSpan, EventEnvelope, Plan } from '@wb/proto';
import { recordSpan, usageOf } from '../src/commands/collaboration';
import { SCHEMA } from '../src/commands/deps';
import { CollaborationSpansProcessor } from '../src/processors/collaborationSpans';

const MIN = 60_000;
const log = createLogger({ service: 'test', level: 'silent' });
let url: string;
let pool: Pool;

beforeAll(async () => {
  url = await createTestDatabase();
  pool = createPool({ url, schema: SCHEMA, poolSize: 2, log });
  await migrate(pool, { schema: SCHEMA, dir: join(__dirname, '..', 'migrations'), log });
});
afterAll(async () => {
  await pool?.end();
  await dropTestDatabase(url);
});

let ownerSeq = 100;
function clockAt(iso: string): { t: Date; now: () => Date } {
  const c = { t: new Date(iso), now: () => c.t };
  return c;
}
const plans = (plan: Plan = PLANS.starter) => ({ planOf: async () => plan });
function span(ownerId: number, spanId: string, from: string, to: string): CollaborationSpan {
  return { spanId, sessionId: `s-${spanId}`, ownerId, boardId: 'b1', from, to };
}
let eventSeq = 0;
async function deliver(data: CollaborationSpan): Promise<void> {
  const event: EventEnvelope = {
    id: `realtime:${++eventSeq}`,
    type: 'realtime.collaboration.span.v1',
    occurredAt: data.to,
    data,
  };
  await withTransaction(pool, (c) => new CollaborationSpansProcessor().handle(event, c));
}

describe('weekly collaboration minutes (one counter per owner)', () => {
  it('reset on Monday 00:00 UTC: a span across it counts on both sides of the reset, each in its week', async () => {
    const owner = ++ownerSeq;
    const clock = clockAt('2026-11-22T23:59:00Z'); // Sunday
    const deps = { pool, plans: plans(), now: clock.now };
    // a lesson from Sunday 23:00, checkpointed every few seconds (here: every 10 minutes) to 00:30
    for (let m = 10; m <= 90; m += 10) {
      await deliver(
        span(owner, 'x', '2026-11-22T23:00:00Z', new Date(Date.parse('2026-11-22T23:00:00Z') + m * MIN).toISOString()),
      );
    }
    expect(await usageOf(deps, owner)).toEqual({
      usedMs: 60 * MIN,
      limitMs: 300 * MIN,
      weekStart: '2026-11-16',
      resetsAt: '2026-11-23T00:00:00.000Z',
    });
    clock.t = new Date('2026-11-23T00:30:00Z'); // Monday: the minutes reset
    expect(await usageOf(deps, owner)).toEqual({
      usedMs: 30 * MIN,
      limitMs: 300 * MIN,
      weekStart: '2026-11-23',
      resetsAt: '2026-11-30T00:00:00.000Z',
    });
    const { rows } = await pool.query(
      `SELECT week_start::text AS w, from_at, to_at FROM collaboration_spans WHERE span_id = 'x' ORDER BY week_start`,
    );
    expect(rows.map((r) => r.w)).toEqual(['2026-11-16', '2026-11-23']);
    expect(rows[0].to_at.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(rows[1].from_at.toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });

  it('redelivered, repeated and out-of-order checkpoints count once; spans of one owner add up', async () => {
    const owner = ++ownerSeq;
    const deps = { pool, plans: plans(PLANS.standard), now: () => new Date('2026-11-25T12:00:00Z') };
    const a = span(owner, 'a', '2026-11-25T10:00:00Z', '2026-11-25T10:20:00Z');
    const aEarlier = { ...a, to: '2026-11-25T10:05:00Z' };
    await deliver(a);
    await deliver(a); // redelivered (the relay re-published it under a new id)
    await deliver(aEarlier); // an older checkpoint arriving late
    await recordSpan(pool, a); // the node's request path for the same checkpoint
    // another board of the same owner at the same time: its own span, its own minutes
    await recordSpan(pool, { ...span(owner, 'b', '2026-11-25T10:10:00Z', '2026-11-25T10:15:00Z'), boardId: 'b2' });
    // someone else's minutes are theirs
    await recordSpan(pool, span(owner + 1000, 'c', '2026-11-25T10:00:00Z', '2026-11-25T11:00:00Z'));
    expect(await usageOf(deps, owner)).toMatchObject({
      usedMs: 25 * MIN,
      limitMs: 3000 * MIN,
      weekStart: '2026-11-23',
    });
  });

  it('a span that ends before it starts is refused (request) or skipped (event), never counted', async () => {
    const owner = ++ownerSeq;
    const bad = span(owner, 'bad', '2026-11-25T10:00:00Z', '2026-11-25T09:00:00Z');
    await expect(recordSpan(pool, bad)).rejects.toMatchObject({ code: 'ERR_INVALID_INPUT' });
    await deliver(bad);
    const deps = { pool, plans: plans(), now: () => new Date('2026-11-25T12:00:00Z') };
    expect((await usageOf(deps, owner)).usedMs).toBe(0);
  });
});
