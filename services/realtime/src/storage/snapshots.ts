/**
 * Object storage for snapshots behind one small interface (SPEC P5). The filesystem driver is
 * the default; an S3/MinIO driver implements the same interface later and runs the same
 * contract tests (snapshots.test.ts).
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

export interface SnapshotStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** null when missing */
  get(key: string): Promise<Uint8Array | null>;
  delete(keys: string[]): Promise<void>;
}

/** Keys are "<urlencoded board id>/<seq>-<token>.am": one folder per board, no slashes inside names. */
export function snapshotKey(boardId: string, upToSeq: number, token: number): string {
  return `${encodeURIComponent(boardId)}/${upToSeq}-${token}.am`;
}

export class FsSnapshotStore implements SnapshotStore {
  private readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
  }
  private pathOf(key: string): string {
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
}
