import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { fixtureRoutes } from '../testing/fixtures';
import { setCookies, startHarness } from '../testing/harness';
import type { Harness } from '../testing/harness';

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
