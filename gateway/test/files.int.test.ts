/**
 * Files end to end through the built gateway, auth, the files service and the conversion worker
 * (one shared filesystem store, as `make up` runs them): an image uploaded as multipart is
 * converted and its thumbnail served from the store; a second person adds the same bytes
 * without uploading them (dedupe); the original downloads as an attachment; nothing is left in
 * staging.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { eventually, givePlan, signUp, startStack } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';
import { imageUrl } from '@wb/proto';

let stack: RunningStack;
let filesDir: string;

beforeAll(async () => {
  filesDir = await mkdtemp(join(tmpdir(), 'wb-gateway-files-int-'));
  stack = await startStack({
    deployables: ['services/auth', 'services/files', 'services/converter', 'gateway'],
    env: { FILES_STORE: 'fs', FILES_DIR: filesDir },
    envFor: { 'services/files': { PLAN_CACHE_TTL_MS: '0' }, 'services/converter': { OFFICE_WARM: '0' } },
  });
}, 90_000);

afterAll(async () => {
  await stack?.stop();
  await rm(filesDir, { recursive: true, force: true });
});

/** a real PNG (w×h, a colour gradient), built by hand: no image library in the gateway */
function png(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + w * 3);
    for (let x = 0; x < w; x++) row.set([x % 256, y % 256, (x + y) % 256], 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

it('uploads, converts, serves, dedupes and downloads an image', async () => {
  const ada = await signUp(stack.gatewayUrl, 'Ada Upload');
  const bob = await signUp(stack.gatewayUrl, 'Bob Dedupe');
  // uploads to the library need the fileUpload feature
  await givePlan(stack, ada.id, 'standard');
  await givePlan(stack, bob.id, 'standard');
  await ada.browser.get('/api/user');

  const bytes = png(640, 400);
  const sha = createHash('sha256').update(bytes).digest('hex');
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/png' }), 'Ünterricht.png');
  const up = await fetch(`${stack.gatewayUrl}/docs`, {
    method: 'POST',
    headers: { cookie: ada.browser.cookieHeader(), 'x-csrf-token': ada.browser.cookie('csrf-token')! },
    body: form,
  });
  const doc = (await up.json()) as { id: string; name: string; size: number; isImage: number; imageId: string };
  expect(up.status).toBe(200);
  expect(doc).toMatchObject({ id: sha, name: 'Ünterricht.png', size: bytes.length, isImage: 1 });

  // the worker converts it; the browser polls GET /api/docs/{id}
  await eventually(async () => (await ada.browser.get(`/api/docs/${sha}`)).body?.status === 'ready', 30_000, 200);
  // issue 25 §4: the image URL a viewer sees is named by the image id, not the SHA-256
  const thumbUrl = imageUrl(doc.imageId, 'thumb');
  expect(thumbUrl).not.toContain(sha);
  expect((await fetch(`${stack.gatewayUrl}/images/${sha}-thumb.webp`)).status).toBe(404);
  const thumb = await fetch(`${stack.gatewayUrl}${thumbUrl}`);
  const webp = Buffer.from(await thumb.arrayBuffer());
  expect(thumb.status).toBe(200);
  expect(thumb.headers.get('content-type')).toBe('image/webp');
  expect(thumb.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(webp.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(webp.subarray(8, 12).toString('latin1')).toBe('WEBP');

  // issue 25 §4: someone who knows only the hash can neither add nor download the original
  const eve = await signUp(stack.gatewayUrl, 'Eve Hash');
  await givePlan(stack, eve.id, 'standard');
  const probe = await eve.browser.get(`/api/docs/${sha}`);
  expect(probe.body).toMatchObject({ id: sha, name: '', imageId: '' });
  expect(await eve.browser.post('/api/docs/add', { docId: sha, name: 'stolen.png' })).toMatchObject({
    status: 404,
    body: { code: 'ERR_NOT_FOUND' },
  });
  const guess = { nonce: probe.body.challenge.nonce, digest: sha };
  expect((await eve.browser.post('/api/docs/add', { docId: sha, name: 's.png', proof: guess })).status).toBe(404);
  const stolen = await fetch(`${stack.gatewayUrl}/api/docs/${sha}/original`, {
    headers: { cookie: eve.browser.cookieHeader() },
  });
  expect(stolen.status).toBe(404);

  // a second person who holds the file: hash, answer the challenge, POST /api/docs/add (no upload)
  const known = await bob.browser.get(`/api/docs/${sha}`);
  expect(known.status).toBe(200);
  expect(known.body).toMatchObject({ id: sha });
  const challenge = known.body.challenge as { nonce: string; ranges: { start: number; end: number }[] };
  const digest = createHash('sha256').update(challenge.nonce, 'utf8');
  for (const r of challenge.ranges) digest.update(bytes.subarray(r.start, r.end));
  const proof = { nonce: challenge.nonce, digest: digest.digest('hex') };
  const added = await bob.browser.post('/api/docs/add', { docId: sha, name: 'photo.png', proof });
  expect(added.status).toBe(200);
  expect(added.body).toMatchObject({ id: sha, name: 'photo.png', imageId: doc.imageId });

  const original = await fetch(`${stack.gatewayUrl}/api/docs/${sha}/original`, {
    headers: { cookie: bob.browser.cookieHeader() },
  });
  expect(original.status).toBe(200);
  expect(original.headers.get('content-disposition')).toMatch(/^attachment; filename="photo.png"/);
  expect(original.headers.get('content-security-policy')).toBe('sandbox');
  expect(Buffer.from(await original.arrayBuffer()).equals(bytes)).toBe(true);

  const staging = await readdir(join(filesDir, 'staging')).catch(() => []);
  expect(staging).toEqual([]);
}, 60_000);
