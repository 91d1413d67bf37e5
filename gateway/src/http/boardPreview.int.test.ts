/** GET /api/boards/{id}/preview.webp (http/boardPreview.ts) through the real app over a fake boards service. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { AppError, boardPreviewKey } from '@wb/proto';
import type { BoardDto } from '@wb/proto';
import { FsObjectStore } from '@wb/platform';
import { serviceRoutes } from '../routes';
import { startHarness } from '../testing/harness';
import type { Harness } from '../testing/harness';

const WEBP = Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 fake');
let h: Harness;
let dir: string;
let previews: FsObjectStore;

const board = (id: string, preview?: number): BoardDto => ({
  id,
  user_id: 7,
  title: 't',
  folder_id: null,
  trashed: null,
  updated: new Date(0).toISOString(),
  trashed_count: 0,
  background: 'empty',
  defaultPermission: 'view',
  deleteOwnOnly: false,
  created: new Date(0).toISOString(),
  access: 'own',
  ...(preview ? { preview } : {}),
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wb-gw-previews-'));
  previews = new FsObjectStore(dir);
  h = await startHarness({ routes: serviceRoutes, deps: { previews } });
  await previews.put(boardPreviewKey('mine'), WEBP);
  await previews.put(boardPreviewKey('legacy/id'), WEBP);
  h.bus.on('boards', 'board.get', (input) => {
    const { boardId } = input as { boardId: string };
    if (boardId === 'private') throw new AppError('ERR_FORBIDDEN');
    if (boardId === 'none') return board(boardId);
    return board(boardId, 5);
  });
});
afterAll(async () => {
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

async function get(path: string, userId: number | null = 7) {
  const req = request(h.app).get(path);
  if (userId !== null) req.set('Cookie', `sid=${(await h.createSession(userId)).token}`);
  return req.buffer(true).parse((r, cb) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c));
    r.on('end', () => cb(null, Buffer.concat(chunks)));
  });
}

describe('GET /api/boards/{id}/preview.webp', () => {
  it('streams the preview, cached for a year when ?v names the current version', async () => {
    const res = await get('/api/boards/mine/preview.webp?v=5');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(res.body as Buffer, WEBP)).toBe(0);
    // an old version's URL: the bytes, but revalidated (never an old image kept for a year under a new URL)
    expect((await get('/api/boards/mine/preview.webp?v=4')).headers['cache-control']).toBe('private, no-cache');
    // ids with slashes
    expect((await get('/api/boards/legacy/id/preview.webp?v=5')).status).toBe(200);
    expect(h.bus.callsOf('boards', 'board.get').map((c) => c.input)).toContainEqual({ boardId: 'legacy/id' });
  });

  it("answers another user's private board with the service's error, a bad id with 400, none with 404", async () => {
    const other = await get('/api/boards/private/preview.webp?v=5', 8);
    expect(other.status).toBe(403);
    expect(JSON.parse((other.body as Buffer).toString()).code).toBe('ERR_FORBIDDEN');
    const bad = await get('/api/boards/bad%20id/preview.webp');
    expect(bad.status).toBe(400);
    expect(JSON.parse((bad.body as Buffer).toString()).code).toBe('ERR_INVALID_INPUT');
    const none = await get('/api/boards/none/preview.webp');
    expect(none.status).toBe(404);
    expect(JSON.parse((none.body as Buffer).toString()).code).toBe('ERR_NOT_FOUND');
    const missing = await get('/api/boards/gone/preview.webp?v=5'); // a version but no object
    expect(missing.status).toBe(404);
    expect((await get('/api/boards/mine/preview.webp', null)).status).toBe(401);
  });
});
