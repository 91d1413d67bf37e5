/**
 * Object storage for snapshots behind one small interface (SPEC P5): the filesystem driver here
 * (default), the S3 driver in s3Snapshots.ts; both run the contract tests in snapshots.test.ts.
 *
 * A snapshot object is the board's Automerge document as `saveNoCompress()` writes it: ~4× cheaper
 * on the event loop than `save()`, which deflates inside wasm, and no gunzip on the load path
 * (~40 ms for a 20k-stroke board, where loads have 300 ms in all). Stroke points are already
 * compact (SPEC D3), so the object is only ~2× its gzipped size. Objects written by older nodes
 * (gzipped `saveNoCompress()`, or `save()`) still load: `unpackSnapshot` tells them apart by
 * their magic bytes.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

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

/** Keys are relative, "/"-separated, without empty, "." or ".." segments (no escaping the store). */
export function assertSafeKey(key: string): void {
  const segments = key.split('/');
  if (!key || key.includes('\\') || segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw new Error(`snapshot key escapes the store: ${key}`);
  }
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

const gunzipAsync = promisify(gunzip);

/** Document bytes of a stored snapshot: as stored, or gunzipped (on the thread pool) if older. */
export async function unpackSnapshot(stored: Uint8Array): Promise<Uint8Array> {
  if (stored[0] !== 0x1f || stored[1] !== 0x8b) return stored;
  const b = await gunzipAsync(stored);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export class FsSnapshotStore implements SnapshotStore {
  private readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
  }
  private pathOf(key: string): string {
    assertSafeKey(key);
    const p = resolve(join(this.root, key));
    if (!p.startsWith(this.root + '/')) throw new Error(`snapshot key escapes the store: ${key}`);
    return p;
  }
  async put(key: string, bytes: Uint8Array): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // write then rename: a crash never leaves a half-written snapshot under the real name
    const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  }
  async get(key: string): Promise<Uint8Array | null> {
    try {
      const b = await readFile(this.pathOf(key));
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }
  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.map((k) => rm(this.pathOf(k), { force: true })));
  }
  async deleteBoard(boardId: string): Promise<void> {
    await rm(this.pathOf(boardKeyPrefix(boardId).slice(0, -1)), { recursive: true, force: true });
  }
}
