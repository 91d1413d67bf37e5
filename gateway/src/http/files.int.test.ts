/**
 * Uploads, downloads and image serving (http/upload.ts, http/fileServe.ts, routes/files.ts)
 * through the real app over a fake files service and a real filesystem object store.
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { promisify } from 'node:util';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import {
  AppError,
  findInputProblem,
  displayImageKey,
  displayImageUrl,
  docPageKey,
  imageKey,
  originalKey,
} from '@wb/proto';
import { FsObjectStore } from '@wb/platform';
import { buildOpenApi } from '../openapi';
import { serviceRoutes } from '../routes';
import { fileStreamRoutes } from '../routes/files';
import { cookieHeader, setCookies, startHarness } from '../testing/harness';
import type { Harness } from '../testing/harness';
import { contentDisposition, ImageCache, parseRange } from './fileServe';
import { uploadName } from './upload';

const execFileAsync = promisify(execFile);
const DOC = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const BOARD = 'Board1234567890abcdefg';

let h: Harness;
let dir: string;
let store: FsObjectStore;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wb-gw-files-'));
  store = new FsObjectStore(dir);
  h = await startHarness({ routes: serviceRoutes, deps: { store } });
  server = h.app.listen(0);
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

let maxBytes = 100 * 1024 * 1024;
beforeEach(() => {
  maxBytes = 100 * 1024 * 1024;
  h.bus.calls.length = 0;
  h.bus.on('files', 'upload.check', (input) => {
    const { size } = input as { size: number };
    if (size > maxBytes)
      throw new AppError('ERR_MAX_STORAGE_REACHED', 'You have reached the storage limit of your plan: 1 KB left');
    return { maxBytes };
  });
  // like the service: the staged object is the service's from here (moved to originals/)
  h.bus.on('files', 'upload.register', async (input) => {
    const i = input as { stagingKey: string; sha256: string; size: number; name: string };
    await store.move(i.stagingKey, originalKey(i.sha256));
    return doc(i.sha256, i.name, i.size);
  });
  h.bus.on('files', 'displayImage.register', async (input) => {
    const i = input as { stagingKey: string; sha256: string };
    await store.delete([i.stagingKey]);
    return { id: i.sha256, url: displayImageUrl(i.sha256) };
  });
});

function doc(id: string, name: string, size: number) {
  return {
    id,
    name,
    isImage: 0,
    created: new Date(0).toISOString(),
    size,
    pages: 0,
    format: 'pdf',
    status: 'processing',
    pagesDone: 0,
    error: null,
  };
}

/** a logged-in browser: its cookie header and CSRF token */
async function login(userId = 7): Promise<{ cookie: string; csrf: string }> {
  const { token } = await h.createSession(userId);
  const page = await request(h.app)
    .get('/api/docs/' + 'x')
    .set('Cookie', `sid=${token}`);
  const csrf = setCookies(page.headers)['csrf-token']!.value;
  return { cookie: cookieHeader({ sid: token, 'csrf-token': csrf }), csrf };
}

async function stagingKeys(): Promise<string[]> {
  const out: string[] = [];
  for await (const k of store.list('staging/')) out.push(k);
  return out;
}

async function waitNoStaging(ms = 3000): Promise<string[]> {
  const end = Date.now() + ms;
  let keys = await stagingKeys();
  while (keys.length && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    keys = await stagingKeys();
  }
  return keys;
}

describe('POST /docs', () => {
  it('refuses a guest before reading the body', async () => {
    const visit = await request(h.app).get('/api/docs/x');
    const c = setCookies(visit.headers);
    const res = await request(h.app)
      .post('/docs')
      .set('Cookie', cookieHeader({ anon: c.anon!.value, 'csrf-token': c['csrf-token']!.value }))
      .set('x-csrf-token', c['csrf-token']!.value)
      .attach('file', Buffer.from('%PDF-1.4 hello'), 'a.pdf');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: expect.any(String), code: 'ERR_UPLOAD_GUEST', statusCode: 403 });
    expect(h.bus.callsOf('files', 'upload.check')).toHaveLength(0);
    expect(await stagingKeys()).toEqual([]);
  });

  it('needs the CSRF header', async () => {
    const { cookie } = await login();
    const res = await request(h.app).post('/docs').set('Cookie', cookie).attach('file', Buffer.from('x'), 'a.pdf');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ERR_CSRF');
    expect(h.bus.callsOf('files', 'upload.check')).toHaveLength(0);
  });

  it('takes multipart/form-data only (415)', async () => {
    const { cookie, csrf } = await login();
    const res = await request(h.app)
      .post('/docs')
      .set('Cookie', cookie)
      .set('x-csrf-token', csrf)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('%PDF-1.4'));
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      message: 'Uploads must be sent as multipart/form-data',
      code: 'ERR_UNSUPPORTED_MEDIA_TYPE',
      statusCode: 415,
    });
  });

  it('answers the check’s error without reading the body, and stores nothing', async () => {
    const { cookie, csrf } = await login();
    maxBytes = 1024;
    const res = await request(h.app)
      .post('/docs?boardId=' + BOARD)
      .set('Cookie', cookie)
      .set('x-csrf-token', csrf)
      .attach('file', randomBytes(64 * 1024), 'big.pdf');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      message: 'You have reached the storage limit of your plan: 1 KB left',
      code: 'ERR_MAX_STORAGE_REACHED',
      statusCode: 403,
    });
    const [check] = h.bus.callsOf('files', 'upload.check');
    expect(check!.input).toEqual({ purpose: 'doc', size: expect.any(Number), boardId: BOARD });
    expect((check!.input as { size: number }).size).toBeGreaterThan(64 * 1024);
    expect(h.bus.callsOf('files', 'upload.register')).toHaveLength(0);
    expect(await stagingKeys()).toEqual([]);
  });

  it('refuses a bad boardId before asking anyone', async () => {
    const { cookie, csrf } = await login();
    const res = await request(h.app)
      .post('/docs?boardId=' + encodeURIComponent('../x'))
      .set('Cookie', cookie)
      .set('x-csrf-token', csrf)
      .attach('file', Buffer.from('x'), 'a.pdf');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ERR_INVALID_INPUT');
    expect(h.bus.calls.filter((c) => c.service === 'files')).toHaveLength(0);
  });

  it('refuses two files, and a file under another name, leaving nothing staged', async () => {
    const { cookie, csrf } = await login();
    const two = await request(h.app)
      .post('/docs')
      .set('Cookie', cookie)
      .set('x-csrf-token', csrf)
      .attach('file', Buffer.from('one'), 'a.pdf')
      .attach('file', Buffer.from('two'), 'b.pdf');
    expect(two.status).toBe(400);
    expect(two.body).toMatchObject({ code: 'ERR_INVALID_INPUT', message: 'Send exactly one file per upload' });
    const other = await request(h.app)
      .post('/docs')
      .set('Cookie', cookie)
      .set('x-csrf-token', csrf)
      .attach('upload', Buffer.from('one'), 'a.pdf');
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('ERR_INVALID_INPUT');
    const none = await request(h.app)
      .post('/docs')
      .set('Cookie', cookie)
      .set('x-csrf-token', csrf)
      .field('name', 'only a field');
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/no file/);
    expect(h.bus.callsOf('files', 'upload.register')).toHaveLength(0);
    expect(await waitNoStaging()).toEqual([]);
  });

  it('aborts past maxBytes with the service’s answer for the real size, leaving nothing staged', async () => {
    const { cookie, csrf } = await login();
    maxBytes = 256 * 1024;
    // chunked: no Content-Length, so the check cannot refuse it up front
    const res = await rawUpload(cookie, csrf, randomBytes(2 * 1024 * 1024), { chunked: true });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'ERR_MAX_STORAGE_REACHED', statusCode: 403 });
    const checks = h.bus.callsOf('files', 'upload.check').map((c) => (c.input as { size: number }).size);
    expect(checks[0]).toBe(0);
    expect(checks[1]).toBeGreaterThan(maxBytes);
    expect(h.bus.callsOf('files', 'upload.register')).toHaveLength(0);
    expect(await waitNoStaging()).toEqual([]);
  });

  it('answers ERR_FILE_TOO_LARGE when the service allows the size at a second look', async () => {
    const { cookie, csrf } = await login();
    maxBytes = 256 * 1024;
    let n = 0;
    h.bus.on('files', 'upload.check', () => (n++ === 0 ? { maxBytes } : { maxBytes: 10 * maxBytes }));
    const res = await rawUpload(cookie, csrf, randomBytes(1024 * 1024), { chunked: true });
    expect(JSON.parse(res.body)).toMatchObject({ code: 'ERR_FILE_TOO_LARGE', statusCode: 413 });
    expect(await waitNoStaging()).toEqual([]);
  });

  it('leaves no staged object when the client disconnects mid-upload', async () => {
    const { cookie, csrf } = await login();
    let staged = false;
    await new Promise<void>((resolve, reject) => {
      const boundary = 'wbBoundary' + randomBytes(8).toString('hex');
      const req = httpRequest(`${base}/docs`, {
        method: 'POST',
        headers: {
          cookie,
          'x-csrf-token': csrf,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(50 * 1024 * 1024),
        },
      });
      req.on('error', () => resolve());
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      );
      const chunk = randomBytes(256 * 1024);
      let sent = 0;
      const pump = async (): Promise<void> => {
        while (sent < 4 * 1024 * 1024) {
          if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
          sent += chunk.length;
        }
        // the gateway is writing it to the store by now
        const end = Date.now() + 3000;
        while (!staged && Date.now() < end) {
          staged = (await stagingKeys()).length > 0 || (await tmpFiles()) > 0;
          if (!staged) await new Promise((r) => setTimeout(r, 20));
        }
        req.destroy();
        resolve();
      };
      pump().catch(reject);
    });
    expect(staged).toBe(true);
    expect(await waitNoStaging()).toEqual([]);
    // the fs store writes to a temporary file first: that one is gone too
    const end = Date.now() + 3000;
    while ((await tmpFiles()) > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(await tmpFiles()).toBe(0);
    expect(h.bus.callsOf('files', 'upload.register')).toHaveLength(0);
  });

  it('registers the right sha256, size and name of a 20 MB upload, streamed to the store', async () => {
    const { cookie, csrf } = await login(42);
    const bytes = randomBytes(20 * 1024 * 1024);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const longName = ' ' + 'é'.repeat(300) + '.pdf ';
    const res = await request(h.app)
      .post('/docs?boardId=' + BOARD)
      .set('Cookie', cookie)
      .set('x-csrf-token', csrf)
      .field('note', 'ignored')
      .attach('file', bytes, longName);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: sha, size: bytes.length });
    const [reg] = h.bus.callsOf('files', 'upload.register');
    expect(reg!.actor.userId).toBe(42);
    expect(reg!.input).toEqual({
      purpose: 'doc',
      stagingKey: expect.stringMatching(/^staging\/[0-9a-f]{32}$/),
      sha256: sha,
      size: bytes.length,
      name: 'é'.repeat(255),
      boardId: BOARD,
    });
    const stored = await store.get(originalKey(sha));
    expect(Buffer.from(stored!).equals(bytes)).toBe(true);
    expect(await stagingKeys()).toEqual([]);
    const metrics = await h.metrics.getSingleMetricAsString('gateway_upload_bytes_total');
    expect(metrics).toMatch(/gateway_upload_bytes_total\{purpose="doc",outcome="ok"\} \d{8}/);
  }, 30_000);

  it('answers a register failure as the catalogue error and deletes the staged object', async () => {
    const { cookie, csrf } = await login();
    h.bus.on('files', 'upload.register', () => {
      throw new AppError('ERR_UNSUPPORTED_FILE');
    });
    const res = await request(h.app)
      .post('/docs')
      .set('Cookie', cookie)
      .set('x-csrf-token', csrf)
      .attach('file', Buffer.from('MZ not a document'), 'x.exe');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ message: 'Unsupported file', code: 'ERR_UNSUPPORTED_FILE', statusCode: 415 });
    expect(await waitNoStaging()).toEqual([]);
  });
});

describe('refused uploads get their answer (issue 25 §5)', () => {
  /**
   * 30 multipart POSTs of 4 MB by a guest, one after the other, from Node's http client in its own
   * process (in this process the server and the client share one event loop and the race that
   * lost answers cannot happen). Prints the statuses, or 'lost:<code>' when the connection broke
   * before the answer was read.
   */
  const NODE_CLIENT = `
    const http = require('node:http');
    const bytes = require('node:crypto').randomBytes(4 * 1024 * 1024);
    const head = Buffer.from('--b0\\r\\nContent-Disposition: form-data; name="file"; filename="big.bin"\\r\\n\\r\\n');
    const body = Buffer.concat([head, bytes, Buffer.from('\\r\\n--b0--\\r\\n')]);
    const one = () => new Promise((resolve) => {
      let answered = false;
      const req = http.request(process.argv[1] + '/docs', { method: 'POST', headers: {
        'content-type': 'multipart/form-data; boundary=b0', 'content-length': String(body.length) } });
      req.on('response', (res) => { answered = true; res.resume(); resolve(res.statusCode); });
      req.on('error', (err) => { if (!answered) resolve('lost:' + err.code); });
      req.end(body);
    });
    (async () => { const out = []; for (let i = 0; i < 30; i++) out.push(await one()); console.log(JSON.stringify(out)); })();
  `;

  it('30 refused 4 MB guest uploads from Node clients all read their 4xx', async () => {
    const { stdout } = await execFileAsync(process.execPath, ['-e', NODE_CLIENT, base], { timeout: 50_000 });
    const results = JSON.parse(stdout) as (number | string)[];
    expect(results.filter((r) => typeof r === 'string')).toEqual([]);
    expect(results).toEqual(Array(30).fill(403));
  }, 60_000);

  it('a client that keeps sending past the drain budget is cut off (the server does not read a refused body for ever)', async () => {
    const { cookie, csrf } = await login();
    maxBytes = 1024;
    const boundary = 'wbBoundary' + randomBytes(8).toString('hex');
    const started = Date.now();
    const outcome = await new Promise<{ status?: number; closedAfterMs: number }>((resolve) => {
      let status: number | undefined;
      const req = httpRequest(`${base}/docs`, {
        method: 'POST',
        agent: false,
        headers: {
          cookie,
          'x-csrf-token': csrf,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'transfer-encoding': 'chunked',
        },
      });
      req.on('response', (res) => {
        status = res.statusCode;
        res.resume();
      });
      const chunk = randomBytes(64 * 1024);
      // sends without end: only the server can stop it
      const timer = setInterval(() => req.write(chunk), 5);
      req.on('close', () => {
        clearInterval(timer);
        resolve({ status, closedAfterMs: Date.now() - started });
      });
      req.on('error', () => {});
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\n\r\n`);
    });
    expect(outcome.status).toBe(403);
    expect(outcome.closedAfterMs).toBeLessThan(10_000);
  }, 20_000);
});

describe('POST /display-image', () => {
  it('stages the picture and answers the service’s URL', async () => {
    const { cookie, csrf } = await login();
    const png = Buffer.from('\x89PNG\r\n\x1a\n fake', 'latin1');
    const res = await request(h.app)
      .post('/display-image')
      .set('Cookie', cookie)
      .set('x-csrf-token', csrf)
      .attach('file', png, 'me.png');
    expect(res.status).toBe(200);
    const sha = createHash('sha256').update(png).digest('hex');
    expect(res.body).toEqual({ id: sha, url: displayImageUrl(sha) });
    expect(h.bus.callsOf('files', 'upload.check')[0]!.input).toMatchObject({ purpose: 'displayImage' });
    expect(h.bus.callsOf('files', 'displayImage.register')[0]!.input).toMatchObject({
      purpose: 'displayImage',
      name: 'me.png',
    });
  });
});

describe('derived images', () => {
  const thumb = docPageKey(DOC, 3, 'thumb');
  const full = imageKey(OTHER, 'full');
  beforeAll(async () => {
    await store.put(thumb, Buffer.from('RIFFthumb'));
    await store.put(full, Buffer.from('RIFFfull-image'));
  });

  it('serves them without a session, immutable, with the key as ETag', async () => {
    const res = await request(h.app).get('/' + thumb);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.etag).toBe(`"${thumb}"`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(Buffer.from(res.body as Buffer).toString()).toBe('RIFFthumb');
    const img = await request(h.app).get('/' + full);
    expect(img.status).toBe(200);
    expect(img.headers['content-length']).toBe('14');
    // the profile picture has its own name beside the image's full and thumb
    await store.put(displayImageKey(OTHER), Buffer.from('RIFFavatar'));
    expect((await request(h.app).get(displayImageUrl(OTHER))).status).toBe(200);
  });

  it('answers 304 on If-None-Match and HEAD without a body', async () => {
    const res = await request(h.app)
      .get('/' + full)
      .set('If-None-Match', `"${full}"`);
    expect(res.status).toBe(304);
    expect(res.headers.etag).toBe(`"${full}"`);
    const head = await request(h.app).head('/' + thumb);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('9');
    expect(head.headers['content-type']).toBe('image/webp');
  });

  it('answers 404 (catalogue JSON, not cached) for a missing image', async () => {
    const res = await request(h.app).get('/' + docPageKey(DOC, 4, 'full'));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not found', code: 'ERR_NOT_FOUND', statusCode: 404 });
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await request(h.app).head('/' + imageKey(DOC, 'thumb'))).status).toBe(404);
  });

  it('keeps small images in memory: the second GET does not read the store', async () => {
    const key = docPageKey(DOC, 7, 'full');
    await store.put(key, Buffer.from('RIFFcached'));
    const get = jest.spyOn(store, 'get');
    expect((await request(h.app).get('/' + key)).status).toBe(200);
    expect(get).toHaveBeenCalledTimes(1);
    const again = await request(h.app).get('/' + key);
    expect(Buffer.from(again.body as Buffer).toString()).toBe('RIFFcached');
    expect(again.headers.etag).toBe(`"${key}"`);
    expect(
      (
        await request(h.app)
          .get('/' + key)
          .set('If-None-Match', `"${key}"`)
      ).status,
    ).toBe(304);
    expect(get).toHaveBeenCalledTimes(1);
    get.mockRestore();
  });

  it('bounds the cache by bytes, least recently used first', () => {
    const cache = new ImageCache(10);
    cache.set('a', Buffer.alloc(4));
    cache.set('b', Buffer.alloc(4));
    cache.get('a');
    cache.set('c', Buffer.alloc(4));
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map((v) => v?.length)).toEqual([4, undefined, 4]);
    cache.set('big', Buffer.alloc(11));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.size).toBe(8);
  });

  it('refuses other names without touching the store', async () => {
    const stat = jest.spyOn(store, 'stat');
    const get = jest.spyOn(store, 'getStream');
    for (const path of [
      `/docs/${DOC}-03-thumb.webp`,
      `/docs/${DOC.toUpperCase()}-3-thumb.webp`,
      `/docs/${DOC}-3-big.webp`,
      `/docs/../originals/${DOC}`,
      `/docs/%2e%2e%2foriginals%2f${DOC}`,
      `/images/${DOC}-3-full.webp`,
      `/images/${DOC}-full.png.webp`,
      '/docs/x',
      '/images/',
      '/images/-1',
    ]) {
      const res = await request(h.app).get(path);
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect(stat).not.toHaveBeenCalled();
    expect(get).not.toHaveBeenCalled();
    stat.mockRestore();
    get.mockRestore();
  });

  it('leaves the web app’s /images and /files pages alone', async () => {
    // the app is not built in this harness: its "not built" page answers, not the store
    for (const path of ['/images', '/files', '/files/abc', '/documents']) {
      const res = await request(h.app).get(path).set('Accept', 'text/html');
      expect([path, res.text]).toEqual([path, expect.stringContaining('The web app is not built')]);
    }
  });
});

describe('GET /api/docs/:docId/original', () => {
  beforeAll(async () => {
    await store.put(originalKey(DOC), Buffer.from('<html><script>alert(1)</script></html>'));
  });

  it('streams the caller’s original as a sandboxed attachment', async () => {
    const { cookie } = await login(9);
    h.bus.on('files', 'doc.original', (input) => {
      expect(input).toEqual({ docId: DOC });
      return { key: originalKey(DOC), filename: 'Übung "1".html', contentType: 'text/html', size: 38 };
    });
    const res = await request(h.app)
      .get(`/api/docs/${DOC}/original`)
      .set('Cookie', cookie)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="_bung _1_.html"; filename*=UTF-8''%C3%9Cbung%20%221%22.html`,
    );
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect(res.headers['content-length']).toBe('38');
    expect((res.body as Buffer).toString()).toContain('<script>');
    const part = await request(h.app).get(`/api/docs/${DOC}/original`).set('Cookie', cookie).set('Range', 'bytes=0-5');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 0-5/38');
  });

  it('needs a session, a valid id, and answers the service’s not found', async () => {
    expect((await request(h.app).get(`/api/docs/${DOC}/original`)).body.code).toBe('ERR_UNAUTHORIZED');
    const { cookie } = await login();
    const bad = await request(h.app).get('/api/docs/nothex/original').set('Cookie', cookie);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('ERR_INVALID_INPUT');
    h.bus.on('files', 'doc.original', () => {
      throw new AppError('ERR_NOT_FOUND');
    });
    const missing = await request(h.app).get(`/api/docs/${OTHER}/original`).set('Cookie', cookie);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('ERR_NOT_FOUND');
  });
});

describe('JSON routes', () => {
  it('validates the docId and forwards doc.get (null is a valid answer)', async () => {
    const { cookie, csrf } = await login();
    h.bus.on('files', 'doc.get', () => null);
    const bad = await request(h.app).get('/api/docs/ABC').set('Cookie', cookie);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('ERR_INVALID_INPUT');
    expect(bad.body.fields).toHaveProperty('docId');
    const none = await request(h.app).get(`/api/docs/${DOC}`).set('Cookie', cookie);
    expect(none.status).toBe(200);
    expect(none.body).toBeNull();
    h.bus.on('files', 'doc.add', (input) => doc((input as { docId: string }).docId, 'a.pdf', 1));
    const add = await request(h.app)
      .post('/api/docs/add')
      .set('Cookie', cookie)
      .set('x-csrf-token', csrf)
      .send({ docId: DOC, name: 'a.pdf' });
    expect(add.status).toBe(200);
    const badAdd = await request(h.app)
      .post('/api/docs/add')
      .set('Cookie', cookie)
      .set('x-csrf-token', csrf)
      .send({ docId: 'zz', name: '' });
    expect(badAdd.status).toBe(400);
    expect(Object.keys(badAdd.body.fields).sort()).toEqual(['docId', 'name']);
    const del = await request(h.app)
      .post('/api/docs/delete')
      .set('Cookie', cookie)
      .set('x-csrf-token', csrf)
      .send({ ids: [] });
    expect(del.status).toBe(400);
    expect((await request(h.app).get('/api/docs')).body.code).toBe('ERR_UNAUTHORIZED');
  });
});

describe('OpenAPI', () => {
  it('documents the uploads as multipart and the downloads as binary', async () => {
    const served = (await request(h.app).get('/api/openapi.json')).body;
    const doc = buildOpenApi({ routes: fileStreamRoutes, cookieName: 'sid' }) as typeof served;
    expect(served.paths['/docs'].post).toEqual(doc.paths['/docs'].post);
    const upload = doc.paths['/docs'].post;
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    expect(upload.requestBody.content['multipart/form-data'].schema.properties.file).toMatchObject({
      type: 'string',
      format: 'binary',
    });
    expect(upload.responses['403'].content['application/json']['x-codes']).toEqual(
      expect.arrayContaining(['ERR_UPLOAD_GUEST', 'ERR_CSRF', 'ERR_MAX_STORAGE_REACHED']),
    );
    expect(doc.paths['/images/{name}'].get.security).toEqual([]);
    expect(doc.paths['/api/docs/{docId}/original'].get.responses['200'].content).toHaveProperty(
      'application/octet-stream',
    );
    expect(served.paths['/api/docs/{docId}'].get.operationId).toBe('files.doc.get');
  });
});

describe('helpers', () => {
  it('names uploads and parses ranges', () => {
    expect(uploadName(undefined)).toBe('file');
    expect(uploadName('  \u0000 ')).toBe('file');
    expect(uploadName(' a.pdf ')).toBe('a.pdf');
    // issue 25 §5: 255 UTF-16 units are cut at a code-point boundary, never inside a surrogate pair
    const long = 'a'.repeat(254) + '😀'.repeat(3);
    expect(uploadName(long)).toBe('a'.repeat(254));
    expect(uploadName('a'.repeat(253) + '😀😀')).toBe('a'.repeat(253) + '😀');
    expect(uploadName('😀'.repeat(200))).toHaveLength(254);
    expect(findInputProblem(uploadName(long))).toBeNull();
    expect(parseRange('bytes=-4', 10)).toEqual({ start: 6, end: 9 });
    expect(parseRange('bytes=8-', 10)).toEqual({ start: 8, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('bad');
    expect(parseRange('bytes=0-1,3-4', 10)).toBeNull();
    expect(contentDisposition('')).toBe(`attachment; filename="file"; filename*=UTF-8''`);
  });
});

/** one multipart POST over a raw socket (optionally chunked: no Content-Length) */
function rawUpload(
  cookie: string,
  csrf: string,
  bytes: Buffer,
  opts: { chunked?: boolean } = {},
): Promise<{ status: number; body: string }> {
  const boundary = 'wbBoundary' + randomBytes(8).toString('hex');
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([head, bytes, tail]);
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/docs`, {
      method: 'POST',
      headers: {
        cookie,
        'x-csrf-token': csrf,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...(opts.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(body.length) }),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
    });
    // the gateway may close while we still send: the answer has come by then
    req.on('error', (err) => setTimeout(() => reject(err), 500));
    const step = 64 * 1024;
    let off = 0;
    const write = (): void => {
      while (off < body.length) {
        const ok = req.write(body.subarray(off, off + step));
        off += step;
        if (!ok) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

/** temporary files the fs store writes before renaming (anything not a finished object) */
async function tmpFiles(): Promise<number> {
  const walk = async (d: string): Promise<number> => {
    let n = 0;
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      if (e.isDirectory()) n += await walk(join(d, e.name));
      else if (e.name.endsWith('.wbtmp')) n++;
    }
    return n;
  };
  return walk(dir);
}
