/**
 * Snapshots of board documents (SPEC P5) in the platform object store (`@wb/platform`
 * ObjectStore: a folder, or an S3-compatible bucket through `minio`; its contract tests run both
 * drivers). This file keeps what is particular to snapshots: the key layout, the per-board purge
 * and the encoding of the stored bytes.
 *
 * A snapshot object is the board's Automerge document as `saveNoCompress()` writes it: ~4× cheaper
 * on the event loop than `save()`, which deflates inside wasm, and no gunzip on the load path
 * (~40 ms for a 20k-stroke board, where loads have 300 ms in all). Stroke points are already
 * compact (SPEC D3), so the object is only ~2× its gzipped size. Objects written by older nodes
 * (gzipped `saveNoCompress()`, or `save()`) still load: `unpackSnapshot` tells them apart by
 * their magic bytes.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { FsObjectStore } from '@wb/platform';
import type { ObjectStore } from '@wb/platform';
import { boardPreviewKey } from '@wb/proto';

export interface SnapshotStore {
  /** write (or replace) an object; a reader never sees a half-written one */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** null when missing */
  get(key: string): Promise<Uint8Array | null>;
  /** missing keys are ignored */
  delete(keys: string[]): Promise<void>;
  /** every object of a board, including orphans a crash left behind (purge, SPEC H3) */
  deleteBoard(boardId: string): Promise<void>;
}

/**
 * Keys are "<board id with / as ~>/<seq>-<token>.am": one folder per board. Board ids are
 * [A-Za-z0-9_-] segments joined by "/" (proto BOARD_ID_PATTERN), so "~" is unambiguous, and no
 * board's folder is a prefix of another's. (Not percent-encoding: S3 servers disagree on whether
 * "%2F" in an object name is decoded.) Keys of older snapshots ("%2F", ".am.gz") are read as recorded.
 */
export function snapshotKey(boardId: string, upToSeq: number, token: number): string {
  return `${boardKeyPrefix(boardId)}${upToSeq}-${token}.am`;
}
/** Every snapshot key of a board starts with this (purge lists and deletes by it). */
export function boardKeyPrefix(boardId: string): string {
  return `${encodeURIComponent(boardId).replaceAll('%2F', '~')}/`;
}

/**
 * A board's dashboard preview (WebP, doc/boardPreview.ts): one object per board (proto's key, the
 * gateway serves it), replaced by each new one, inside the board's folder so the purge takes it
 * too. Its version travels in the realtime.board.previewed.v1 event, not in the key.
 */
export const previewKey = boardPreviewKey;

const gunzipAsync = promisify(gunzip);

/** Document bytes of a stored snapshot: as stored, or gunzipped (on the thread pool) if older. */
export async function unpackSnapshot(stored: Uint8Array): Promise<Uint8Array> {
  if (stored[0] !== 0x1f || stored[1] !== 0x8b) return stored;
  const b = await gunzipAsync(stored);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * A SnapshotStore over any ObjectStore. Keys are those the S3 and filesystem snapshot stores
 * always wrote (the object store keeps `<dir>/<key>` on disk and the key as the S3 object name),
 * so snapshots written before the move load as they are.
 */
export class ObjectSnapshotStore implements SnapshotStore {
  constructor(readonly objects: ObjectStore) {}
  put(key: string, bytes: Uint8Array): Promise<void> {
    return this.objects.put(key, bytes);
  }
  get(key: string): Promise<Uint8Array | null> {
    return this.objects.get(key);
  }
  delete(keys: string[]): Promise<void> {
    return this.objects.delete(keys);
  }
  deleteBoard(boardId: string): Promise<void> {
    // the prefix ends in "/": "room~1/" never takes "room~10/…"
    return this.objects.deletePrefix(boardKeyPrefix(boardId));
  }
}

/** Snapshots in a folder (the default driver; tests and the benchmark use it directly). */
export class FsSnapshotStore extends ObjectSnapshotStore {
  constructor(root: string) {
    super(new FsObjectStore(root));
  }
}
