/**
 * The big board of the realtime benchmark: N pen strokes of 50–100 points, one Automerge change
 * per stroke (as the web client commits them), from a new actor every 500 strokes (a class of
 * students over many lessons), built on the raw handle (the same record as `penStroke` of
 * services/realtime/src/testing/client.ts, field by field with the same datatypes) rather than
 * the high-level API, which would materialise the whole board on every change.
 *
 * Stored the way a node leaves a board (SPEC P4/P5), through the service's own storage code
 * (built dist: `claimBoard`, `PgRoomJournal`, `FsSnapshotStore`), so whatever snapshot format
 * and load path the service uses is what the benchmark measures: the first N − tail changes are
 * journaled and then snapshotted (which compacts them away), the last `tail` changes stay in the
 * journal. Everything carries fencing token 0 (claimed first), so a node's first claim (token
 * ≥ 1) takes the board over as it would from a previous owner.
 */
import { createLogger, createPool } from '@wb/platform';
import { bucketOf, packPoints } from '@wb/proto';
import { PgRoomJournal } from '@wb/realtime/dist/commands/boardStore';
import { genesisChange, layoutOf, newHandle } from '@wb/realtime/dist/doc/automerge';
import type { Handle } from '@wb/realtime/dist/doc/automerge';
import { claimBoard, SCHEMA } from '@wb/realtime/dist/repositories/journal';
import { FsSnapshotStore } from '@wb/realtime/dist/storage/snapshots';
import { seeded, strokePoints } from './realtime-common';

export interface BigBoard {
  strokes: number;
  points: number;
  /** every change, in order */
  changes: Array<{ hash: string; bytes: Uint8Array }>;
  /** the document after the first `strokes − tail` changes (what the snapshot holds); free() when done */
  prefix: Handle;
  /** the whole document (the snapshot of a board stored without a tail); free() when done */
  full: Handle;
  tail: number;
  buildMs: number;
}

const STROKES_PER_ACTOR = 500;

export function buildBigBoard(strokes: number, tail: number, seed = 20_000): BigBoard {
  const t0 = performance.now();
  const rnd = seeded(seed);
  const hex = (): string =>
    Array.from({ length: 4 }, () =>
      Math.floor(rnd() * 2 ** 32)
        .toString(16)
        .padStart(8, '0'),
    ).join('');
  let h: Handle = newHandle();
  h.applyChanges([genesisChange()]);
  const layout = layoutOf(h);
  if (!layout) throw new Error('genesis has no bucket layout');
  const bucketId = new Map<string, string>();
  for (const [objId, name] of layout.bucketIds) bucketId.set(name, objId);

  let prefix: Handle | null = null;
  const changes: BigBoard['changes'] = [];
  let points = 0;
  let time = 1_700_000_000;
  for (let i = 0; i < strokes; i++) {
    if (i % STROKES_PER_ACTOR === 0) {
      const next = h.fork(hex());
      h.free();
      h = next;
    }
    const creator = 100 + Math.floor(i / STROKES_PER_ACTOR);
    const id = `p${i.toString(36)}${Math.floor(rnd() * 2 ** 32).toString(36)}`;
    const n = 50 + Math.floor(rnd() * 51);
    points += n;
    // relative to the shape's x, y as the pen tool writes them (SPEC D3)
    const pts = strokePoints(n, 0, 0, rnd);
    const [ox, oy] = [rnd() * 4000, rnd() * 3000];
    const obj = h.putObject(bucketId.get(bucketOf(id))!, id, {});
    h.put(obj, 'kind', 'pen', 'str');
    h.put(obj, 'creator', creator, 'int');
    h.put(obj, 'z', `a${i.toString(36)}`, 'str');
    h.put(obj, 'x', ox, 'f64');
    h.put(obj, 'y', oy, 'f64');
    h.put(obj, 'strokeColor', Math.floor(rnd() * 8), 'f64');
    h.put(obj, 'strokeWidth', 3, 'int');
    h.put(obj, 'points', packPoints(pts), 'bytes');
    time += 1 + Math.floor(rnd() * 4);
    const hash = h.commit(null, time);
    const bytes = h.getLastLocalChange();
    if (!hash || !bytes) throw new Error('commit produced no change');
    changes.push({ hash, bytes });
    if (i === strokes - tail - 1) prefix = h.fork();
  }
  if (!prefix) prefix = h.fork();
  return { strokes, points, changes, prefix, full: h, tail, buildMs: Math.round(performance.now() - t0) };
}

/**
 * Store the board under `boardId`: journal → snapshot (compacts) → journal tail, with the board's
 * tail (as an owner that crashed leaves it) or none (as eviction and hand-over leave it).
 */
export async function seedBigBoard(
  databaseUrl: string,
  snapshotDir: string,
  boardId: string,
  board: BigBoard,
  withTail: boolean,
): Promise<{ snapshotBytes: number }> {
  const tailLength = withTail ? board.tail : 0;
  const log = createLogger({ service: 'bench-realtime', level: 'warn' });
  const pool = createPool({ url: databaseUrl, schema: SCHEMA, poolSize: 2, log });
  try {
    if (!(await claimBoard(pool, boardId, 0, 'bench-seed'))) throw new Error(`could not claim ${boardId}`);
    const journal = new PgRoomJournal(pool, boardId, 0, { lastSeq: 0, snapshotSeq: 0 });
    const head = board.changes.slice(0, board.changes.length - tailLength);
    for (let i = 0; i < head.length; i += 1000) await journal.append(head.slice(i, i + 1000));
    const store = new FsSnapshotStore(snapshotDir);
    if (!(await journal.snapshot(store, withTail ? board.prefix : board.full)))
      throw new Error('no snapshot was written');
    const tail = board.changes.slice(board.changes.length - tailLength);
    if (tail.length) await journal.append(tail);
    const { rows } = await pool.query<{ size: number }>(
      `SELECT size FROM snapshots WHERE board_id = $1 ORDER BY up_to_seq DESC LIMIT 1`,
      [boardId],
    );
    return { snapshotBytes: rows[0]?.size ?? NaN };
  } finally {
    await pool.end();
  }
}
