/**
 * Loading and persisting one board: load = latest snapshot + journal tail (SPEC P4); journal
 * appends carry the owner's fencing token (F1); snapshots compact the journal (P5).
 *
 * Where a 20k-stroke board's load time goes (bench/load.ts): Automerge's load of the snapshot
 * (~13 µs per change: it rebuilds every change and SHA-256-hashes it to rebuild the change graph,
 * whatever the load options) and applying the journal tail (~0.07 ms per change on a big
 * document). So the tail is kept short (SNAPSHOT_EVERY_CHANGES, and a room that loaded a long
 * tail snapshots at once), snapshots are stored uncompressed, and the PostgreSQL read and the
 * object fetch overlap.
 */
import type { Pool } from '@wb/platform';
import { genesisChange, loadHandle, newHandle } from '../doc/automerge';
import type { Handle } from '../doc/automerge';
import { appendChanges, isStaleToken, journalTail, latestSnapshot, recordSnapshot } from '../repositories/journal';
import { FencedError } from '../room/room';
import type { JournalEntry, RoomJournal } from '../room/room';
import { snapshotKey, unpackSnapshot } from '../storage/snapshots';
import type { SnapshotStore } from '../storage/snapshots';

/**
 * Snapshot (and compact) once this many changes were journaled since the last snapshot (P5). It
 * bounds the tail a crashed owner leaves, which the next owner applies on load (~0.07–0.15 ms per
 * change on a 20k-stroke board), against a `saveNoCompress()` on the event loop (~26 ms there).
 */
export const SNAPSHOT_EVERY_CHANGES = 200;

/** Milliseconds per load phase (wall clock; the fetch phases overlap). */
export interface LoadTimings {
  /** snapshot pointer row */
  snapshotRow: number;
  /** journal rows after the snapshot (PostgreSQL), concurrent with the object fetch */
  journalRead: number;
  /** snapshot object from the store, concurrent with the journal read */
  objectRead: number;
  /** gunzip of a snapshot written by an older node (0 otherwise) */
  unpack: number;
  /** wall time of the concurrent fetch (journal ∥ object) */
  fetch: number;
  /** Automerge load of the snapshot document (or genesis) */
  docLoad: number;
  /** journal tail applied to the handle */
  tailApply: number;
  total: number;
}

export interface LoadedBoard {
  handle: Handle;
  lastSeq: number;
  storedBytes: number;
  snapshotSeq: number;
  /** journal rows after the snapshot (they count towards the next snapshot) */
  tailChanges: number;
  timings: LoadTimings;
}

export async function loadBoardHandle(pool: Pool, store: SnapshotStore, boardId: string): Promise<LoadedBoard> {
  const t0 = performance.now();
  const snapshot = await latestSnapshot(pool, boardId);
  const tRow = performance.now();
  const since = (t: number): number => performance.now() - t;
  const timings: LoadTimings = {
    snapshotRow: tRow - t0,
    journalRead: 0,
    objectRead: 0,
    unpack: 0,
    fetch: 0,
    docLoad: 0,
    tailApply: 0,
    total: 0,
  };
  // the journal tail (PostgreSQL) and the snapshot object at once
  const [tail, doc] = await Promise.all([
    journalTail(pool, boardId, snapshot?.upToSeq ?? 0).then((t) => ((timings.journalRead = since(tRow)), t)),
    snapshot
      ? store.get(snapshot.key).then(async (stored) => {
          timings.objectRead = since(tRow);
          if (!stored) throw new Error(`snapshot ${snapshot.key} of board ${boardId} is missing`);
          const tUnpack = performance.now();
          const bytes = await unpackSnapshot(stored);
          timings.unpack = since(tUnpack);
          return { bytes, storedSize: stored.length };
        })
      : null,
  ]);
  timings.fetch = since(tRow);
  let t = performance.now();
  let handle: Handle;
  if (doc) {
    handle = loadHandle(doc.bytes);
  } else {
    // every board starts from the same genesis change (SPEC D1)
    handle = newHandle();
    handle.applyChanges([genesisChange()]);
  }
  timings.docLoad = since(t);
  t = performance.now();
  try {
    // one loadIncremental of the whole tail: ~2.5× faster than applyChanges one by one and
    // steadier than one applyChanges batch (bench/load.ts); a change with missing dependencies
    // waits in the handle's queue either way
    // (loadIncremental reads concatenated chunks)
    if (tail.changes.length) handle.loadIncremental(Buffer.concat(tail.changes));
  } catch (err) {
    handle.free();
    throw err;
  }
  timings.tailApply = since(t);
  timings.total = since(t0);
  return {
    handle,
    lastSeq: tail.changes.length ? tail.lastSeq : (snapshot?.upToSeq ?? 0),
    storedBytes: tail.bytes + (doc?.storedSize ?? 0),
    snapshotSeq: snapshot?.upToSeq ?? 0,
    tailChanges: tail.changes.length,
    timings,
  };
}

/** The room's journal on PostgreSQL, writing with one fencing token. */
export class PgRoomJournal implements RoomJournal {
  lastSeq: number;
  snapshotSeq: number;
  changesSinceSnapshot = 0;
  constructor(
    private readonly pool: Pool,
    private readonly boardId: string,
    readonly token: number,
    loaded: { lastSeq: number; snapshotSeq: number; tailChanges?: number },
  ) {
    this.lastSeq = loaded.lastSeq;
    this.snapshotSeq = loaded.snapshotSeq;
    // a tail inherited from the previous owner counts: a long one is compacted right away
    this.changesSinceSnapshot = loaded.tailChanges ?? 0;
  }
  async append(entries: JournalEntry[]): Promise<void> {
    try {
      const seq = await appendChanges(this.pool, this.boardId, this.token, entries);
      if (seq > this.lastSeq) this.lastSeq = seq;
      this.changesSinceSnapshot += entries.length;
    } catch (err) {
      if (isStaleToken(err)) throw new FencedError();
      throw err;
    }
  }

  /** Save the handle, store it, compact the journal (no-op when nothing new was journaled). */
  async snapshot(store: SnapshotStore, handle: Handle): Promise<boolean> {
    const upTo = this.lastSeq;
    if (upTo <= this.snapshotSeq) return false;
    const covered = this.changesSinceSnapshot;
    // the only synchronous part (storage/snapshots.ts: why uncompressed)
    const bytes = handle.saveNoCompress();
    const key = snapshotKey(this.boardId, upTo, this.token);
    await store.put(key, bytes);
    let obsolete: string[];
    try {
      obsolete = await recordSnapshot(this.pool, this.boardId, this.token, key, upTo, bytes.length);
    } catch (err) {
      await store.delete([key]).catch(() => undefined);
      if (isStaleToken(err)) throw new FencedError();
      throw err;
    }
    this.snapshotSeq = upTo;
    // changes journaled while this snapshot was written still count towards the next one
    this.changesSinceSnapshot = Math.max(0, this.changesSinceSnapshot - covered);
    await store.delete(obsolete);
    return true;
  }
}
