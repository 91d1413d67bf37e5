/**
 * The filesystem driver: object `key` is the file `<dir>/<key>`, so folders of keys are folders
 * on disk (realtime's SNAPSHOT_DIR keeps the layout it always had). Writes go to a temp file in
 * the same folder and are renamed into place, so a reader sees the old object or the new one,
 * never part of one. A content type, when given, sits beside the object in `<file>.wbmeta`
 * (JSON); temp files are `.<random>.wbtmp`. Both endings are refused in keys (keys.ts).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { Dirent } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { clampRange, meaningfulContentType, ObjectNotFoundError } from './common';
import { assertSafeKey, assertSafePrefix, RESERVED_SUFFIXES } from './keys';
import type { ObjectInfo, ObjectStore } from './types';

const META = '.wbmeta';
const TMP = '.wbtmp';

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}
/** "not there" as the filesystem says it: missing, or a folder where a file was asked for */
function isMissing(err: unknown): boolean {
  const code = errCode(err);
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}
function isReserved(name: string): boolean {
  return RESERVED_SUFFIXES.some((s) => name.endsWith(s));
}

export class FsObjectStore implements ObjectStore {
  readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  private pathOf(key: string): string {
    assertSafeKey(key);
    const p = join(this.root, key);
    // keys.ts already refuses "..": this is the belt to its braces
    if (!p.startsWith(this.root + sep)) throw new Error(`object key escapes the store: ${key}`);
    return p;
  }

  private tmpBeside(path: string): string {
    return join(dirname(path), `.${randomBytes(8).toString('hex')}${TMP}`);
  }

  /** Keeps `<file>.wbmeta` in step with the object (written after it: a reader may see the new bytes with the old type for a moment). */
  private async writeMeta(path: string, contentType: string | undefined): Promise<void> {
    if (!contentType) {
      await rm(path + META, { force: true });
      return;
    }
    const tmp = this.tmpBeside(path);
    try {
      await writeFile(tmp, JSON.stringify({ contentType }));
      await rename(tmp, path + META);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  private async readMeta(path: string): Promise<string | undefined> {
    try {
      const meta = JSON.parse(await readFile(path + META, 'utf8')) as { contentType?: unknown };
      return typeof meta.contentType === 'string' ? meta.contentType : undefined;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async put(key: string, bytes: Uint8Array, opts?: { contentType?: string }): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = this.tmpBeside(path);
    try {
      await writeFile(tmp, bytes);
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    await this.writeMeta(path, meaningfulContentType(opts?.contentType));
  }

  async putStream(key: string, body: Readable, opts?: { contentType?: string }): Promise<ObjectInfo> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = this.tmpBeside(path);
    let size = 0;
    try {
      await pipeline(
        body,
        async function* count(source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            size += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(tmp, { flags: 'wx' }),
      );
      await rename(tmp, path);
    } catch (err) {
      // the object appears only when the stream ended cleanly
      await rm(tmp, { force: true });
      throw err;
    }
    const contentType = meaningfulContentType(opts?.contentType);
    await this.writeMeta(path, contentType);
    return contentType ? { size, contentType } : { size };
  }

  async get(key: string): Promise<Uint8Array | null> {
    const path = this.pathOf(key);
    try {
      const b = await readFile(path);
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async getStream(
    key: string,
    range?: { start: number; end: number },
  ): Promise<(ObjectInfo & { stream: Readable }) | null> {
    const path = this.pathOf(key);
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    try {
      const st = await handle.stat();
      if (!st.isFile()) {
        await handle.close();
        return null;
      }
      const contentType = await this.readMeta(path);
      const span = range ? clampRange(range, st.size) : undefined;
      // the stream owns the handle from here and closes it when it ends or is destroyed
      const stream = handle.createReadStream(span ? { start: span.start, end: span.end } : {});
      return contentType ? { size: st.size, contentType, stream } : { size: st.size, stream };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    const path = this.pathOf(key);
    try {
      const st = await stat(path);
      if (!st.isFile()) return null;
      const contentType = await this.readMeta(path);
      return contentType ? { size: st.size, contentType } : { size: st.size };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async move(from: string, to: string): Promise<void> {
    const src = this.pathOf(from);
    const dst = this.pathOf(to);
    const st = await stat(src).catch((err: unknown) => {
      if (isMissing(err)) return null;
      throw err;
    });
    if (!st?.isFile()) throw new ObjectNotFoundError(from);
    if (src === dst) return;
    const contentType = await this.readMeta(src);
    await mkdir(dirname(dst), { recursive: true });
    try {
      await rename(src, dst);
    } catch (err) {
      if (errCode(err) === 'ENOENT') throw new ObjectNotFoundError(from);
      throw err;
    }
    await this.writeMeta(dst, contentType);
    await rm(src + META, { force: true });
  }

  private async unlinkObject(path: string): Promise<void> {
    for (const p of [path, path + META]) {
      try {
        await unlink(p);
      } catch (err) {
        if (!isMissing(err) && errCode(err) !== 'EPERM') throw err;
      }
    }
  }

  async delete(keys: string[]): Promise<void> {
    const paths = keys.map((k) => this.pathOf(k)); // every key checked before anything is deleted
    // a bounded number at a time: a document's pages can be hundreds of files
    for (let i = 0; i < paths.length; i += 64) {
      await Promise.all(paths.slice(i, i + 64).map((p) => this.unlinkObject(p)));
    }
  }

  /** entries of a folder of the store, [] when it is not there */
  private async entries(dir: string): Promise<Dirent[]> {
    try {
      return await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return [];
      throw err;
    }
  }

  async *list(prefix: string): AsyncIterable<string> {
    assertSafePrefix(prefix);
    // "docs/abc-" → look in the folder "docs/" at names starting with "abc-"; below a matching
    // folder every file matches
    const cut = prefix.lastIndexOf('/') + 1;
    const folder = prefix.slice(0, cut);
    const start = prefix.slice(cut);
    const pending: string[] = []; // key prefixes of folders (ending in "/") whose whole content matches
    for (const e of await this.entries(join(this.root, folder))) {
      if (!e.name.startsWith(start) || isReserved(e.name)) continue;
      if (e.isDirectory()) pending.push(`${folder}${e.name}/`);
      else if (e.isFile()) yield `${folder}${e.name}`;
    }
    while (pending.length > 0) {
      const dirKey = pending.pop()!;
      for (const e of await this.entries(join(this.root, dirKey))) {
        if (isReserved(e.name)) continue;
        if (e.isDirectory()) pending.push(`${dirKey}${e.name}/`);
        else if (e.isFile()) yield `${dirKey}${e.name}`;
      }
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertSafePrefix(prefix);
    if (prefix.endsWith('/')) {
      // a whole folder: one recursive delete, which also takes temp files a crash left there
      await rm(join(this.root, prefix), { recursive: true, force: true }).catch((err: unknown) => {
        if (!isMissing(err)) throw err; // "x/" where x is an object: no folder, nothing under it
      });
      return;
    }
    const cut = prefix.lastIndexOf('/') + 1;
    const folder = prefix.slice(0, cut);
    const start = prefix.slice(cut);
    for (const e of await this.entries(join(this.root, folder))) {
      if (!e.name.startsWith(start) || isReserved(e.name)) continue;
      const path = join(this.root, folder, e.name);
      if (e.isDirectory()) await rm(path, { recursive: true, force: true });
      else await this.unlinkObject(path);
    }
  }
}
