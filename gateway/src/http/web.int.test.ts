import { mkdtempSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { fixtureRoutes } from '../testing/fixtures';
import { setCookies, startHarness } from '../testing/harness';
import type { Harness } from '../testing/harness';
import { chooseEncoding } from './web';

describe('web app files', () => {
  let h: Harness;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'wb-web-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(dir, 'favicon.svg'), '<svg/>');
    h = await startHarness({ routes: fixtureRoutes, env: { WEB_DIST_DIR: dir } });
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('caches hashed assets for a year, without cookies', async () => {
    const res = await request(h.app).get('/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['set-cookie']).toBeUndefined();
    // no precompressed files in this dist: served as they are
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['vary']).toBeUndefined();
    expect((await request(h.app).get('/favicon.svg')).headers['cache-control']).toBe('no-cache');
  });

  it('answers client-side routes with index.html and a CSRF cookie', async () => {
    const res = await request(h.app).get('/dashboard/boards').set('Accept', 'text/html,application/xhtml+xml');
    expect(res.status).toBe(200);
    expect(res.text).toContain('id="root"');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(setCookies(res.headers)['csrf-token']).toBeDefined();
    expect((await request(h.app).get('/').set('Accept', 'text/html')).text).toContain('id="root"');
  });

  it('404s a missing file instead of answering HTML', async () => {
    const res = await request(h.app).get('/assets/index-old999.js').set('Accept', '*/*');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('id="root"');
  });

  it('never serves the app for API paths', async () => {
    const res = await request(h.app).get('/api/unknown').set('Accept', 'text/html');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ERR_NOT_FOUND');
  });
});

describe('precompressed web app files', () => {
  let h: Harness;
  let dir: string;
  const js = Buffer.from('export const greeting = "hello";\n'.repeat(200));
  const wasm = Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), Buffer.alloc(8192, 7)]);
  const html = Buffer.from(`<!doctype html><div id="root"></div>${'<!-- padding -->'.repeat(100)}`);
  const small = Buffer.from('console.log(2)');
  /** the raw response bytes (superagent decodes br and gzip, so these are the original's) */
  const raw = (res: NodeJS.ReadableStream, cb: (err: Error | null, body: Buffer) => void): void => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  };
  const size = (file: string): string => String(statSync(path.join(dir, file)).size);
  const get = (url: string, acceptEncoding: string) =>
    request(h.app).get(url).set('Accept-Encoding', acceptEncoding).buffer(true).parse(raw);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'wb-web-'));
    mkdirSync(path.join(dir, 'assets'));
    const put = (file: string, data: Buffer, precompress = true): void => {
      writeFileSync(path.join(dir, file), data);
      if (!precompress) return;
      writeFileSync(path.join(dir, `${file}.br`), brotliCompressSync(data));
      writeFileSync(path.join(dir, `${file}.gz`), gzipSync(data, { level: 9 }));
    };
    put('index.html', html);
    put('assets/app-abc123.js', js);
    put('assets/stale-abc123.js', js);
    put('assets/automerge-abc123.wasm', wasm);
    put('assets/small-abc123.js', small, false);
    h = await startHarness({ routes: fixtureRoutes, env: { WEB_DIST_DIR: dir } });
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends br when accepted, with the original type, the compressed length and the asset cache', async () => {
    const res = await get('/assets/app-abc123.js', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-length']).toBe(size('assets/app-abc123.js.br'));
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['accept-ranges']).toBeUndefined();
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).toEqual(js);
    const identity = await get('/assets/app-abc123.js', 'identity');
    expect(res.headers['content-type']).toBe(identity.headers['content-type']);
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
  });

  it('sends gzip when br is not accepted or refused with q=0', async () => {
    for (const ae of ['gzip, deflate', 'br;q=0, gzip', 'gzip;q=0.8, br;q=0.5', 'x-gzip']) {
      const res = await get('/assets/app-abc123.js', ae);
      expect([ae, res.headers['content-encoding']]).toEqual([ae, 'gzip']);
      expect(res.headers['content-length']).toBe(size('assets/app-abc123.js.gz'));
      expect(res.headers['vary']).toBe('Accept-Encoding');
      expect(res.body).toEqual(js);
    }
    expect((await get('/assets/app-abc123.js', '*')).headers['content-encoding']).toBe('br');
  });

  it('sends the original when neither is accepted, with Vary', async () => {
    for (const ae of ['', 'identity', 'deflate, zstd', 'br;q=0, gzip;q=0', '*;q=0', 'gzip;q=0, *;q=0, br;q=0.0']) {
      const res = await get('/assets/app-abc123.js', ae);
      expect([ae, res.headers['content-encoding']]).toEqual([ae, undefined]);
      expect(res.headers['content-length']).toBe(String(js.length));
      expect(res.headers['vary']).toBe('Accept-Encoding');
      expect(res.body).toEqual(js);
    }
  });

  it('keeps application/wasm for the wasm (streaming compilation)', async () => {
    for (const ae of ['br', 'gzip', 'identity']) {
      const res = await get('/assets/automerge-abc123.wasm', ae);
      expect(res.headers['content-type']).toBe('application/wasm');
      expect(res.headers['content-encoding']).toBe(ae === 'identity' ? undefined : ae);
      expect(res.body).toEqual(wasm);
    }
  });

  it('answers 304 to the ETag of the encoding sent, and each encoding has its own ETag', async () => {
    const etags = new Set<string>();
    for (const ae of ['br', 'gzip', 'identity']) {
      const first = await get('/assets/app-abc123.js', ae);
      const etag = first.headers['etag'];
      expect([ae, typeof etag]).toEqual([ae, 'string']);
      etags.add(etag);
      const again = await request(h.app)
        .get('/assets/app-abc123.js')
        .set('Accept-Encoding', ae)
        .set('If-None-Match', etag);
      expect(again.status).toBe(304);
      expect(again.headers['vary']).toBe('Accept-Encoding');
      expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect(etags.size).toBe(3);
  });

  it('answers HEAD with the headers of the encoding and no body', async () => {
    const res = await request(h.app).head('/assets/automerge-abc123.wasm').set('Accept-Encoding', 'br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('application/wasm');
    expect(res.headers['content-length']).toBe(size('assets/automerge-abc123.wasm.br'));
    expect(res.headers['vary']).toBe('Accept-Encoding');
  });

  it('answers a Range request from the original', async () => {
    const res = await get('/assets/app-abc123.js', 'br, gzip').set('Range', 'bytes=0-9');
    expect(res.status).toBe(206);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-range']).toBe(`bytes 0-9/${js.length}`);
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.body).toEqual(js.subarray(0, 10));
  });

  it('serves index.html (SPA fallback) precompressed, no-cache, with the CSRF cookie', async () => {
    const res = await get('/dashboard/boards', 'gzip, deflate, br').set('Accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-length']).toBe(size('index.html.br'));
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(setCookies(res.headers)['csrf-token']).toBeDefined();
    expect(res.body).toEqual(html);
    const head = await request(h.app).head('/').set('Accept', 'text/html').set('Accept-Encoding', 'gzip');
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.headers['content-length']).toBe(size('index.html.gz'));
  });

  it('serves a file without siblings as before (no encoding, no Vary)', async () => {
    const res = await get('/assets/small-abc123.js', 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['vary']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toEqual(small);
  });

  it('falls back to the original when a sibling disappeared after start', async () => {
    rmSync(path.join(dir, 'assets', 'stale-abc123.js.gz'));
    const res = await get('/assets/stale-abc123.js', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(js.length));
    expect(res.body).toEqual(js);
  });
});

describe('chooseEncoding', () => {
  const both = { br: 'x.br', gzip: 'x.gz' };
  it.each([
    [undefined, both, undefined],
    ['', both, undefined],
    ['gzip, deflate, br, zstd', both, 'br'],
    ['gzip, deflate, br', { gzip: 'x.gz' }, 'gzip'],
    ['br', { gzip: 'x.gz' }, undefined],
    ['BR;Q=1', both, 'br'],
    ['br;q=0', both, undefined],
    ['br;q=0.1, gzip;q=0.9', both, 'gzip'],
    ['*;q=0.5, br;q=0', both, 'gzip'],
    ['identity, *;q=0', both, undefined],
  ])('%p with %p → %p', (header, available, expected) => {
    expect(chooseEncoding(header, available)).toBe(expected);
  });
});
