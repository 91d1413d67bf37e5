/**
 * Object storage behind one interface (architecture brief: S3 through the `minio` client when
 * configured, a filesystem folder otherwise; both run one contract test suite). Used for board
 * snapshots (realtime), uploaded files and their derived images (gateway, files, conversion worker).
 *
 * Keys are relative, "/"-separated, without empty, "." or ".." segments: no key escapes its store.
 */
import type { Readable } from 'node:stream';

export interface ObjectInfo {
  size: number;
  contentType?: string;
}

export interface ObjectStore {
  /** write (or replace) an object; a reader never sees a half-written one */
  put(key: string, bytes: Uint8Array, opts?: { contentType?: string }): Promise<void>;
  /**
   * stream an object in without holding it in memory; the object appears only when the stream
   * ends cleanly (a failed or destroyed stream leaves nothing under `key`)
   */
  putStream(key: string, body: Readable, opts?: { contentType?: string }): Promise<ObjectInfo>;
  /** the whole object, or null when missing (for small objects only) */
  get(key: string): Promise<Uint8Array | null>;
  /** a stream of the object (or of bytes start..end inclusive), or null when missing */
  getStream(key: string, range?: { start: number; end: number }): Promise<(ObjectInfo & { stream: Readable }) | null>;
  /** size and content type, or null when missing */
  stat(key: string): Promise<ObjectInfo | null>;
  /** rename `from` to `to` (replacing `to`); throws when `from` is missing */
  move(from: string, to: string): Promise<void>;
  /** missing keys are ignored */
  delete(keys: string[]): Promise<void>;
  /** every key starting with `prefix` (no order promised) */
  list(prefix: string): AsyncIterable<string>;
  /** delete every object whose key starts with `prefix` */
  deletePrefix(prefix: string): Promise<void>;
}

export type ObjectStoreOptions =
  | { driver: 'fs'; dir: string }
  | {
      driver: 's3';
      /** http(s)://host[:port] of the S3 API */
      endpoint: string;
      bucket: string;
      accessKey: string;
      secretKey: string;
      region: string;
      /** path-style URLs (MinIO, s3rver); virtual-host style when false */
      pathStyle?: boolean;
    };
