/**
 * Dashboard previews against the real PostgreSQL (own database): realtime.board.previewed.v1
 * stores the highest version per board, the board list carries it, and the list caches are told.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { createLogger, createPool, migrate, withTransaction } from '@wb/platform';
import type { Pool } from '@wb/platform';
import { createTestDatabase, dropTestDatabase } from '@wb/platform/testing';
import { expandBoardList } from '@wb/proto';
import type { EventEnvelope } from '@wb/proto';
import { SCHEMA } from '../src/commands/deps';
import { presentBoardList } from '../src/presenters/board';
import { BoardPreviewsProcessor } from '../src/processors/boardPreviews';
import { insertBoard, listOwned, listVersion } from '../src/repositories/boards';

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

let seq = 0;
async function deliver(boardId: string, version: number): Promise<void> {
  const event: EventEnvelope = {
    id: `realtime:${++seq}`,
    type: 'realtime.board.previewed.v1',
    occurredAt: new Date().toISOString(),
    data: { boardId, version },
  };
  await withTransaction(pool, (c) => new BoardPreviewsProcessor().handle(event, c));
}

describe('board previews', () => {
  it('keep the highest version from the events, and the board list names it', async () => {
    const base = {
      userId: 7,
      folderId: null,
      background: 'empty',
      defaultPermission: 'view',
      deleteOwnOnly: false,
    } as const;
    await insertBoard(pool, { ...base, id: 'pv-a', title: 'a', now: new Date('2026-01-01') });
    await insertBoard(pool, { ...base, id: 'pv-b', title: 'b', now: new Date('2026-01-02') });
    const before = await listVersion(pool, 7);
    await deliver('pv-a', 12);
    expect(await listVersion(pool, 7)).not.toBe(before); // the owner's cached list is stale now
    await deliver('pv-a', 5); // late: ignored
    await deliver('pv-a', 12); // again: ignored
    await deliver('gone', 3); // a purged board: nothing to do
    const list = presentBoardList(await listOwned(pool, 7), [], {});
    expect(list.preview).toEqual({ 'pv-a': 12 });
    const items = expandBoardList(list, 7);
    expect(items.find((b) => b.id === 'pv-a')?.preview).toBe(12);
    expect(items.find((b) => b.id === 'pv-b')).not.toHaveProperty('preview');
  });
});
