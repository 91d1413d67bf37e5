/**
 * Snapshots in an S3-compatible bucket (MinIO in docker-compose, any S3 in production) through
 * the `minio` client; the same contract as the filesystem driver (snapshots.test.ts runs both).
 * Object names are the snapshot keys ("<board id, / as ~>/<seq>-<token>.am"), so a board's
 * objects share one prefix and a purge can list them (orphans of a crash included).
 */
import { Client } from 'minio';
import type { Readable } from 'node:stream';
import { assertSafeKey, boardKeyPrefix } from './snapshots';
import type { SnapshotStore } from './snapshots';

export interface S3SnapshotOptions {
  /** http(s)://host[:port] of the S3 API */
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  region: string;
  /** path-style URLs (MinIO, s3rver); virtual-host style when false */
  pathStyle?: boolean;
}

export class S3SnapshotStore implements SnapshotStore {
  private readonly client: Client;
  private readonly bucket: string;
  private readonly region: string;
  private bucketReady: Promise<void> | null = null;

  constructor(opts: S3SnapshotOptions) {
    const url = new URL(opts.endpoint);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`S3 endpoint must be http(s)://host[:port], got ${opts.endpoint}`);
    }
    const useSSL = url.protocol === 'https:';
    this.client = new Client({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: opts.accessKey,
      secretKey: opts.secretKey,
      region: opts.region,
      pathStyle: opts.pathStyle ?? true,
    });
    this.bucket = opts.bucket;
    this.region = opts.region;
  }

  /** Create the bucket when it is missing (once; retried after a failure). Start-up calls it to fail fast. */
  ensureBucket(): Promise<void> {
    this.bucketReady ??= (async () => {
      if (await this.client.bucketExists(this.bucket)) return;
      try {
        await this.client.makeBucket(this.bucket, this.region);
      } catch (err) {
        // another node created it in between
        const code = (err as { code?: string }).code;
        if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw err;
      }
    })().catch((err: unknown) => {
      this.bucketReady = null;
      throw err;
    });
    return this.bucketReady;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    assertSafeKey(key);
    await this.ensureBucket();
    // a PUT replaces the object atomically: readers see the old or the new bytes, never a mix
    await this.client.putObject(
      this.bucket,
      key,
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      bytes.length,
      {
        'Content-Type': 'application/octet-stream',
      },
    );
  }

  async get(key: string): Promise<Uint8Array | null> {
    assertSafeKey(key);
    await this.ensureBucket();
    let stream: Readable;
    try {
      stream = await this.client.getObject(this.bucket, key);
    } catch (err) {
      if ((err as { code?: string }).code === 'NoSuchKey') return null;
      throw err;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const b = Buffer.concat(chunks);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }

  async delete(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    for (const k of keys) assertSafeKey(k);
    await this.ensureBucket();
    // one DELETE per object, in turn: a board has one or two snapshots to drop, and not every
    // S3-compatible server implements multi-object delete (s3rver's races on shared folders)
    for (const k of keys) await this.client.removeObject(this.bucket, k);
  }

  async deleteBoard(boardId: string): Promise<void> {
    await this.ensureBucket();
    const keys: string[] = [];
    for await (const item of this.client.listObjectsV2(this.bucket, boardKeyPrefix(boardId), true)) {
      const name = (item as { name?: string }).name;
      if (name) keys.push(name);
    }
    await this.delete(keys);
  }
}
