/**
 * Journal, fencing, snapshots and the room manager against the real PostgreSQL and Redis (own
 * database, own key prefix); leases are in leases.int.test.ts. Rule ids: services/realtime/SPEC.md.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createPool, migrate } from '@wb/platform';
import type { Pool } from '@wb/platform';
import {
  createTestDatabase,
  DEFAULT_TEST_REDIS_URL,
  deleteRedisKeys,
  dropTestDatabase,
  randomId,
} from '@wb/platform/testing';
import { loadBoardHandle, PgRoomJournal } from '../src/commands/boardStore';
import { A } from '../src/doc/automerge';
import { BoardPurgedProcessor } from '../src/processors/boardPurged';
import { appendChanges, claimBoard, SCHEMA, STALE_TOKEN_SQLSTATE } from '../src/repositories/journal';
import { FencedError } from '../src/room/room';
import { NodeRegistry } from '../src/sharding/registry';
import { FsSnapshotStore } from '../src/storage/snapshots';
import { silentLogger } from '../src/testing/fakes';
import { addShape, penStroke } from '../src/testing/client';
import type { BoardDoc } from '../src/testing/client';
import { genesisChange } from '../src/doc/automerge';
import { withTransaction } from '@wb/platform';
import { encodeJsonFrame, MSG } from '@wb/proto';
import { OutboxSessionSink } from '../src/commands/sessionEvents';
import { RoomManager } from '../src/room/manager';
import type { Peer } from '../src/room/room';
import { FakeSocket } from '../src/testing/fakes';
import { TestClient } from '../src/testing/client';

let url: string;
let pool: Pool;
let redis: Redis;
let dir: string;
const prefix = `wbt${randomId()}:`;
const log = silentLogger();

beforeAll(async () => {
  url = await createTestDatabase();
  pool = createPool({ url, schema: SCHEMA, poolSize: 4, log });
  await migrate(pool, { schema: SCHEMA, dir: join(__dirname, '..', 'migrations'), log });
  redis = new Redis(DEFAULT_TEST_REDIS_URL);
  dir = await mkdtemp(join(tmpdir(), 'wb-snap-'));
});
afterAll(async () => {
  await pool?.end();
  await dropTestDatabase(url);
  await redis?.quit();
  await deleteRedisKeys(prefix);
  await rm(dir, { recursive: true, force: true });
});

/** n real changes on top of genesis, as a client would make them */
function changes(n: number, creator = 1): { hash: string; bytes: Uint8Array }[] {
  let doc = A.init<BoardDoc>();
  [doc] = A.applyChanges(doc, [genesisChange()]);
  const out: { hash: string; bytes: Uint8Array }[] = [];
  for (let i = 0; i < n; i++) {
    const id = `s${randomId()}`;
    doc = A.change(doc, (d: BoardDoc) => addShape(d, id, penStroke(id, creator, [i, i])));
    const bytes = A.getLastLocalChange(doc)!;
    out.push({ hash: A.decodeChange(bytes).hash, bytes });
  }
  return out;
}

describe('fencing (F1–F3)', () => {
  it('F1/F2: after a takeover PostgreSQL rejects the old token; the old claimant cannot re-claim', async () => {
    const board = `b${randomId()}`;
    const [c1, c2, c3] = changes(3);
    expect(await claimBoard(pool, board, 1, 'rt-a')).toBe(true);
    await appendChanges(pool, board, 1, [c1!]);
    expect(await claimBoard(pool, board, 2, 'rt-b')).toBe(true); // takeover
    await expect(appendChanges(pool, board, 1, [c2!])).rejects.toMatchObject({ code: STALE_TOKEN_SQLSTATE });
    expect(await claimBoard(pool, board, 1, 'rt-a')).toBe(false);
    await appendChanges(pool, board, 2, [c3!]);
    const { rows } = await pool.query('SELECT hash, token FROM journal WHERE board_id = $1 ORDER BY seq', [board]);
    expect(rows).toEqual([
      { hash: c1!.hash, token: '1' },
      { hash: c3!.hash, token: '2' },
    ]);
  });

  it('F3: a journal write for a board nobody claimed is rejected', async () => {
    await expect(appendChanges(pool, `b${randomId()}`, 1, changes(1))).rejects.toMatchObject({
      code: STALE_TOKEN_SQLSTATE,
    });
  });

  it('F1: the room journal turns a stale write into FencedError', async () => {
    const board = `b${randomId()}`;
    await claimBoard(pool, board, 5, 'a');
    const j = new PgRoomJournal(pool, board, 5, { lastSeq: 0, snapshotSeq: 0 });
    await claimBoard(pool, board, 6, 'b');
    await expect(j.append(changes(1))).rejects.toBeInstanceOf(FencedError);
  });
});

describe('snapshots and load (P4/P5)', () => {
  it('load = latest snapshot + journal tail, and the snapshot compacts the journal', async () => {
    const store = new FsSnapshotStore(dir);
    const board = `folder/b${randomId()}`; // ids may contain slashes
    await claimBoard(pool, board, 1, 'a');
    const j = new PgRoomJournal(pool, board, 1, { lastSeq: 0, snapshotSeq: 0 });
    const first = await loadBoardHandle(pool, store, board);
    const all = changes(6);
    await j.append(all.slice(0, 4));
    first.handle.applyChanges(all.slice(0, 4).map((c) => c.bytes));
    expect(await j.snapshot(store, first.handle)).toBe(true);
    expect(await j.snapshot(store, first.handle)).toBe(false); // nothing new
    await j.append(all.slice(4));
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM journal WHERE board_id = $1', [board]);
    expect(rows[0].n).toBe(2);
    const loaded = await loadBoardHandle(pool, store, board);
    first.handle.applyChanges(all.slice(4).map((c) => c.bytes));
    expect(loaded.handle.getHeads().sort()).toEqual(first.handle.getHeads().sort());
    expect(loaded.lastSeq).toBe(j.lastSeq);
  });

  it('H3: a purged board loses journal, snapshots and room; a late write is fenced', async () => {
    const store = new FsSnapshotStore(dir);
    const board = `b${randomId()}`;
    await claimBoard(pool, board, 1, 'a');
    const j = new PgRoomJournal(pool, board, 1, { lastSeq: 0, snapshotSeq: 0 });
    const loaded = await loadBoardHandle(pool, store, board);
    const cs = changes(2);
    await j.append(cs);
    loaded.handle.applyChanges(cs.map((c) => c.bytes));
    await j.snapshot(store, loaded.handle);
    const dropped: string[] = [];
    const deleted: string[] = [];
    const p = new BoardPurgedProcessor(
      { dropPurged: (id) => dropped.push(id) },
      { delete: async (k) => void deleted.push(...k) },
    );
    await withTransaction(pool, (c) =>
      p.handle(
        {
          id: 'boards:1',
          type: 'boards.board.purged.v1',
          occurredAt: new Date().toISOString(),
          data: { boardId: board, ownerId: 1, reason: 'owner' },
        },
        c,
      ),
    );
    expect(dropped).toEqual([board]);
    expect(deleted).toHaveLength(1);
    const after = await pool.query(
      'SELECT (SELECT count(*) FROM journal WHERE board_id = $1)::int AS j, (SELECT count(*) FROM snapshots WHERE board_id = $1)::int AS s',
      [board],
    );
    expect(after.rows[0]).toEqual({ j: 0, s: 0 });
    await expect(j.append(changes(1))).rejects.toBeInstanceOf(FencedError);
  });
});

describe('room manager (H1, T1–T3)', () => {
  it('H1/T1–T3: an idle room is persisted, snapshotted, its lease released and its session events written', async () => {
    const store = new FsSnapshotStore(dir);
    const clock = { t: Date.now(), now: () => clock.t };
    // own key space: the nodes of the lease tests above must not be candidates here
    const registry = new NodeRegistry({
      redis,
      prefix: `${prefix}m:`,
      nodeId: 'rt-m',
      url: 'ws://m',
      clock,
      leaseMs: 60_000,
    });
    const manager = new RoomManager({
      pool,
      store,
      registry,
      log,
      clock,
      sessions: new OutboxSessionSink(pool, 'rt-m', log),
      idleMs: 1000,
    });
    const board = `b${randomId()}`;
    await registry.heartbeat();
    const opened = await manager.open(board, { ownerId: 1, deleteOwnOnly: false });
    if (opened.kind !== 'open') throw new Error(`expected to own ${board}`);
    const room = opened.room.room;
    const socket = new FakeSocket();
    const client = new TestClient(1);
    socket.onSend = (f) => client.receive(f);
    const ref: { peer?: Peer } = {};
    const early: Uint8Array[] = [];
    client.attach((f) => (ref.peer ? room.receive(ref.peer, f) : early.push(f)));
    ref.peer = room.join(socket, { userId: 1, name: 'A', guest: false, access: 'own', readOnlyReason: null });
    for (const f of early.slice(1)) room.receive(ref.peer, f); // [0] is HELLO (server layer)
    for (let i = 0; i < 3 && !client.inSync; i++) room.tick();
    expect(client.inSync).toBe(true);
    room.receive(ref.peer, encodeJsonFrame(MSG.VISIBILITY, { hidden: true }));
    clock.t += 60_000; // one hidden minute
    room.receive(ref.peer, encodeJsonFrame(MSG.VISIBILITY, { hidden: false }));
    client.edit((d) => addShape(d, 'x1', penStroke('x1', 1, [1])));
    await room.flushPersist();
    clock.t += 60_000; // one active minute
    room.leave(ref.peer);
    await manager.maintain(); // not idle long enough yet
    expect(manager.roomCount).toBe(1);
    clock.t += 1500;
    await manager.maintain();
    expect(manager.roomCount).toBe(0);
    expect(await redis.get(`${prefix}m:rt:lease:${board}`)).toBeNull();
    const snaps = await pool.query('SELECT count(*)::int AS n FROM snapshots WHERE board_id = $1', [board]);
    expect(snaps.rows[0].n).toBe(1);
    const reloaded = await loadBoardHandle(pool, store, board);
    expect(reloaded.handle.getHeads()).toEqual(client.heads());
    await new Promise((r) => setTimeout(r, 200)); // events are written asynchronously
    const { rows } = await pool.query<{ type: string; data: Record<string, unknown> }>(
      `SELECT type, data FROM outbox WHERE data->>'boardId' = $1 ORDER BY id`,
      [board],
    );
    expect(rows.map((r) => r.type)).toEqual([
      'realtime.session.started.v1',
      'realtime.participant.minutes.v1',
      'realtime.session.ended.v1',
    ]);
    expect(rows[1]!.data).toMatchObject({ userId: 1, guest: false, activeMinutes: 1, hiddenMinutes: 1 });
    expect(rows[2]!.data).toMatchObject({ participants: 1 });
  });
});
