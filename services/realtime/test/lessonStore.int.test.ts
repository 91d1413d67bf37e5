/**
 * The lesson state's PostgreSQL store (migrations 0003 + 0004, SPEC LS9/LS12) against the real
 * server, in a database of its own: the timer and the presenter round-trip, a cleared presenter is
 * gone, and a purge removes both in the purge's transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { createPool, migrate, withTransaction } from '@wb/platform';
import type { Pool } from '@wb/platform';
import { createTestDatabase, dropTestDatabase } from '@wb/platform/testing';
import { PgLessonStore, purgeLessonState } from '../src/repositories/lesson';
import { SCHEMA } from '../src/repositories/journal';
import { silentLogger } from '../src/testing/fakes';

let url: string;
let pool: Pool;
const log = silentLogger();

beforeAll(async () => {
  url = await createTestDatabase();
  pool = createPool({ url, schema: SCHEMA, poolSize: 2, log });
  await migrate(pool, { schema: SCHEMA, dir: join(__dirname, '..', 'migrations'), log });
});
afterAll(async () => {
  await pool?.end();
  await dropTestDatabase(url);
});

describe('PgLessonStore', () => {
  it('keeps the latest timer of a board and nothing for another board', async () => {
    const store = new PgLessonStore(pool);
    expect(await store.load('board-a')).toBeNull();
    await store.save('board-a', { state: 'idle', remainingMs: 60_000, durationMs: 60_000 });
    const endsAt = Date.now() + 59_500;
    await store.save('board-a', { state: 'running', endsAt, remainingMs: 59_500.4, durationMs: 60_000 });
    expect(await store.load('board-a')).toEqual({ state: 'running', endsAt, remainingMs: 59_500, durationMs: 60_000 });
    expect(await store.load('board-b')).toBeNull();
  });

  it('keeps who presents, replaces them, and forgets them when cleared', async () => {
    const store = new PgLessonStore(pool);
    const since = Date.now();
    await store.savePresenter('board-p', { userId: 2, name: 'Ada Lovelace', since });
    expect(await store.loadPresenter('board-p')).toEqual({ userId: 2, name: 'Ada Lovelace', since });
    await store.savePresenter('board-p', { userId: 3, name: 'Bob', since: since + 1 });
    expect(await store.loadPresenter('board-p')).toEqual({ userId: 3, name: 'Bob', since: since + 1 });
    await store.savePresenter('board-p', null);
    expect(await store.loadPresenter('board-p')).toBeNull();
  });

  it("a purge removes the board's timer and presenter", async () => {
    const store = new PgLessonStore(pool);
    await store.save('board-x', { state: 'paused', remainingMs: 1_000, durationMs: 5_000 });
    await store.savePresenter('board-x', { userId: 7, name: 'T', since: 1 });
    await store.savePresenter('board-y', { userId: 8, name: 'U', since: 1 });
    await withTransaction(pool, (c) => purgeLessonState(c, 'board-x'));
    expect(await store.load('board-x')).toBeNull();
    expect(await store.loadPresenter('board-x')).toBeNull();
    expect(await store.loadPresenter('board-y')).toMatchObject({ userId: 8 });
  });
});
