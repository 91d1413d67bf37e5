/**
 * Load time of a big board on a realtime node, split by phase (SPEC P4): a realistic 20,000-stroke
 * board (bench/board.ts) with a snapshot covering most of it and a journal tail, in a fresh
 * PostgreSQL database and snapshot store; each run claims the board with a new fencing token (as
 * a new owner does, F2), loads it with `loadBoardHandle`, opens a `Room` and joins one peer:
 * join → WELCOME + first SYNC is what the user waits for before anything happens. The server-side
 * work of the rest of an empty client's catch-up (the document it is sent) is reported apart.
 *
 *   node --import tsx services/realtime/bench/load.ts [--strokes 20000] [--tail 500] [--runs 7]
 *        [--fresh-process] [--store fs|s3] [--json out.json]
 *
 * The default tail is the longest a crashed owner leaves (SNAPSHOT_EVERY_CHANGES); an evicted or
 * handed-over board has none (`--tail 0`).
 * Needs the test PostgreSQL (`make infra`, or what `npx jest` uses). `--fresh-process` runs each
 * load in a new Node process after the node's start-up warm-up (the first load of a new node);
 * the default loads the board again
 * and again in one warm node, as a node that has served other boards does. `--store s3` runs
 * against a local S3 server (s3rver, as the contract test does).
 * The generated board is cached in the OS temp directory (generating it takes ~30 s).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPool, migrate } from '@wb/platform';
import type { Pool } from '@wb/platform';
import { createTestDatabase, dropTestDatabase, randomId, startLocalS3 } from '@wb/platform/testing';
import { MSG, splitFrame } from '@wb/proto';
import { loadBoardHandle, PgRoomJournal, SNAPSHOT_EVERY_CHANGES } from '../src/commands/boardStore';
import { newHandle, newSyncState, warmUpDocEngine } from '../src/doc/automerge';
import { appendChanges, claimBoard, SCHEMA } from '../src/repositories/journal';
import { Room } from '../src/room/room';
import type { PeerIdentity } from '../src/room/room';
import { FsSnapshotStore, ObjectSnapshotStore } from '../src/storage/snapshots';
import type { SnapshotStore } from '../src/storage/snapshots';
import { FakeClock, FakeSocket, silentLogger } from '../src/testing/fakes';
import { generateBoard } from './board';
import type { GeneratedBoard } from './board';

const log = silentLogger();

const { values: args } = parseArgs({
  options: {
    strokes: { type: 'string', default: '20000' },
    tail: { type: 'string', default: String(SNAPSHOT_EVERY_CHANGES) },
    runs: { type: 'string', default: '7' },
    'fresh-process': { type: 'boolean', default: false },
    store: { type: 'string', default: 'fs' },
    json: { type: 'string' },
    // internal: one load in this process against an existing database (--fresh-process)
    child: { type: 'string' },
  },
});

/** Cached in the temp directory: u32 count, then per change u32 hash length, hash, u32 length, bytes. */
async function board(strokes: number): Promise<GeneratedBoard> {
  const file = join(tmpdir(), `wb-bench-board-v3-${strokes}.bin`);
  if (existsSync(file)) {
    const buf = await readFile(file);
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    let o = 0;
    const u32 = (): number => ((o += 4), dv.getUint32(o - 4));
    const n = u32();
    const changes: GeneratedBoard['changes'] = [];
    for (let i = 0; i < n; i++) {
      const hl = u32();
      const hash = buf.toString('latin1', o, o + hl);
      o += hl;
      const bl = u32();
      changes.push({ hash, bytes: new Uint8Array(buf.buffer, buf.byteOffset + o, bl) });
      o += bl;
    }
    return { changes, strokes, moves: -1, deletes: -1 };
  }
  const started = performance.now();
  const b = generateBoard({ strokes });
  process.stderr.write(`generated ${b.changes.length} changes in ${Math.round(performance.now() - started)} ms\n`);
  const parts: Uint8Array[] = [u32be(b.changes.length)];
  for (const c of b.changes)
    parts.push(u32be(c.hash.length), Buffer.from(c.hash, 'latin1'), u32be(c.bytes.length), c.bytes);
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, Buffer.concat(parts));
  await rename(tmp, file);
  return b;
}
function u32be(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

interface Setup {
  databaseUrl: string;
  boardId: string;
  storeDir: string;
  changes: number;
  tail: number;
  snapshotBytes: number;
  journalBytes: number;
}

async function makeStore(kind: string, dir: string): Promise<{ store: SnapshotStore; stop: () => Promise<void> }> {
  if (kind === 'fs') return { store: new FsSnapshotStore(dir), stop: async () => undefined };
  if (kind === 's3') {
    const s3 = await startLocalS3(dir);
    return { store: new ObjectSnapshotStore(s3.store()), stop: () => s3.stop() };
  }
  throw new Error(`--store ${kind}: fs or s3`);
}

/** Journal everything, snapshot all but the tail through the room journal's own code, journal the tail. */
async function seed(
  pool: Pool,
  store: SnapshotStore,
  b: GeneratedBoard,
  tail: number,
): Promise<Omit<Setup, 'databaseUrl' | 'storeDir'>> {
  const boardId = `bench/${randomId()}`;
  await claimBoard(pool, boardId, 1, 'bench');
  const cut = b.changes.length - tail;
  const head = b.changes.slice(0, cut);
  let lastSeq = 0;
  for (let i = 0; i < head.length; i += 1000) lastSeq = await appendChanges(pool, boardId, 1, head.slice(i, i + 1000));
  const handle = newHandle();
  handle.applyChanges(head.map((c) => c.bytes));
  const journal = new PgRoomJournal(pool, boardId, 1, { lastSeq, snapshotSeq: 0 });
  await journal.snapshot(store, handle);
  handle.free();
  const rest = b.changes.slice(cut);
  for (let i = 0; i < rest.length; i += 1000) await appendChanges(pool, boardId, 1, rest.slice(i, i + 1000));
  const { rows } = await pool.query<{ size: number }>(`SELECT size FROM snapshots WHERE board_id = $1`, [boardId]);
  return {
    boardId,
    changes: b.changes.length,
    tail: rest.length,
    snapshotBytes: rows[0]?.size ?? 0,
    journalBytes: rest.reduce((s, c) => s + c.bytes.length, 0),
  };
}

type Phases = Record<string, number>;
const identity: PeerIdentity = { userId: 7, name: 'u7', guest: false, access: 'edit', readOnlyReason: null };

/** One cold load: claim with a new token, load, open the room, join; then the catch-up's server work. */
async function oneLoad(pool: Pool, store: SnapshotStore, boardId: string, token: number): Promise<Phases> {
  if (!(await claimBoard(pool, boardId, token, 'bench'))) throw new Error('claim failed');
  const phases: Phases = {};
  const t0 = performance.now();
  const loaded = await loadBoardHandle(pool, store, boardId);
  const tLoaded = performance.now();
  for (const [k, v] of Object.entries(loaded.timings)) phases[`load.${k}`] = v;
  const room = new Room({
    boardId,
    ownerId: 1,
    deleteOwnOnly: false,
    handle: loaded.handle,
    journal: new PgRoomJournal(pool, boardId, token, loaded),
    clock: new FakeClock(),
    log,
    storedBytes: loaded.storedBytes,
  });
  const tRoom = performance.now();
  phases['room open'] = tRoom - tLoaded;
  const socket = new FakeSocket();
  const peer = room.join(socket, identity);
  const tJoined = performance.now();
  phases['join: WELCOME + first SYNC'] = tJoined - tRoom;
  phases['= join → first SYNC'] = tJoined - t0;
  const frames = socket.take();
  if (splitFrame(frames[0]!).type !== MSG.WELCOME || splitFrame(frames.at(-1)!).type !== MSG.SYNC_S) {
    throw new Error('expected WELCOME … SYNC');
  }

  // an empty client catches up; only the server's share is timed (the client's is the browser's)
  const client = newHandle();
  const clientState = newSyncState();
  let server = 0;
  let docBytes = 0;
  let inbox = frames.filter((f) => splitFrame(f).type === MSG.SYNC_S);
  for (let round = 0; round < 10 && inbox.length; round++) {
    for (const f of inbox) {
      const { payload } = splitFrame(f);
      docBytes += payload.length;
      client.receiveSyncMessage(clientState, payload);
    }
    const reply = client.generateSyncMessage(clientState);
    if (!reply) break;
    const frame = new Uint8Array(reply.length + 1);
    frame[0] = MSG.SYNC;
    frame.set(reply, 1);
    const t = performance.now();
    room.receive(peer, frame);
    server += performance.now() - t;
    const out = socket.take();
    if (out.some((o) => splitFrame(o).type === MSG.SYNCED)) break;
    inbox = out.filter((o) => splitFrame(o).type === MSG.SYNC_S);
  }
  if (client.getHeads().sort().join() !== loaded.handle.getHeads().sort().join())
    throw new Error('client did not catch up');
  phases['catch-up: server work after first SYNC'] = server;
  phases['catch-up: bytes sent (MB)'] = docBytes / 1e6;
  client.free();
  clientState.free();
  room.dispose();
  return phases;
}

function summarize(runs: Phases[]): Record<string, { p50: number; min: number; max: number }> {
  const out: Record<string, { p50: number; min: number; max: number }> = {};
  for (const k of Object.keys(runs[0]!)) {
    const v = runs.map((r) => r[k] ?? 0).sort((a, b) => a - b);
    out[k] = { p50: v[Math.floor((v.length - 1) / 2)]!, min: v[0]!, max: v.at(-1)! };
  }
  return out;
}

async function child(spec: string): Promise<void> {
  const s = JSON.parse(spec) as Setup & { token: number; store: string };
  const pool = createPool({ url: s.databaseUrl, schema: SCHEMA, poolSize: 4, log });
  const { store, stop } = await makeStore(s.store, s.storeDir);
  try {
    warmUpDocEngine(); // as src/main.ts does before the node takes boards
    process.stdout.write(JSON.stringify(await oneLoad(pool, store, s.boardId, s.token)));
  } finally {
    await stop();
    await pool.end();
  }
}

function runChild(spec: object): Promise<Phases> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...process.execArgv, __filename, '--child', JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', reject);
    p.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as Phases) : reject(new Error(`child exited ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  if (args.child) return child(args.child);
  const strokes = Number(args.strokes);
  const tail = Number(args.tail);
  const runs = Number(args.runs);
  const b = await board(strokes);
  const databaseUrl = await createTestDatabase();
  const storeDir = await mkdtemp(join(tmpdir(), 'wb-bench-snap-'));
  const pool = createPool({ url: databaseUrl, schema: SCHEMA, poolSize: 4, log });
  const { store, stop } = await makeStore(args.store, storeDir);
  try {
    await migrate(pool, { schema: SCHEMA, dir: join(__dirname, '..', 'migrations'), log });
    const setup: Setup = { databaseUrl, storeDir, ...(await seed(pool, store, b, tail)) };
    const results: Phases[] = [];
    // warm-up load in this process (the default mode models a node that has loaded boards before)
    if (!args['fresh-process']) await oneLoad(pool, store, setup.boardId, 2);
    for (let r = 0; r < runs; r++) {
      const token = r + 3;
      results.push(
        args['fresh-process']
          ? await runChild({ ...setup, token, store: args.store })
          : await oneLoad(pool, store, setup.boardId, token),
      );
    }
    const summary = summarize(results);
    const report = {
      board: {
        strokes,
        changes: setup.changes,
        tail: setup.tail,
        snapshotMB: setup.snapshotBytes / 1e6,
        tailMB: setup.journalBytes / 1e6,
      },
      mode: args['fresh-process'] ? 'fresh process per load, after the start-up warm-up' : 'warm node',
      store: args.store,
      runs,
      ms: summary,
    };
    const lines = [
      `board: ${strokes} strokes, ${setup.changes} changes, snapshot ${(setup.snapshotBytes / 1e6).toFixed(1)} MB, ` +
        `journal tail ${setup.tail} changes (${(setup.journalBytes / 1e6).toFixed(1)} MB); ${report.mode}; store ${args.store}; ${runs} runs`,
      `${'phase'.padEnd(42)} ${'p50'.padStart(8)} ${'min'.padStart(8)} ${'max'.padStart(8)}`,
      ...Object.entries(summary).map(
        ([k, v]) =>
          `${k.padEnd(42)} ${v.p50.toFixed(1).padStart(8)} ${v.min.toFixed(1).padStart(8)} ${v.max.toFixed(1).padStart(8)}`,
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (args.json) await writeFile(args.json, JSON.stringify(report, null, 2));
  } finally {
    await stop();
    await pool.end();
    await dropTestDatabase(databaseUrl);
    await rm(storeDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
