/**
 * The S3 driver, through the `minio` client: MinIO in docker-compose and k8s, any S3-compatible
 * service in production (s3rver in the tests). Object names are the keys as they are.
 *
 * Streams are uploaded in parts of `partSize` bytes (multipart upload), at most one part in flight
 * while the next one fills, so memory stays near two parts whatever the object's size; the
 * object appears only when the upload is completed, and a failed stream aborts the upload.
 * (minio's own putObject with an unknown size buffers parts of ~560 MB and never sees an error
 * of the source stream, so it is not used for streams.)
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { clampRange, meaningfulContentType, ObjectNotFoundError } from './common';
import { assertSafeKey, assertSafePrefix } from './keys';
import type { ObjectInfo, ObjectStore, ObjectStoreOptions } from './types';

export type S3ObjectStoreOptions = Omit<Extract<ObjectStoreOptions, { driver: 's3' }>, 'driver'> & {
  /** bytes per uploaded part of a stream (S3: ≥ 5 MiB; at most 10 000 parts); default 8 MiB */
  partSize?: number;
};

const MIN_PART = 5 * 1024 * 1024;

function s3Code(err: unknown): string | undefined {
  return (err as { code?: string } | undefined)?.code;
}
function isNotFound(err: unknown): boolean {
  const code = s3Code(err);
  return code === 'NoSuchKey' || code === 'NotFound';
}

function contentTypeHeaders(contentType: string | undefined): Record<string, string> {
  const type = meaningfulContentType(contentType);
  return type ? { 'Content-Type': type } : {};
}

export class S3ObjectStore implements ObjectStore {
  readonly bucket: string;
  readonly endpoint: string;
  private readonly client: Client;
  private readonly region: string;
  private readonly partSize: number;
  private bucketReady: Promise<void> | null = null;

  constructor(opts: S3ObjectStoreOptions) {
    let url: URL;
    try {
      url = new URL(opts.endpoint);
    } catch {
      throw new Error(`S3 endpoint must be http(s)://host[:port], got ${opts.endpoint}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`S3 endpoint must be http(s)://host[:port], got ${opts.endpoint}`);
    }
    this.partSize = opts.partSize ?? 8 * 1024 * 1024;
    if (this.partSize < MIN_PART) throw new Error(`S3 part size must be at least ${MIN_PART} bytes`);
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
    this.endpoint = opts.endpoint;
  }

  /** Create the bucket when it is missing (once; retried after a failure). Opening the store calls it to fail fast. */
  ensureBucket(): Promise<void> {
    this.bucketReady ??= (async () => {
      if (await this.client.bucketExists(this.bucket)) return;
      try {
        await this.client.makeBucket(this.bucket, this.region);
      } catch (err) {
        // another node created it in between
        const code = s3Code(err);
        if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw err;
      }
    })().catch((err: unknown) => {
      this.bucketReady = null;
      throw err;
    });
    return this.bucketReady;
  }

  async put(key: string, bytes: Uint8Array, opts?: { contentType?: string }): Promise<void> {
    assertSafeKey(key);
    await this.ensureBucket();
    // a PUT replaces the object atomically: readers see the old or the new bytes, never a mix
    const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    await this.client.putObject(this.bucket, key, b, b.length, contentTypeHeaders(opts?.contentType));
  }

  async putStream(key: string, body: Readable, opts?: { contentType?: string }): Promise<ObjectInfo> {
    assertSafeKey(key);
    const headers = contentTypeHeaders(opts?.contentType);
    let uploadId: string | undefined;
    try {
      await this.ensureBucket();
      const parts: { part: number; etag: string }[] = [];
      const pending: Buffer[] = [];
      let pendingBytes = 0;
      let size = 0;
      let inFlight: Promise<void> = Promise.resolve();
      // two part buffers, reused: one filling while the other is on the wire (no 8 MiB of
      // garbage per part for the GC to catch up with)
      const pool: Buffer[] = [];
      const sendPart = async (bytes: number): Promise<void> => {
        await inFlight; // one part on the wire at a time: the buffer it used is free again
        const buf = pool.length < 2 ? Buffer.allocUnsafe(this.partSize) : pool[parts.length % 2]!;
        if (pool.length < 2) pool.push(buf);
        let filled = 0;
        while (filled < bytes) {
          const c = pending[0]!;
          const take = Math.min(c.length, bytes - filled);
          c.copy(buf, filled, 0, take);
          filled += take;
          if (take === c.length) pending.shift();
          else pending[0] = c.subarray(take);
        }
        pendingBytes -= bytes;
        const chunk = buf.subarray(0, bytes);
        uploadId ??= await this.client.initiateNewMultipartUpload(this.bucket, key, headers);
        const part = parts.length + 1;
        parts.push({ part, etag: '' });
        const sent = this.client
          .uploadPart(
            {
              bucketName: this.bucket,
              objectName: key,
              uploadID: uploadId,
              partNumber: part,
              // integrity over https too, where the payload is not signed
              headers: { 'Content-MD5': createHash('md5').update(chunk).digest('base64') },
            },
            chunk,
          )
          .then((res) => {
            parts[part - 1]!.etag = res.etag;
          });
        sent.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
        inFlight = sent;
      };
      for await (const c of body) {
        const chunk = Buffer.isBuffer(c) ? c : Buffer.from(c as Uint8Array);
        pending.push(chunk);
        pendingBytes += chunk.length;
        size += chunk.length;
        while (pendingBytes >= this.partSize) await sendPart(this.partSize);
      }
      if (uploadId === undefined && parts.length === 0) {
        // smaller than one part: one plain PUT
        const whole = Buffer.concat(pending, pendingBytes);
        await this.client.putObject(this.bucket, key, whole, whole.length, headers);
      } else {
        if (pendingBytes > 0) await sendPart(pendingBytes); // the last part may be short
        await inFlight;
        await this.client.completeMultipartUpload(this.bucket, key, uploadId!, parts);
      }
      const contentType = meaningfulContentType(opts?.contentType);
      return contentType ? { size, contentType } : { size };
    } catch (err) {
      body.destroy();
      if (uploadId !== undefined) {
        // drop the parts already stored; the object itself never appeared
        await this.client.abortMultipartUpload(this.bucket, key, uploadId).catch(() => undefined);
      }
      throw err;
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    assertSafeKey(key);
    await this.ensureBucket();
    let stream: Readable;
    try {
      stream = await this.client.getObject(this.bucket, key);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const b = Buffer.concat(chunks);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }

  async getStream(
    key: string,
    range?: { start: number; end: number },
  ): Promise<(ObjectInfo & { stream: Readable }) | null> {
    // the size comes from a HEAD first: callers need it (Content-Length/Content-Range) and the
    // range is checked against it here rather than as an S3 error
    const info = await this.stat(key);
    if (!info) return null;
    let stream: Readable;
    try {
      if (range) {
        const { start, end } = clampRange(range, info.size);
        stream = await this.client.getPartialObject(this.bucket, key, start, end - start + 1);
      } else {
        stream = await this.client.getObject(this.bucket, key);
      }
    } catch (err) {
      if (isNotFound(err)) return null; // deleted between the HEAD and the GET
      throw err;
    }
    return { ...info, stream };
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    assertSafeKey(key);
    await this.ensureBucket();
    try {
      const st = await this.client.statObject(this.bucket, key);
      const contentType = meaningfulContentType(
        (st.metaData as Record<string, string | undefined>)['content-type'] ?? undefined,
      );
      return contentType ? { size: st.size, contentType } : { size: st.size };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async move(from: string, to: string): Promise<void> {
    assertSafeKey(from);
    assertSafeKey(to);
    await this.ensureBucket();
    if (from === to) {
      if (!(await this.stat(from))) throw new ObjectNotFoundError(from);
      return;
    }
    // S3 has no rename: a server-side copy (metadata included; ≤ 5 GB in one request) then a delete
    try {
      await this.client.copyObject(this.bucket, to, `/${this.bucket}/${from}`);
    } catch (err) {
      if (isNotFound(err)) throw new ObjectNotFoundError(from);
      throw err;
    }
    await this.client.removeObject(this.bucket, from);
  }

  async delete(keys: string[]): Promise<void> {
    for (const k of keys) assertSafeKey(k);
    if (keys.length === 0) return;
    await this.ensureBucket();
    // one DELETE per object, in turn: not every S3-compatible server implements multi-object
    // delete (s3rver's races on shared folders); S3 answers 204 for missing keys
    for (const k of keys) await this.client.removeObject(this.bucket, k);
  }

  async *list(prefix: string): AsyncIterable<string> {
    assertSafePrefix(prefix);
    await this.ensureBucket();
    for await (const item of this.client.listObjectsV2(this.bucket, prefix, true)) {
      const name = (item as { name?: string }).name;
      if (name) yield name;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertSafePrefix(prefix);
    // listed in full first: deleting while the listing pages on could skip keys
    const keys: string[] = [];
    for await (const k of this.list(prefix)) keys.push(k);
    await this.delete(keys);
  }
}
