/**
 * Loading and persisting one board: load = latest snapshot + journal tail (SPEC P4); journal
 * appends carry the owner's fencing token (F1); snapshots compact the journal (P5).
 */
import type { Pool } from '@wb/platform';
import { genesisChange, loadHandle, newHandle } from '../doc/automerge';
import type { Handle } from '../doc/automerge';
import { appendChanges, isStaleToken, loadBoard, recordSnapshot } from '../repositories/journal';
import { FencedError } from '../room/room';
import type { JournalEntry, RoomJournal } from '../room/room';
import { snapshotKey } from '../storage/snapshots';
import type { SnapshotStore } from '../storage/snapshots';

export interface LoadedBoard {
  handle: Handle;
  lastSeq: number;
  storedBytes: number;
  snapshotSeq: number;
}

export async function loadBoardHandle(pool: Pool, store: SnapshotStore, boardId: string): Promise<LoadedBoard> {
  const stored = await loadBoard(pool, boardId);
  let handle: Handle;
  let storedBytes = stored.tailBytes;
  if (stored.snapshot) {
    const bytes = await store.get(stored.snapshot.key);
    if (!bytes) throw new Error(`snapshot ${stored.snapshot.key} of board ${boardId} is missing`);
    handle = loadHandle(bytes);
    storedBytes += bytes.length;
  } else {
    // every board starts from the same genesis change (SPEC D1)
    handle = newHandle();
    handle.applyChanges([genesisChange()]);
  }
  if (stored.tail.length) handle.applyChanges(stored.tail.map((r) => r.bytes));
  const lastSeq = stored.tail.length ? stored.tail[stored.tail.length - 1]!.seq : (stored.snapshot?.upToSeq ?? 0);
  return { handle, lastSeq, storedBytes, snapshotSeq: stored.snapshot?.upToSeq ?? 0 };
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
    loaded: { lastSeq: number; snapshotSeq: number },
  ) {
    this.lastSeq = loaded.lastSeq;
    this.snapshotSeq = loaded.snapshotSeq;
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

  /** save() the handle, store it, compact the journal (no-op when nothing new was journaled). */
  async snapshot(store: SnapshotStore, handle: Handle): Promise<boolean> {
    const upTo = this.lastSeq;
    if (upTo <= this.snapshotSeq) return false;
    const bytes = handle.save();
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
    this.changesSinceSnapshot = 0;
    await store.delete(obsolete);
    return true;
  }
}
