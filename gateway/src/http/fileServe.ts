/**
 * Files out of object storage:
 * - derived images `/docs/<sha256>-<pageIndex>-(full|thumb).webp` and `/images/<sha256>-(full|thumb|avatar).webp`
 *   (avatar: the square profile picture, proto's displayImageUrl):
 *   no session (content-addressed capability URLs: whoever holds the URL may see the image, and
 *   it never changes), so they are cached for a year as immutable, ETag = the storage key. Only
 *   names matching exactly reach the store; any other `/docs/…` or `/images/…` path is a 404 at
 *   once (the web app's files pages are `/images`, `/documents`, `/files` and `/files/<id>`).
 * - `GET /api/docs/{docId}/original`: the caller's own file (the files service decides), always
 *   as an attachment, sandboxed and never sniffed, so an uploaded HTML or SVG cannot run on our origin.
 */
import { pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import { AppError, docIdSchema, docOriginalReplySchema } from '@wb/proto';
import type { Logger, ObjectStore } from '@wb/platform';
import type { GatewayConfig } from '../config';
import { actorOf } from './actor';
import { getState } from './state';
import type { GatewayBus } from './state';

/** pageIndex as docPageKey writes it: a decimal number without leading zeros (≤ MAX_DOCUMENT_PAGES) */
export const DOC_IMAGE_RE = /^\/docs\/[0-9a-f]{64}-(?:0|[1-9][0-9]{0,2})-(?:full|thumb)\.webp$/;
export const IMAGE_RE = /^\/images\/[0-9a-f]{64}-(?:full|thumb|avatar)\.webp$/;

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** objects up to this size are read whole and kept in the memory cache (thumbnails are ~10–40 KB) */
const CACHEABLE_BYTES = 256 * 1024;

/**
 * The most recently served small images, by key. Safe without invalidation: a key names its
 * content for ever. Saves the store's open/stat/read round trips on the hot path (a board's
 * thumbnails are asked by every participant at once).
 */
export class ImageCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}
  get(key: string): Buffer | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // most recent last: Map keeps insertion order
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }
  set(key: string, value: Buffer): void {
    if (value.length > this.maxBytes || this.entries.has(key)) return;
    this.entries.set(key, value);
    this.bytes += value.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.length;
    }
  }
  get size(): number {
    return this.bytes;
  }
}

function notFound(res: Response): void {
  const body = new AppError('ERR_NOT_FOUND').toBody();
  res.statusCode = 404;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  // a missing image may appear later (conversion still running): do not let caches keep the 404
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify(body));
}

/** whether If-None-Match names `etag` (or is `*`) */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

function send(res: Response, stream: Readable, log: Logger, key: string): void {
  pipeline(stream, res, (err) => {
    // a client that goes away is normal; a store failure mid-stream cannot change the status any more
    if (err && err.name !== 'AbortError' && (err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE')
      log.warn({ err, key }, 'object stream failed');
  });
}

/** GET/HEAD of the derived images (mounted before sessions: no cookie, no Redis). */
export function imageServing(store: ObjectStore, log: Logger, cacheBytes = 32 * 1024 * 1024): RequestHandler {
  const cache = new ImageCache(cacheBytes);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = req.path;
    const isDoc = path.startsWith('/docs/');
    if (!isDoc && !path.startsWith('/images/')) return next();
    const st = getState(req);
    // (the web app's images page is `/images` exactly: nothing below it is a page)
    if (isDoc ? !DOC_IMAGE_RE.test(path) : !IMAGE_RE.test(path)) {
      st.routeLabel = isDoc ? '/docs/{image}' : '/images/{image}';
      return notFound(res);
    }
    st.routeLabel = isDoc ? '/docs/{image}' : '/images/{image}';
    const key = path.slice(1);
    const etag = `"${key}"`;
    const headers = (): void => {
      res.setHeader('Content-Type', 'image/webp');
      res.setHeader('Cache-Control', IMMUTABLE);
      res.setHeader('ETag', etag);
      res.setHeader('X-Content-Type-Options', 'nosniff');
    };
    const cached = cache.get(key);
    if (cached) {
      headers();
      if (matches(req.headers['if-none-match'], etag)) {
        res.statusCode = 304;
        res.end();
        return;
      }
      res.setHeader('Content-Length', String(cached.length));
      res.statusCode = 200;
      res.end(req.method === 'HEAD' ? undefined : cached);
      return;
    }
    const serve = async (): Promise<void> => {
      if (matches(req.headers['if-none-match'], etag)) {
        // content-addressed: the key existing once means these bytes, for ever
        if (await store.stat(key)) {
          headers();
          res.statusCode = 304;
          res.end();
          return;
        }
        return notFound(res);
      }
      if (req.method === 'HEAD') {
        const info = await store.stat(key);
        if (!info) return notFound(res);
        headers();
        res.setHeader('Content-Length', String(info.size));
        res.statusCode = 200;
        res.end();
        return;
      }
      const info = await store.stat(key);
      if (!info) return notFound(res);
      if (info.size <= CACHEABLE_BYTES && cacheBytes > 0) {
        const bytes = await store.get(key);
        if (!bytes) return notFound(res);
        const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        cache.set(key, buf);
        headers();
        res.setHeader('Content-Length', String(buf.length));
        res.statusCode = 200;
        res.end(buf);
        return;
      }
      const obj = await store.getStream(key);
      if (!obj) return notFound(res);
      headers();
      res.setHeader('Content-Length', String(obj.size));
      res.statusCode = 200;
      send(res, obj.stream, log, key);
    };
    serve().catch(next);
  };
}

/** `attachment` with an ASCII fallback and the exact name in RFC 5987 `filename*` */
export function contentDisposition(filename: string): string {
  const ascii =
    filename
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .replace(/[^\x20-\x7e]/g, '_')
      .replace(/["\\/;%]/g, '_')
      .trim() || 'file';
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** a single `bytes=a-b` / `bytes=a-` / `bytes=-n` range within `size`; null = whole; 'bad' = unsatisfiable */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'bad' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // several ranges or junk: the whole file
  if (size === 0) return 'bad';
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'bad';
  return { start, end };
}

export interface OriginalDeps {
  config: GatewayConfig;
  bus: GatewayBus;
  store: ObjectStore;
  log: Logger;
}

/** GET /api/docs/:docId/original (mounted after sessions) */
export function originalDownload(deps: OriginalDeps): RequestHandler {
  const trustProxy = deps.config.trustProxy !== false;
  return async (req: Request, res: Response) => {
    const st = getState(req);
    st.routeLabel = '/api/docs/:docId/original';
    if (st.sessionError) throw st.sessionError;
    if (!st.session) throw new AppError('ERR_UNAUTHORIZED');
    const docId = docIdSchema.safeParse(req.params.docId);
    if (!docId.success)
      throw new AppError('ERR_INVALID_INPUT', 'Invalid input: docId (must be a SHA-256 content hash)', {
        docId: 'must be a SHA-256 content hash (64 lowercase hex digits)',
      });
    const reply = await deps.bus.request('files', 'doc.original', { docId: docId.data }, actorOf(req, st, trustProxy), {
      parent: st.traceContext,
    });
    const original = docOriginalReplySchema.safeParse(reply.data);
    if (!original.success) throw new Error('doc.original reply malformed');
    const { key, filename, contentType } = original.data;
    const info = await deps.store.stat(key);
    if (!info) throw new AppError('ERR_NOT_FOUND');
    const range = parseRange(req.headers.range, info.size);
    res.setHeader('Accept-Ranges', 'bytes');
    if (range === 'bad') {
      res.setHeader('Content-Range', `bytes */${info.size}`);
      res.statusCode = 416;
      res.end();
      return;
    }
    const obj = await deps.store.getStream(key, range ?? undefined);
    if (!obj) throw new AppError('ERR_NOT_FOUND');
    // the type the service sniffed, but never rendered here: attachment + sandbox + nosniff
    res.setHeader('Content-Type', /^[\w.+-]+\/[\w.+-]+$/.test(contentType) ? contentType : 'application/octet-stream');
    res.setHeader('Content-Disposition', contentDisposition(filename));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', 'sandbox');
    res.setHeader('Cache-Control', 'private, no-store');
    if (range) {
      res.statusCode = 206;
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
      res.setHeader('Content-Length', String(range.end - range.start + 1));
    } else {
      res.statusCode = 200;
      res.setHeader('Content-Length', String(info.size));
    }
    send(res, obj.stream, deps.log, key);
  };
}
