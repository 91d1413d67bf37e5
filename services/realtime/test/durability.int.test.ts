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
  startLocalS3,
} from '@wb/platform/testing';
import type { LocalS3 } from '@wb/platform/testing';
import { loadBoardHandle, PgRoomJournal } from '../src/commands/boardStore';
import { A } from '../src/doc/automerge';
import { BoardPurgedProcessor } from '../src/processors/boardPurged';
import { appendChanges, claimBoard, recordSnapshot, SCHEMA, STALE_TOKEN_SQLSTATE } from '../src/repositories/journal';
import { FencedError } from '../src/room/room';
import { NodeRegistry } from '../src/sharding/registry';
import { FsSnapshotStore, ObjectSnapshotStore, snapshotKey } from '../src/storage/snapshots';
import type { SnapshotStore } from '../src/storage/snapshots';
import { silentLogger } from '../src/testing/fakes';
import { addShape, penStroke } from '../src/testing/client';
import type { BoardDoc } from '../src/testing/client';
import { genesisChange, newHandle } from '../src/doc/automerge';
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

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3(await mkdtemp(join(tmpdir(), 'wb-s3rver-')));
});
afterAll(async () => {
  await s3?.stop();
});
const stores: [string, () => SnapshotStore][] = [
  ['filesystem', () => new FsSnapshotStore(dir)],
  ['s3', () => new ObjectSnapshotStore(s3.store())],
];

describe.each(stores)('snapshots and load (P4/P5) on %s', (_name, makeStore) => {
  it('load = latest snapshot + journal tail, and the snapshot compacts the journal', async () => {
    const store = makeStore();
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
    expect(loaded.tailChanges).toBe(2);
    expect(loaded.timings.total).toBeGreaterThan(0);
  });

  it('P4: a tail of more than 9 rows loads in seq order and reports the last seq; it counts towards the next snapshot', async () => {
    const store = makeStore();
    const board = `b${randomId()}`;
    await claimBoard(pool, board, 1, 'a');
    const j = new PgRoomJournal(pool, board, 1, { lastSeq: 0, snapshotSeq: 0 });
    const all = changes(25);
    // make the rows' seqs cross a power of ten: as text, "1000" would sort before "996"
    const { rows: seqRows } = await pool.query<{ s: string }>(
      `SELECT nextval(pg_get_serial_sequence('journal', 'seq'))::text AS s`,
    );
    const crossing = 10 ** String(Number(seqRows[0]!.s) + 10).length;
    await pool.query(`SELECT setval(pg_get_serial_sequence('journal', 'seq'), $1)`, [crossing - 5]);
    for (const c of all) await j.append([c]); // one row each
    const loaded = await loadBoardHandle(pool, store, board);
    expect(loaded.lastSeq).toBe(j.lastSeq);
    expect(loaded.tailChanges).toBe(25);
    expect(loaded.handle.getHeads()).toEqual([all[24]!.hash]);
    // the next owner inherits the tail count (maintain() snapshots once it reaches SNAPSHOT_EVERY_CHANGES)
    await claimBoard(pool, board, 2, 'b');
    const next = new PgRoomJournal(pool, board, 2, loaded);
    expect(next.changesSinceSnapshot).toBe(25);
    expect(await next.snapshot(store, loaded.handle)).toBe(true);
    expect(next.changesSinceSnapshot).toBe(0);
    const again = await loadBoardHandle(pool, store, board);
    expect(again.tailChanges).toBe(0);
    expect(again.lastSeq).toBe(loaded.lastSeq);
    expect(again.handle.getHeads()).toEqual([all[24]!.hash]);
  });

  it('P5: snapshots written before the gzip format (plain save() bytes) still load', async () => {
    const store = makeStore();
    const board = `b${randomId()}`;
    await claimBoard(pool, board, 1, 'a');
    const all = changes(3);
    const seq = await appendChanges(pool, board, 1, all);
    const h = newHandle();
    h.applyChanges([genesisChange(), ...all.map((c) => c.bytes)]);
    const key = `${encodeURIComponent(board)}/${seq}-1.am`; // the old key and object format
    await store.put(key, h.save());
    await recordSnapshot(pool, board, 1, key, seq, 1);
    const loaded = await loadBoardHandle(pool, store, board);
    expect(loaded.tailChanges).toBe(0);
    expect(loaded.handle.getHeads()).toEqual(h.getHeads());
    h.free();
  });
});

describe('snapshots and purge', () => {
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
    const { rows: snaps } = await pool.query<{ storage_key: string }>(
      'SELECT storage_key FROM snapshots WHERE board_id = $1',
      [board],
    );
    expect(await store.get(snaps[0]!.storage_key)).not.toBeNull();
    // an orphan (a snapshot written but never recorded, e.g. a crash in between) goes too
    const orphan = snapshotKey(board, 999, 1);
    await store.put(orphan, Uint8Array.of(1));
    const dropped: string[] = [];
    const deleted: string[] = [];
    const afterCommit: Promise<void>[] = [];
    const p = new BoardPurgedProcessor(
      { dropPurged: (id) => dropped.push(id) },
      {
        delete: async (k) => {
          deleted.push(...k);
          await store.delete(k);
        },
        deleteBoard: (id) => store.deleteBoard(id),
      },
      (fn) => void afterCommit.push(fn()),
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
    await Promise.all(afterCommit);
    expect(dropped).toEqual([board]);
    expect(deleted).toEqual([snaps[0]!.storage_key]);
    expect(await store.get(snaps[0]!.storage_key)).toBeNull();
    expect(await store.get(orphan)).toBeNull();
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
    client.edit((d) => addShape(d, 'x1', penStroke('x1', 1, [1, 1])));
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
