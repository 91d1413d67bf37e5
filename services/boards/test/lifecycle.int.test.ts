/**
 * Time and accounts: the repeatable job that purges month-old trash (driven here with an injected
 * clock, against the stack's real database), and what happens to a terminated user's boards
 * (the auth.user.terminated.v1 consumer).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Pool } from 'pg';
import { Queue } from 'bullmq';
import { Registry } from 'prom-client';
import { bullPrefix, createLogger, createPool, createRedis } from '@wb/platform';
import type { Pool as PlatformPool } from '@wb/platform';
import { startStack } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';
import { TERMINATE_CONFIRMATION_PHRASE } from '@wb/proto';
import type { BoardDto, BoardList } from '@wb/proto';
import { processTrashPurgeJob, TRASH_PURGE_QUEUE, TRASH_PURGE_SCHEDULER } from '../src/jobs/trashPurge';
import { createBoardsMetrics } from '../src/metrics';
import { eventually, signUp } from './browser';
import type { Browser } from './browser';

const DAY = 24 * 3600_000;

let stack: RunningStack;
let db: Pool;
let boardsPool: PlatformPool;

beforeAll(async () => {
  // teams: auth asks it before terminating an account (the terminated-account test below)
  stack = await startStack({ deployables: ['services/auth', 'services/boards', 'services/teams', 'gateway'] });
  db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
  boardsPool = createPool({
    url: stack.databaseUrl,
    schema: 'boards',
    poolSize: 2,
    log: createLogger({ service: 'test', level: 'silent' }),
  });
}, 90_000);

afterAll(async () => {
  await boardsPool?.end();
  await db?.end();
  await stack?.stop();
});

async function create(b: Browser, title: string): Promise<BoardDto> {
  const res = await b.post('/api/boards', { title });
  expect(res.status).toBe(200);
  return res.body as BoardDto;
}

async function exists(id: string): Promise<boolean> {
  return ((await db.query('SELECT 1 FROM boards.boards WHERE id = $1', [id])).rowCount ?? 0) > 0;
}

describe('the month-old trash purge job', () => {
  it('is registered as a repeatable BullMQ job', async () => {
    const connection = createRedis(stack.env.REDIS_URL!, { forBullmq: true });
    const queue = new Queue(TRASH_PURGE_QUEUE, { connection, prefix: bullPrefix(stack.redisPrefix) });
    try {
      const schedulers = await queue.getJobSchedulers();
      expect(schedulers.map((s) => s.key)).toContain(TRASH_PURGE_SCHEDULER);
      expect(schedulers.find((s) => s.key === TRASH_PURGE_SCHEDULER)?.every).toBe(3_600_000);
    } finally {
      await queue.close();
      await connection.quit();
    }
  });

  it('purges boards trashed over 30 days ago (by the injected clock), not newer ones nor untrashed ones', async () => {
    const { browser: ann, id: annId } = await signUp(stack.gatewayUrl, 'Ann');
    const [old, fresh, kept] = [await create(ann, 'old'), await create(ann, 'fresh'), await create(ann, 'kept')];
    await ann.post('/api/boards/trash', { ids: [old.id] });
    const trashedAt = new Date(
      ((await ann.get('/api/boards?format=columns')).body as BoardList).owned.trashed[old.id]!,
    );
    // "fresh" is trashed 10 days after "old" (as the service's clock would have it)
    await ann.post('/api/boards/trash', { ids: [fresh.id] });
    await db.query("UPDATE boards.boards SET trashed_at = trashed_at + interval '10 days' WHERE id = $1", [fresh.id]);

    const deps = (now: Date) => ({
      pool: boardsPool,
      log: createLogger({ service: 'test', level: 'silent' }),
      metrics: createBoardsMetrics(new Registry()),
      now: () => now,
      batchSize: 1, // several batches even for these few boards
    });

    // 29 days on: nothing is due
    expect(await processTrashPurgeJob(deps(new Date(trashedAt.getTime() + 29 * DAY)))).toEqual({ purged: 0 });
    expect(await exists(old.id)).toBe(true);

    // 31 days on: "old" is due, "fresh" (21 days in the trash) is not, "kept" was never trashed
    expect(await processTrashPurgeJob(deps(new Date(trashedAt.getTime() + 31 * DAY)))).toEqual({ purged: 1 });
    expect(await exists(old.id)).toBe(false);
    expect(await exists(fresh.id)).toBe(true);
    expect(await exists(kept.id)).toBe(true);
    expect(((await ann.get('/api/boards?format=columns')).body as BoardList).owned.id.sort()).toEqual(
      [fresh.id, kept.id].sort(),
    );
    const { rows } = await db.query("SELECT data FROM boards.outbox WHERE type = 'boards.board.purged.v1'");
    expect(rows.map((r) => r.data)).toEqual([{ boardId: old.id, ownerId: annId, reason: 'expired' }]);

    // 45 days on: "fresh" too
    expect(await processTrashPurgeJob(deps(new Date(trashedAt.getTime() + 45 * DAY)))).toEqual({ purged: 1 });
    expect(await exists(fresh.id)).toBe(false);
    expect(await exists(kept.id)).toBe(true);
  });
});

describe('a terminated account', () => {
  it('loses its boards (purged, content included), folders, joins and grants', async () => {
    const { browser: ann, id: annId } = await signUp(stack.gatewayUrl, 'Ann');
    const { browser: cara, id: caraId } = await signUp(stack.gatewayUrl, 'Cara');
    const anns = [await create(ann, 'a1'), await create(ann, 'a2')];
    const caras = await create(cara, 'c1');
    await cara.post('/api/boards/grant', { boardId: caras.id, userId: annId, permission: 'view' });
    await ann.post('/api/boards/trash', { ids: [anns[1]!.id] });

    const res = await ann.post('/api/user/terminate', { confirmation: TERMINATE_CONFIRMATION_PHRASE });
    expect(res.status).toBe(200);

    await eventually(async () => !(await exists(anns[0]!.id)) && !(await exists(anns[1]!.id)), 10_000);
    const { rows } = await db.query(
      "SELECT data FROM boards.outbox WHERE type = 'boards.board.purged.v1' AND data->>'reason' = 'owner_terminated'",
    );
    expect(rows.map((r) => r.data.boardId).sort()).toEqual(anns.map((b) => b.id).sort());
    const grants = await db.query('SELECT 1 FROM boards.board_users WHERE user_id = $1', [annId]);
    expect(grants.rowCount).toBe(0);
    // others are untouched
    expect(await exists(caras.id)).toBe(true);
    expect(((await cara.get('/api/boards?format=columns')).body as BoardList).owned.id).toEqual([caras.id]);
    expect(caraId).toBeGreaterThan(0);
  });

  it('the boards service logged no error', () => {
    const bad = stack
      .logs('services/boards')
      .filter((line) => /"level":"(error|fatal)"|"level":50|"level":60|REPLY DOES NOT MATCH/.test(line));
    expect(bad).toEqual([]);
  });
});
