/**
 * The boards service through the real gateway, auth service, PostgreSQL, NATS and Redis: two
 * users (Ann on the starter plan, Bob on standard) and a guest. The realtime nodes' side of the
 * contract (access.check over NATS) is played by this test with its own NATS connection.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { get as httpGet } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Pool } from 'pg';
import { connectBus, createLogger } from '@wb/platform';
import type { Bus } from '@wb/platform';
import { startStack } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';
import { BOARD_ID_ALPHABET, BOARD_ID_LENGTH, eventSubject, expandBoardList } from '@wb/proto';
import type { AccessCheckReply, BoardDto, BoardList, BoardListItem, CollaborationUsage } from '@wb/proto';
import { weekStartOf } from '../src/policies/readOnly';
import { Browser, eventually, setPlan, signUp } from './browser';

const APP_URL = 'http://app.test';

let stack: RunningStack;
let db: Pool;
let realtime: Bus;
let ann: Browser;
let annId: number;
let bob: Browser;
let bobId: number;
let guest: Browser;

beforeAll(async () => {
  stack = await startStack({
    deployables: ['services/auth', 'services/boards', 'gateway'],
    env: { APP_URL },
    // plan changes below reach boards as auth's plan_changed; no cached plan may hide them
    envFor: { 'services/boards': { PLAN_CACHE_TTL_MS: '0' } },
  });
  db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
  realtime = await connectBus({
    url: stack.env.NATS_URL!,
    prefix: stack.natsPrefix,
    name: 'test-realtime',
    log: createLogger({ service: 'test', level: 'silent' }),
    ensureStream: false,
  });
  ({ browser: ann, id: annId } = await signUp(stack.gatewayUrl, 'Ann'));
  ({ browser: bob, id: bobId } = await signUp(stack.gatewayUrl, 'Bob'));
  await setPlan(stack, bobId, 'standard');
  guest = new Browser(stack.gatewayUrl);
}, 90_000);

afterAll(async () => {
  await realtime?.drain();
  await db?.end();
  await stack?.stop();
});

// ---------------------------------------------------------------------------------------------
// helpers

async function create(b: Browser, body: Record<string, unknown> = {}): Promise<BoardDto> {
  const res = await b.post('/api/boards', body);
  expect(res.status).toBe(200);
  return res.body as BoardDto;
}

/** GET /api/boards as the dashboard asks for it (columns), expanded to one object per board */
async function list(b: Browser): Promise<BoardListItem[]> {
  const res = await b.get('/api/boards?format=columns');
  expect(res.status).toBe(200);
  return expandBoardList(res.body as BoardList, b === ann ? annId : bobId);
}

/** what the realtime node asks when `userId` (0 = guest) joins */
async function join(boardId: string, userId: number, record = true): Promise<AccessCheckReply> {
  const reply = await realtime.request<AccessCheckReply>('boards', 'access.check', { boardId, record }, { userId });
  return reply.data;
}

/** the board rows as stored, for "nothing changed" assertions */
async function rows(ids: string[]): Promise<unknown[]> {
  const res = await db.query(
    'SELECT id, title, folder_id, trashed_at, trashed_count FROM boards.boards WHERE id = ANY($1) ORDER BY id',
    [ids],
  );
  return res.rows;
}

async function eventsOf(type: string): Promise<Array<Record<string, unknown>>> {
  const res = await db.query<{ data: Record<string, unknown> }>(
    'SELECT data FROM boards.outbox WHERE type = $1 ORDER BY id',
    [type],
  );
  return res.rows.map((r) => r.data);
}

function expectError(res: { status: number; body: { code?: string } }, status: number, code: string): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
}

/** Ann's boards created in the first tests, reused later */
const annBoards: BoardDto[] = [];

// ---------------------------------------------------------------------------------------------

describe('as a guest (not logged in)', () => {
  it('the dashboard calls answer 401', async () => {
    expectError(await guest.get('/api/boards'), 401, 'ERR_UNAUTHORIZED');
    expectError(await guest.get('/api/folders'), 401, 'ERR_UNAUTHORIZED');
    expectError(await guest.post('/api/boards', {}), 401, 'ERR_UNAUTHORIZED');
  });
});

describe('creating boards', () => {
  it('applies the spec defaults and answers the whole board; emits board.created', async () => {
    const board = await create(ann);
    expect(board).toEqual({
      id: expect.any(String),
      user_id: annId,
      title: 'untitled',
      folder_id: null,
      trashed: null,
      trashed_count: 0,
      background: 'empty',
      defaultPermission: 'edit',
      deleteOwnOnly: false,
      created: expect.any(String),
      updated: board.created,
      access: 'own',
    });
    expect(board.id).toHaveLength(BOARD_ID_LENGTH);
    expect([...board.id].every((ch) => BOARD_ID_ALPHABET.includes(ch))).toBe(true);
    annBoards.push(board);
    expect(await eventsOf('boards.board.created.v1')).toContainEqual(
      expect.objectContaining({ boardId: board.id, ownerId: annId, title: 'untitled' }),
    );
  });

  it('takes title, background and default permission from the caller (the web sends the settings)', async () => {
    const board = await create(ann, { title: '  Algebra 1 ', background: 'graphGrid', defaultPermission: 'view' });
    expect(board).toMatchObject({ title: 'Algebra 1', background: 'graphGrid', defaultPermission: 'view' });
    annBoards.push(board);
  });

  it('refuses empty, oversize and unknown fields with ERR_INVALID_INPUT and creates nothing', async () => {
    const before = (await list(ann)).length;
    for (const body of [
      { title: '   ' },
      { title: 'x'.repeat(201) },
      { background: 'stars' },
      { defaultPermission: 'owner' },
      { deleteOwnOnly: 1 },
      { folder: 'abc' },
      { color: 'red' },
    ]) {
      const res = await ann.post('/api/boards', body);
      expectError(res, 400, 'ERR_INVALID_INPUT');
      expect(Object.keys(res.body.fields).join()).toContain(Object.keys(body)[0]);
    }
    expect((await list(ann)).length).toBe(before);
  });

  it('starter plan: collaboration control and folders are not enabled', async () => {
    expectError(await ann.post('/api/boards', { deleteOwnOnly: true }), 403, 'ERR_FEATURE_NOT_ENABLED');
    expectError(await ann.post('/api/folders', { name: 'Maths' }), 403, 'ERR_FEATURE_NOT_ENABLED');
    expectError(await ann.post('/api/boards', { folder: 1 }), 403, 'ERR_FEATURE_NOT_ENABLED');
  });

  it('starter plan: 5 boards; the 6th → ERR_MAX_BOARDS_REACHED; trashed boards do not count', async () => {
    while (annBoards.length < 5) annBoards.push(await create(ann, { title: `Board ${annBoards.length + 1}` }));
    expectError(await ann.post('/api/boards', { title: 'one too many' }), 403, 'ERR_MAX_BOARDS_REACHED');
    expect((await list(ann)).length).toBe(5);

    // trash one: room for one more, and then restoring it would exceed the limit
    const victim = annBoards[4]!;
    expect((await ann.post('/api/boards/trash', { ids: [victim.id] })).status).toBe(200);
    const sixth = await create(ann, { title: 'Board 6' });
    const refused = await ann.post('/api/boards/restore', { ids: [victim.id] });
    expectError(refused, 403, 'ERR_MAX_BOARDS_REACHED');
    expect((await rows([victim.id]))[0]).toMatchObject({ trashed_at: expect.any(Date) });

    // make room again: purge the new one, restore the old one
    expect((await ann.post('/api/boards/trash', { ids: [sixth.id] })).status).toBe(200);
    expect((await ann.post('/api/boards/purge', { ids: [sixth.id] })).status).toBe(200);
    const restored = await ann.post('/api/boards/restore', { ids: [victim.id] });
    expect(restored.status).toBe(200);
    expect(restored.body.boards).toEqual([expect.objectContaining({ id: victim.id, trashed: null })]);
  });

  it('concurrent creates cannot pass the limit together', async () => {
    await setPlan(stack, annId, 'standard'); // 50 boards
    const active = (await list(ann)).filter((b) => !b.trashed).length;
    const free = 50 - active;
    const results = await Promise.all(
      Array.from({ length: free + 3 }, (_, i) => ann.post('/api/boards', { title: `race ${i}` })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(free);
    expect(results.filter((r) => r.body.code === 'ERR_MAX_BOARDS_REACHED')).toHaveLength(3);
    // back to starter: clean the race boards away
    const race = (await list(ann)).filter((b) => b.title.startsWith('race ')).map((b) => b.id);
    expect((await ann.post('/api/boards/trash', { ids: race })).status).toBe(200);
    expect((await ann.post('/api/boards/purge', { ids: race })).status).toBe(200);
    await setPlan(stack, annId, 'starter');
    expect((await list(ann)).length).toBe(5);
  });
});

describe('renaming and settings (PUT /api/boards/{boardId})', () => {
  it('renames; emits board.renamed with the previous title', async () => {
    const board = annBoards[0]!;
    const res = await ann.put(`/api/boards/${board.id}`, { title: 'Geometry' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: board.id, title: 'Geometry', access: 'own' });
    expect((await list(ann)).find((b) => b.id === board.id)?.title).toBe('Geometry');
    expect(await eventsOf('boards.board.renamed.v1')).toContainEqual({
      boardId: board.id,
      ownerId: annId,
      title: 'Geometry',
      previousTitle: 'untitled',
    });
  });

  it('bad titles, unknown ids, other people’s boards: the right code, nothing changes', async () => {
    const board = annBoards[0]!;
    const before = await rows([board.id]);
    expectError(await ann.put(`/api/boards/${board.id}`, { title: '' }), 400, 'ERR_INVALID_INPUT');
    expectError(await ann.put(`/api/boards/${board.id}`, { title: 'y'.repeat(201) }), 400, 'ERR_INVALID_INPUT');
    expectError(await ann.put(`/api/boards/${board.id}`, {}), 400, 'ERR_INVALID_INPUT');
    expectError(await ann.put('/api/boards/noSuchBoard123', { title: 'x' }), 404, 'ERR_BOARD_NOT_FOUND');
    expectError(await ann.put('/api/boards/bad%20id', { title: 'x' }), 400, 'ERR_INVALID_INPUT');
    // Bob may edit the board's content (default permission edit) but not its metadata
    expectError(await bob.put(`/api/boards/${board.id}`, { title: 'Mine now' }), 403, 'ERR_FORBIDDEN');
    expectError(await bob.put(`/api/boards/${board.id}`, { defaultPermission: 'none' }), 403, 'ERR_FORBIDDEN');
    expect(await rows([board.id])).toEqual(before);
  });

  it('changes background, default permission and collaboration control (paid plan); emits events', async () => {
    const board = await create(bob, { title: 'Bob’s lesson' });
    const res = await bob.put(`/api/boards/${board.id}`, {
      background: 'blackboard',
      defaultPermission: 'view',
      deleteOwnOnly: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ background: 'blackboard', defaultPermission: 'view', deleteOwnOnly: true });
    expect(await eventsOf('boards.board.settings_changed.v1')).toContainEqual({
      boardId: board.id,
      ownerId: bobId,
      background: 'blackboard',
      deleteOwnOnly: true,
    });
    expect(await eventsOf('boards.board.permissions_changed.v1')).toContainEqual({
      boardId: board.id,
      ownerId: bobId,
      defaultPermission: 'view',
      grant: null,
    });
    // created with collaboration control on a paid plan too
    expect((await create(bob, { deleteOwnOnly: true })).deleteOwnOnly).toBe(true);
  });

  it('restricting deletions to creators needs a paid plan; lifting it never does', async () => {
    const board = annBoards[1]!;
    expectError(await ann.put(`/api/boards/${board.id}`, { deleteOwnOnly: true }), 403, 'ERR_FEATURE_NOT_ENABLED');
    expect((await ann.put(`/api/boards/${board.id}`, { deleteOwnOnly: false })).status).toBe(200);
    expect((await ann.put(`/api/boards/${board.id}`, { background: 'dotGrid' })).body.background).toBe('dotGrid');
  });

  it('board ids may contain slashes (imported boards)', async () => {
    const id = 'legacy/2019/abc_DEF-1';
    await db.query("INSERT INTO boards.boards (id, user_id, title) VALUES ($1, $2, 'Imported')", [id, bobId]);
    const renamed = await bob.put(`/api/boards/${id}`, { title: 'Imported (renamed)' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, title: 'Imported (renamed)' });
    expect((await bob.get(`/api/boards/${id}`)).body).toMatchObject({ id, access: 'own' });
    expect((await bob.get(`/api/boards/${id}/share`)).body.url).toBe(`${APP_URL}/boards/${id}`);
    expect((await list(bob)).map((b) => b.id)).toContain(id);
  });
});

describe('access: own ⊃ edit ⊃ view, or none', () => {
  let board: BoardDto;

  beforeAll(async () => {
    board = annBoards[2]!; // Ann's, default permission edit
  });

  it('the owner owns; a logged-in user gets the default permission; a guest gets none on a plan without guests', async () => {
    expect((await join(board.id, annId)).access).toBe('own');
    const bobJoin = await join(board.id, bobId);
    expect(bobJoin).toEqual({
      access: 'edit',
      readOnlyReason: null,
      board: {
        id: board.id,
        title: board.title,
        ownerId: annId,
        background: 'empty',
        defaultPermission: 'edit',
        deleteOwnOnly: false,
      },
    });
    expect((await join(board.id, 0)).access).toBe('none');
    // the web asks before a guest picks a name: the refusal says it is the owner's plan
    expectError(await guest.get(`/api/boards/${board.id}`), 403, 'ERR_FEATURE_NOT_ENABLED');
  });

  it('a guest asking for a board learns why not: unknown or trashed, owner’s plan, or restricted', async () => {
    expectError(await guest.get('/api/boards/doesNotExist'), 404, 'ERR_BOARD_NOT_FOUND');
    // Bob's (standard: guests allowed) board, restricted
    const restricted = await create(bob, { title: 'Guest refusals', defaultPermission: 'none' });
    try {
      expectError(await guest.get(`/api/boards/${restricted.id}`), 403, 'ERR_FORBIDDEN');
      expect((await bob.put(`/api/boards/${restricted.id}`, { defaultPermission: 'view' })).status).toBe(200);
      expect((await guest.get(`/api/boards/${restricted.id}`)).body).toMatchObject({ access: 'view' });
      // on the starter plan no guest may join, whatever the board's permission
      await setPlan(stack, bobId, 'starter');
      const refused = await guest.get(`/api/boards/${restricted.id}`);
      expectError(refused, 403, 'ERR_FEATURE_NOT_ENABLED');
      expect(refused.body.message).toMatch(/owner's plan/);
      // trashed: gone for everyone but the owner, whatever the plan
      expect((await bob.post('/api/boards/trash', { ids: [restricted.id] })).status).toBe(200);
      expectError(await guest.get(`/api/boards/${restricted.id}`), 404, 'ERR_BOARD_NOT_FOUND');
      await setPlan(stack, bobId, 'standard');
      expectError(await guest.get(`/api/boards/${restricted.id}`), 404, 'ERR_BOARD_NOT_FOUND');
    } finally {
      await setPlan(stack, bobId, 'standard');
      await bob.post('/api/boards/trash', { ids: [restricted.id] });
      await bob.post('/api/boards/purge', { ids: [restricted.id] });
    }
  });

  it('with the guests feature on the OWNER’s plan, a guest gets the default permission', async () => {
    await setPlan(stack, annId, 'standard');
    try {
      expect((await join(board.id, 0)).access).toBe('edit');
      const seen = await guest.get(`/api/boards/${board.id}`);
      expect(seen.status).toBe(200);
      expect(seen.body).toMatchObject({ id: board.id, access: 'edit' });
    } finally {
      await setPlan(stack, annId, 'starter');
    }
  });

  it('unknown ids → ERR_BOARD_NOT_FOUND', async () => {
    await expect(join('doesNotExist', bobId)).rejects.toMatchObject({ code: 'ERR_BOARD_NOT_FOUND' });
    expectError(await bob.get('/api/boards/doesNotExist'), 404, 'ERR_BOARD_NOT_FOUND');
  });

  it('a join is recorded: the board is in the joiner’s list as shared (no folder)', async () => {
    const bobs = await list(bob);
    expect(bobs).toContainEqual({
      id: board.id,
      user_id: annId,
      title: board.title,
      folder_id: null,
      trashed: null,
      updated: expect.any(String),
      owner_name: 'Ann', // asked from the auth service
    });
    // the owner's list is unchanged by it, and owner joins are not recorded
    expect((await list(ann)).filter((b) => b.id === board.id)).toHaveLength(1);
    const members = (await ann.get(`/api/boards/${board.id}/share`)).body.members;
    expect(members).toEqual([{ userId: bobId, name: 'Bob', permission: null, joined: expect.any(String) }]);
  });

  it('an explicit grant wins over the default; none hides the board from the shared list', async () => {
    const view = await ann.post('/api/boards/grant', { boardId: board.id, userId: bobId, permission: 'view' });
    expect(view.status).toBe(200);
    expect(view.body.members).toEqual([{ userId: bobId, name: 'Bob', permission: 'view', joined: expect.any(String) }]);
    expect((await join(board.id, bobId)).access).toBe('view');
    expect((await bob.get(`/api/boards/${board.id}`)).body.access).toBe('view');

    await ann.post('/api/boards/grant', { boardId: board.id, userId: bobId, permission: 'none' });
    expect((await join(board.id, bobId)).access).toBe('none');
    expect((await list(bob)).map((b) => b.id)).not.toContain(board.id);
    expectError(await bob.get(`/api/boards/${board.id}`), 403, 'ERR_FORBIDDEN');

    await ann.post('/api/boards/grant', { boardId: board.id, userId: bobId, permission: null });
    expect((await join(board.id, bobId)).access).toBe('edit');
    expect((await list(bob)).map((b) => b.id)).toContain(board.id);
    expect(await eventsOf('boards.board.permissions_changed.v1')).toContainEqual({
      boardId: board.id,
      ownerId: annId,
      defaultPermission: 'edit',
      grant: { userId: bobId, permission: 'none' },
    });
  });

  it('the default permission applies to everyone without a grant', async () => {
    await ann.put(`/api/boards/${board.id}`, { defaultPermission: 'view' });
    expect((await join(board.id, bobId)).access).toBe('view');
    await ann.put(`/api/boards/${board.id}`, { defaultPermission: 'none' });
    expect((await join(board.id, bobId)).access).toBe('none');
    expect((await list(bob)).map((b) => b.id)).not.toContain(board.id);
    await ann.put(`/api/boards/${board.id}`, { defaultPermission: 'edit' });
    expect((await list(bob)).map((b) => b.id)).toContain(board.id);
  });

  it('grant and share are the owner’s; granting the owner is invalid', async () => {
    expectError(
      await bob.post('/api/boards/grant', { boardId: board.id, userId: bobId, permission: 'edit' }),
      403,
      'ERR_FORBIDDEN',
    );
    expectError(await bob.get(`/api/boards/${board.id}/share`), 403, 'ERR_FORBIDDEN');
    expectError(
      await ann.post('/api/boards/grant', { boardId: board.id, userId: annId, permission: 'view' }),
      400,
      'ERR_INVALID_INPUT',
    );
    // ids are PostgreSQL integers: beyond them is invalid input, not a database error
    const huge = await ann.post('/api/boards/grant', { boardId: board.id, userId: 2 ** 31, permission: 'view' });
    expectError(huge, 400, 'ERR_INVALID_INPUT');
    expect((huge.body as { fields: Record<string, string> }).fields).toHaveProperty('userId');
    // a grant names an existing account; nothing is stored for an unknown one
    expectError(
      await ann.post('/api/boards/grant', { boardId: board.id, userId: 2 ** 31 - 1, permission: 'view' }),
      404,
      'ERR_USER_NOT_FOUND',
    );
    const share = await ann.get(`/api/boards/${board.id}/share`);
    expect((share.body as { members: { userId: number }[] }).members.map((m) => m.userId)).not.toContain(2 ** 31 - 1);
    expect(share.body).toMatchObject({
      url: `${APP_URL}/boards/${board.id}`,
      defaultPermission: 'edit',
      deleteOwnOnly: false,
    });
  });

  it('trashed: non-owners stop seeing it and get none; restored: back', async () => {
    await ann.post('/api/boards/trash', { ids: [board.id] });
    expect((await join(board.id, bobId)).access).toBe('none');
    expect((await join(board.id, annId)).access).toBe('own');
    expect((await list(bob)).map((b) => b.id)).not.toContain(board.id);
    expectError(await bob.get(`/api/boards/${board.id}`), 404, 'ERR_BOARD_NOT_FOUND');
    expect((await list(ann)).find((b) => b.id === board.id)?.trashed).toEqual(expect.any(String));

    await ann.post('/api/boards/restore', { ids: [board.id] });
    expect((await join(board.id, bobId)).access).toBe('edit');
    expect((await list(bob)).map((b) => b.id)).toContain(board.id);
  });

  it('leaving takes a shared board out of the list (the board stays); one’s own board cannot be left', async () => {
    const res = await bob.post('/api/boards/leave', { ids: [board.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ids: [board.id] });
    expect((await list(bob)).map((b) => b.id)).not.toContain(board.id);
    expect((await list(ann)).map((b) => b.id)).toContain(board.id);
    const own = await create(bob);
    expectError(await bob.post('/api/boards/leave', { ids: [own.id] }), 400, 'ERR_INVALID_INPUT');
    expectError(await bob.post('/api/boards/leave', { ids: ['unknownBoard'] }), 404, 'ERR_BOARD_NOT_FOUND');
  });
});

describe('trash, restore, purge (batches: all or nothing)', () => {
  it('trash sets the time and counts; restore clears it; trashing twice counts once', async () => {
    const [a, b] = [annBoards[3]!, annBoards[4]!];
    const res = await ann.post('/api/boards/trash', { ids: [a.id, b.id, a.id] });
    expect(res.status).toBe(200);
    expect(res.body.boards.map((x: BoardListItem) => x.id)).toEqual([a.id, b.id]);
    expect(res.body.boards.every((x: BoardListItem) => typeof x.trashed === 'string')).toBe(true);
    await ann.post('/api/boards/trash', { ids: [a.id] });
    expect(await rows([a.id])).toEqual([expect.objectContaining({ trashed_count: 1 })]);
    await ann.post('/api/boards/restore', { ids: [a.id, b.id] });
    await ann.post('/api/boards/trash', { ids: [a.id] });
    expect(await rows([a.id])).toEqual([expect.objectContaining({ trashed_count: 2, trashed_at: expect.any(Date) })]);
    expect((await eventsOf('boards.board.trashed.v1')).filter((e) => e.boardId === a.id)).toHaveLength(2);
    expect((await eventsOf('boards.board.restored.v1')).filter((e) => e.boardId === a.id)).toHaveLength(1);
    await ann.post('/api/boards/restore', { ids: [a.id] });
  });

  it('one foreign id → ERR_FORBIDDEN, one unknown id → ERR_BOARD_NOT_FOUND; nothing is applied', async () => {
    const mine = annBoards.slice(0, 3).map((b) => b.id);
    const bobs = (await list(bob)).find((b) => b.user_id === bobId)!.id;
    const before = await rows([...mine, bobs]);
    for (const path of ['/api/boards/trash', '/api/boards/restore', '/api/boards/purge']) {
      const foreign = await ann.post(path, { ids: [...mine, bobs] });
      expectError(foreign, 403, 'ERR_FORBIDDEN');
      expect(Object.keys(foreign.body.fields)).toEqual([bobs]);
      const unknown = await ann.post(path, { ids: [...mine, 'noSuchBoard'] });
      expectError(unknown, 404, 'ERR_BOARD_NOT_FOUND');
      expect(Object.keys(unknown.body.fields)).toEqual(['noSuchBoard']);
    }
    const move = await ann.post('/api/folders/moveBoards', { folder: null, boards: [...mine, bobs] });
    expectError(move, 403, 'ERR_FORBIDDEN');
    expect(await rows([...mine, bobs])).toEqual(before);
  });

  it('malformed, empty and oversize id lists → ERR_INVALID_INPUT', async () => {
    expectError(await ann.post('/api/boards/trash', { ids: [] }), 400, 'ERR_INVALID_INPUT');
    expectError(await ann.post('/api/boards/trash', { ids: ['../etc'] }), 400, 'ERR_INVALID_INPUT');
    expectError(await ann.post('/api/boards/trash', {}), 400, 'ERR_INVALID_INPUT');
    const many = Array.from({ length: 101 }, (_, i) => `b${i}`);
    expectError(await ann.post('/api/boards/restore', { ids: many }), 400, 'ERR_INVALID_INPUT');
  });

  it('purging a board that is not in the trash → ERR_INVALID_INPUT naming it; nothing is purged', async () => {
    const [kept, trashed] = [annBoards[0]!, annBoards[1]!];
    await ann.post('/api/boards/trash', { ids: [trashed.id] });
    const res = await ann.post('/api/boards/purge', { ids: [trashed.id, kept.id] });
    expectError(res, 400, 'ERR_INVALID_INPUT');
    expect(res.body.fields).toEqual({ [kept.id]: 'not in the trash' });
    expect(await rows([trashed.id, kept.id])).toHaveLength(2);
    await ann.post('/api/boards/restore', { ids: [trashed.id] });
  });

  it('purge removes the board for good and tells the realtime side (board.purged)', async () => {
    const board = await create(bob, { title: 'to be purged' });
    await bob.post('/api/boards/trash', { ids: [board.id] });
    const res = await bob.post('/api/boards/purge', { ids: [board.id] });
    expect(res.body).toEqual({ ids: [board.id] });
    expect(await rows([board.id])).toEqual([]);
    expectError(await bob.get(`/api/boards/${board.id}`), 404, 'ERR_BOARD_NOT_FOUND');
    expect((await list(bob)).map((b) => b.id)).not.toContain(board.id);
    expect(await eventsOf('boards.board.purged.v1')).toContainEqual({
      boardId: board.id,
      ownerId: bobId,
      reason: 'owner',
    });
  });
});

describe('folders (Bob, standard plan)', () => {
  let maths: { id: number; name: string };
  let bobBoards: BoardDto[];

  beforeAll(async () => {
    bobBoards = [await create(bob, { title: 'F1' }), await create(bob, { title: 'F2' })];
  });

  it('creates, renames and lists folders; emits folder events', async () => {
    const res = await bob.post('/api/folders', { name: ' Maths ' });
    expect(res.status).toBe(200);
    maths = res.body;
    expect(maths).toEqual({ id: expect.any(Number), name: 'Maths' });
    await bob.post('/api/folders', { name: 'art' });
    const renamed = await bob.put(`/api/folders/${maths.id}`, { name: 'Mathematics' });
    expect(renamed.body).toEqual({ id: maths.id, name: 'Mathematics' });
    expect((await bob.get('/api/folders')).body.map((f: { name: string }) => f.name)).toEqual(['art', 'Mathematics']);
    expect(await eventsOf('boards.folder.created.v1')).toContainEqual({
      folderId: maths.id,
      ownerId: bobId,
      name: 'Maths',
    });
    expect((await ann.get('/api/folders')).body).toEqual([]);
  });

  it('bad names and other people’s folders are refused', async () => {
    expectError(await bob.post('/api/folders', { name: '  ' }), 400, 'ERR_INVALID_INPUT');
    expectError(await bob.post('/api/folders', { name: 'n'.repeat(101) }), 400, 'ERR_INVALID_INPUT');
    expectError(await bob.put('/api/folders/abc', { name: 'x' }), 400, 'ERR_INVALID_INPUT');
    await setPlan(stack, annId, 'standard');
    try {
      expectError(await ann.put(`/api/folders/${maths.id}`, { name: 'stolen' }), 404, 'ERR_NOT_FOUND');
      expectError(await ann.delete(`/api/folders/${maths.id}`), 404, 'ERR_NOT_FOUND');
      // moving one's own board into someone else's folder
      const into = await ann.post('/api/folders/moveBoards', { folder: maths.id, boards: [annBoards[0]!.id] });
      expectError(into, 400, 'ERR_INVALID_INPUT');
      expect(into.body.fields).toHaveProperty('folder');
      expect((await list(ann)).find((b) => b.id === annBoards[0]!.id)?.folder_id).toBeNull();
    } finally {
      await setPlan(stack, annId, 'starter');
    }
  });

  it('moves boards into a folder and back to unsorted; emits board.moved', async () => {
    const ids = bobBoards.map((b) => b.id);
    const res = await bob.post('/api/folders/moveBoards', { folder: maths.id, boards: ids });
    expect(res.status).toBe(200);
    expect(res.body.boards.map((b: BoardListItem) => b.folder_id)).toEqual([maths.id, maths.id]);
    expect(
      (await list(bob))
        .filter((b) => b.folder_id === maths.id)
        .map((b) => b.id)
        .sort(),
    ).toEqual([...ids].sort());
    expect(await eventsOf('boards.board.moved.v1')).toContainEqual({
      boardId: ids[0],
      ownerId: bobId,
      folderId: maths.id,
      previousFolderId: null,
    });
    await bob.post('/api/folders/moveBoards', { folder: null, boards: [ids[1]] });
    expect((await list(bob)).find((b) => b.id === ids[1])?.folder_id).toBeNull();
    // creating straight into a folder
    const inFolder = await create(bob, { title: 'F3', folder: maths.id });
    expect(inFolder.folder_id).toBe(maths.id);
  });

  it('without the folders feature, only unsorted is allowed; deleting still works', async () => {
    await setPlan(stack, bobId, 'starter');
    try {
      const ids = [bobBoards[1]!.id];
      expectError(
        await bob.post('/api/folders/moveBoards', { folder: maths.id, boards: ids }),
        403,
        'ERR_FEATURE_NOT_ENABLED',
      );
      expectError(await bob.put(`/api/folders/${maths.id}`, { name: 'x' }), 403, 'ERR_FEATURE_NOT_ENABLED');
      expect((await bob.post('/api/folders/moveBoards', { folder: null, boards: ids })).status).toBe(200);
    } finally {
      await setPlan(stack, bobId, 'standard');
    }
  });

  it('deleting a folder makes its boards unsorted', async () => {
    const inside = (await list(bob)).filter((b) => b.folder_id === maths.id).map((b) => b.id);
    expect(inside.length).toBeGreaterThan(0);
    const res = await bob.delete(`/api/folders/${maths.id}`);
    expect(res.status).toBe(200);
    expect(res.body.boardIds.sort()).toEqual(inside.sort());
    const after = await list(bob);
    for (const id of inside) expect(after.find((b) => b.id === id)?.folder_id).toBeNull();
    expect((await bob.get('/api/folders')).body.map((f: { id: number }) => f.id)).not.toContain(maths.id);
    expect(await eventsOf('boards.folder.deleted.v1')).toContainEqual({
      folderId: maths.id,
      ownerId: bobId,
      boardIds: expect.arrayContaining(inside),
    });
  });
});

describe('the list itself', () => {
  it('owned boards (trashed included) and shared ones, each once, as columns', async () => {
    const board = annBoards[1]!;
    await join(board.id, bobId);
    await ann.post('/api/boards/trash', { ids: [annBoards[0]!.id] });
    const raw = (await ann.get('/api/boards?format=columns')).body as BoardList;
    expect(Object.keys(raw.owned).sort()).toEqual(['folder_id', 'id', 'title', 'trashed', 'updated']);
    expect(Object.keys(raw.shared).sort()).toEqual(['id', 'owner_name', 'title', 'updated', 'user_id']);
    expect(raw.owned.title).toHaveLength(raw.owned.id.length);
    expect(raw.owned.folder_id).toHaveLength(raw.owned.id.length);
    expect(raw.owned.updated).toHaveLength(raw.owned.id.length);
    // trashing is a change: the trashed board's last change is its trash time
    const trashedAt = raw.owned.trashed[annBoards[0]!.id];
    expect(raw.owned.updated[raw.owned.id.indexOf(annBoards[0]!.id)]).toBe(
      Math.floor(new Date(trashedAt!).getTime() / 1000), // unix seconds
    );
    // only the trashed boards are in the trashed map
    expect(Object.keys(raw.owned.trashed)).toEqual([annBoards[0]!.id]);
    const anns = await list(ann);
    expect(anns.every((b) => b.user_id === annId)).toBe(true);
    expect(anns.find((b) => b.id === annBoards[0]!.id)?.trashed).toEqual(expect.any(String));
    // newest first
    expect(anns.map((b) => b.id).indexOf(annBoards[4]!.id)).toBeLessThan(
      anns.map((b) => b.id).indexOf(annBoards[0]!.id),
    );
    const bobs = await list(bob);
    expect(new Set(bobs.map((b) => b.id)).size).toBe(bobs.length);
    expect(bobs.filter((b) => b.user_id === annId).map((b) => b.id)).toEqual([board.id]);
    await ann.post('/api/boards/restore', { ids: [annBoards[0]!.id] });
  });

  it('by default answers spec §7’s list of boards: one whole Board per entry, owned first, then shared', async () => {
    const board = annBoards[1]!;
    await join(board.id, bobId);
    const res = await bob.get('/api/boards');
    expect(res.status).toBe(200);
    const boards = res.body as BoardDto[];
    expect(Array.isArray(boards)).toBe(true);
    const owned = boards.filter((b) => b.user_id === bobId);
    expect(owned.length).toBeGreaterThan(0);
    expect(boards.slice(0, owned.length).every((b) => b.user_id === bobId)).toBe(true);
    for (const b of owned) expect(b).toMatchObject({ access: 'own', trashed_count: expect.any(Number) });
    const shared = boards.find((b) => b.id === board.id);
    expect(shared).toEqual({
      id: board.id,
      user_id: annId,
      title: expect.any(String),
      folder_id: null,
      trashed: null,
      trashed_count: expect.any(Number),
      updated: expect.any(String),
      created: expect.any(String),
      background: expect.any(String),
      defaultPermission: expect.any(String),
      deleteOwnOnly: false,
      access: expect.stringMatching(/^(edit|view)$/),
      owner_name: 'Ann',
    });
    // the same boards as the columns the dashboard asks for
    expect(new Set(boards.map((b) => b.id))).toEqual(new Set((await list(bob)).map((b) => b.id)));
    expectError(await bob.get('/api/boards?format=rows'), 400, 'ERR_INVALID_INPUT');
  });

  it('a rename by the owner shows in the sharer’s list at once (cached lists are invalidated)', async () => {
    const board = annBoards[1]!;
    await list(bob); // cached
    await ann.put(`/api/boards/${board.id}`, { title: 'Renamed for Bob' });
    expect((await list(bob)).find((b) => b.id === board.id)?.title).toBe('Renamed for Bob');
  });

  it('comes gzip-compressed to a client that accepts it, the same list as plain JSON to one that does not', async () => {
    const fetchList = (b: Browser, acceptEncoding: string) =>
      new Promise<{ encoding: string | undefined; vary: string | undefined; body: Buffer }>((resolve, reject) => {
        httpGet(
          `${stack.gatewayUrl}/api/boards?format=columns`,
          { headers: { cookie: b.cookieHeader(), accept: 'application/json', 'accept-encoding': acceptEncoding } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                encoding: res.headers['content-encoding'],
                vary: res.headers.vary,
                body: Buffer.concat(chunks),
              }),
            );
          },
        ).on('error', reject);
      });
    // a small list (under 1 KiB) is not worth compressing
    expect((await fetchList(ann, 'gzip, deflate, br')).encoding).toBeUndefined();
    for (let i = 0; i < 12; i++) await create(bob, { title: `${'Long lesson title '.repeat(8)}${i}` });
    await list(bob); // filled into the cache
    const zipped = await fetchList(bob, 'gzip, deflate, br');
    const plain = await fetchList(bob, 'identity');
    expect(zipped.encoding).toBe('gzip');
    expect(plain.encoding).toBeUndefined();
    expect(zipped.vary).toMatch(/Accept-Encoding/i);
    expect(JSON.parse(gunzipSync(zipped.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    expect((JSON.parse(plain.body.toString()) as BoardList).shared.id.length).toBeGreaterThan(0);
  });
});

describe('read-only by plan limits or used-up collaboration minutes (spec §4)', () => {
  let cleo: Browser;
  let cleoId: number;
  let boards: BoardDto[];
  let eventSeq = 0;

  beforeAll(async () => {
    ({ browser: cleo, id: cleoId } = await signUp(stack.gatewayUrl, 'Cleo'));
    await setPlan(stack, cleoId, 'standard');
    boards = [];
    for (let i = 0; i < 7; i++) boards.push(await create(cleo, { title: `Lesson ${i + 1}` }));
    await setPlan(stack, cleoId, 'starter'); // a downgrade: 7 boards, 5 allowed
  });

  it('past maxBoards the newest boards are read-only for everyone; trashing older ones frees them', async () => {
    for (const b of boards.slice(0, 5)) expect((await join(b.id, cleoId)).readOnlyReason).toBeNull();
    for (const b of boards.slice(5)) {
      expect(await join(b.id, cleoId)).toMatchObject({ access: 'own', readOnlyReason: 'planLimits' });
      expect(await join(b.id, bobId)).toMatchObject({ access: 'edit', readOnlyReason: 'planLimits' });
    }
    // a viewer has nothing to lose: no reason is given
    expect(await join(boards[6]!.id, 0)).toMatchObject({ access: 'none', readOnlyReason: null });

    expect((await cleo.post('/api/boards/trash', { ids: [boards[0]!.id, boards[1]!.id] })).status).toBe(200);
    for (const b of boards.slice(2)) expect((await join(b.id, cleoId)).readOnlyReason).toBeNull();
  });

  const MIN = 60_000;
  /** a realtime node's span checkpoint through its outbox (the durable path) */
  async function spanEvent(spanId: string, from: Date, minutes: number): Promise<void> {
    const data = span(spanId, from, minutes);
    const id = `realtime:test-${++eventSeq}`;
    const type = 'realtime.collaboration.span.v1';
    const envelope = { id, type, occurredAt: data.to, data };
    await realtime.js.publish(eventSubject(stack.natsPrefix, type), JSON.stringify(envelope), { msgID: id });
  }
  function span(spanId: string, from: Date, minutes: number) {
    return {
      spanId,
      sessionId: `session-${spanId}`,
      ownerId: cleoId,
      boardId: boards[2]!.id,
      from: from.toISOString(),
      to: new Date(from.getTime() + minutes * MIN).toISOString(),
    };
  }
  /** the node's fast path: record a checkpoint and read the usage in one request */
  async function checkpoint(spanId: string, from: Date, minutes: number, actor = cleoId): Promise<CollaborationUsage> {
    const reply = await realtime.request<CollaborationUsage>(
      'boards',
      'collaboration.checkpoint',
      { span: span(spanId, from, minutes) },
      { userId: actor },
    );
    return reply.data;
  }
  /** the figure the owner sees (GET /api/collaboration/usage) */
  async function usage(): Promise<CollaborationUsage> {
    const res = await cleo.get('/api/collaboration/usage');
    expect(res.status).toBe(200);
    return res.body as CollaborationUsage;
  }

  it('used-up weekly minutes make every board of the owner read-only for everyone; the figure and the lock agree', async () => {
    const weekStart = weekStartOf(new Date());
    const monday = new Date(`${weekStart}T00:00:00Z`);
    const board = boards[2]!;
    await spanEvent('a', new Date(monday.getTime() + MIN), 200);
    // a span from last Sunday 23:30 to Monday 00:10: only its 10 minutes after the reset count
    await spanEvent('cross', new Date(monday.getTime() - 30 * MIN), 40);
    await eventually(async () => (await usage()).usedMs === 210 * MIN, 10_000);
    // redelivery (a new event id: the outbox relay after a crash) and an older checkpoint change nothing
    await spanEvent('a', new Date(monday.getTime() + MIN), 200);
    await spanEvent('a', new Date(monday.getTime() + MIN), 120);
    // last week's lessons do not count this week
    await spanEvent('old', new Date(monday.getTime() - 2 * 24 * 60 * MIN), 500);
    await eventually(
      async () =>
        (await db.query('SELECT 1 FROM boards.collaboration_spans WHERE span_id = $1', ['old'])).rowCount === 1,
      10_000,
    );
    expect((await usage()).usedMs).toBe(210 * MIN);
    expect(await join(board.id, bobId)).toMatchObject({ access: 'edit', readOnlyReason: null });

    // the node's checkpoint request answers the usage including itself: 210 + 90 = the 300 of starter
    const reply = await checkpoint('b', new Date(monday.getTime() + 300 * MIN), 90);
    const resetsAt = new Date(monday.getTime() + 7 * 24 * 60 * MIN).toISOString();
    expect(reply).toEqual({ usedMs: 300 * MIN, limitMs: 300 * MIN, weekStart, resetsAt });
    expect(await usage()).toEqual(reply);
    for (const b of [board, boards[3]!]) {
      expect(await join(b.id, bobId)).toMatchObject({ access: 'edit', readOnlyReason: 'collaborationMinutes' });
      expect(await join(b.id, cleoId)).toMatchObject({ access: 'own', readOnlyReason: 'collaborationMinutes' });
    }
    // the same checkpoint again is harmless
    expect((await checkpoint('b', new Date(monday.getTime() + 300 * MIN), 90)).usedMs).toBe(300 * MIN);

    // only the owner's node may checkpoint the owner's minutes; a span must not end before it starts
    await expect(checkpoint('c', monday, 1, bobId)).rejects.toMatchObject({ code: 'ERR_FORBIDDEN' });
    await expect(checkpoint('c', monday, -1)).rejects.toMatchObject({ code: 'ERR_INVALID_INPUT' });
    expect((await guest.get('/api/collaboration/usage')).status).toBe(401);

    await setPlan(stack, cleoId, 'standard'); // 3000 minutes
    expect((await join(board.id, bobId)).readOnlyReason).toBeNull();
    expect((await join(board.id, cleoId)).readOnlyReason).toBeNull();
    expect(await usage()).toMatchObject({ usedMs: 300 * MIN, limitMs: 3000 * MIN });
  });
});

describe('contract, metrics, logs', () => {
  it('every boards route is in the OpenAPI document', async () => {
    const doc = (await guest.get('/api/openapi.json')).body;
    for (const [path, method] of [
      ['/api/boards', 'get'],
      ['/api/boards', 'post'],
      ['/api/folders', 'get'],
      ['/api/folders', 'post'],
      ['/api/boards/trash', 'post'],
      ['/api/boards/restore', 'post'],
      ['/api/boards/purge', 'post'],
      ['/api/boards/leave', 'post'],
      ['/api/boards/grant', 'post'],
      ['/api/boards/{boardId}', 'get'],
      ['/api/boards/{boardId}', 'put'],
      ['/api/boards/{boardId}/share', 'get'],
      ['/api/collaboration/usage', 'get'],
      ['/api/folders/moveBoards', 'post'],
      ['/api/folders/{folderId}', 'put'],
      ['/api/folders/{folderId}', 'delete'],
    ] as const) {
      expect({ path, method, documented: Boolean(doc.paths[path]?.[method]) }).toEqual({
        path,
        method,
        documented: true,
      });
    }
  });

  it('counts every operation outcome on /metrics', async () => {
    const port = stack.envOf('services/boards').HEALTH_PORT;
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(text).toMatch(/boards_commands_total\{operation="board.create",outcome="ok"\} [1-9]/);
    expect(text).toMatch(/boards_commands_total\{operation="board.create",outcome="ERR_MAX_BOARDS_REACHED"\} [1-9]/);
    expect(text).toMatch(/boards_commands_total\{operation="boards.trash",outcome="ERR_FORBIDDEN"\} [1-9]/);
    expect(text).toMatch(/boards_list_cache_total\{result="hit"\} [1-9]/);
    expect(text).toMatch(/boards_purged_total\{reason="owner"\} [1-9]/);
  });

  it('every event was published to JetStream by the outbox relay', async () => {
    const pending = async (): Promise<number> =>
      (await db.query('SELECT 1 FROM boards.outbox WHERE published_at IS NULL')).rowCount ?? 0;
    for (let i = 0; i < 100 && (await pending()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await pending()).toBe(0);
  });

  it('the boards service logged no error (contract mismatches, unhandled failures)', () => {
    const bad = stack
      .logs('services/boards')
      .filter((line) => /"level":"(error|fatal)"|"level":50|"level":60|REPLY DOES NOT MATCH/.test(line));
    expect(bad).toEqual([]);
  });
});
