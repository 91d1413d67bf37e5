/**
 * svc.realtime.board.copy (boards' board.duplicate, courses' copy for each student): the source
 * board's committed content — latest snapshot + journal tail, read consistently
 * (`committedContent`) — stored as the first snapshot of the new board, which then opens like any
 * board. Any node answers; the source's owner node is not involved, so a board being edited live
 * is copied as far as its journal has committed.
 *
 * Cost: a source without a tail is its snapshot's bytes, stored once more. A tail is merged into
 * one document in the worker thread (`DocMerger`; never on the event loop), and the merged bytes
 * are kept for the same committed state, so a class of 30 copying one board merges it once.
 */
import type { Pool } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { DocMerger } from '../doc/renderSnapshot';
import { committedContent, isStaleToken, recordFirstSnapshot } from '../repositories/journal';
import { snapshotKey, unpackSnapshot } from '../storage/snapshots';
import type { SnapshotStore } from '../storage/snapshots';

/** committed states kept (source board + snapshot + last seq → document bytes) */
const KEPT = 4;
/** reads retried when the snapshot object was compacted away between the row and the fetch */
const READ_ATTEMPTS = 3;

export class BoardCopier {
  private readonly docs = new Map<string, Promise<Uint8Array | null>>();

  constructor(
    private readonly pool: Pool,
    private readonly store: SnapshotStore,
    private readonly merger: DocMerger,
  ) {}

  /** copies `from` into the never-opened board `to`; returns the stored bytes (0: nothing to copy) */
  async copy(from: string, to: string): Promise<number> {
    const doc = await this.committedDoc(from);
    if (!doc) return 0;
    const key = snapshotKey(to, 0, 0);
    await this.store.put(key, doc);
    try {
      await recordFirstSnapshot(this.pool, to, key, doc.length);
    } catch (err) {
      await this.store.delete([key]).catch(() => undefined);
      // a board that was opened or copied into already: a copy only ever makes a new board
      if (isStaleToken(err) || (err as { code?: string }).code === '23505') {
        throw new AppError('ERR_INVALID_INPUT', 'The board already has content', { to: 'already has content' });
      }
      throw err;
    }
    return doc.length;
  }

  /** the board's committed document as one saved document; null when it has no content yet */
  private async committedDoc(boardId: string): Promise<Uint8Array | null> {
    for (let attempt = 1; ; attempt++) {
      const { snapshot, tail } = await committedContent(this.pool, boardId);
      if (!snapshot && !tail.changes.length) return null;
      const state = `${boardId}\n${snapshot?.key ?? ''}\n${tail.lastSeq}`;
      let doc = this.docs.get(state);
      if (!doc) {
        doc = this.materialise(snapshot?.key ?? null, tail.changes);
        this.docs.set(state, doc);
        doc.catch(() => this.docs.delete(state));
        if (this.docs.size > KEPT) this.docs.delete(this.docs.keys().next().value!);
      }
      try {
        return await doc;
      } catch (err) {
        // a newer snapshot compacted the one read: read the committed state again
        if (!(err instanceof SnapshotGone) || attempt >= READ_ATTEMPTS) throw err;
      }
    }
  }

  private async materialise(key: string | null, tail: Uint8Array[]): Promise<Uint8Array> {
    let snapshot: Uint8Array | null = null;
    if (key) {
      const stored = await this.store.get(key);
      if (!stored) throw new SnapshotGone(key);
      snapshot = await unpackSnapshot(stored);
      if (!tail.length) return snapshot;
    }
    return this.merger.merge(snapshot, tail);
  }
}

class SnapshotGone extends Error {
  constructor(key: string) {
    super(`snapshot ${key} is gone`);
  }
}
