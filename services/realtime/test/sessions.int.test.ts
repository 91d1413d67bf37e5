/**
 * Sessions and names through the real stack (gateway + auth + boards + a realtime node, all child
 * processes on PostgreSQL, NATS and Redis): SPEC A5 (the sockets of an ended session are closed
 * with 4401 within 1 s, and nothing they send afterwards is journaled; a lost broadcast is made
 * up for by the node's periodic check) and A6 (presence shows the account's name, not HELLO's).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Pool } from 'pg';
import { sessionIdOf } from '@wb/platform';
import { Browser, eventually, freePort, signUp, sleep, startStack, uniqueEmail } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';
import { encodeListFrame, MSG, RT_CLOSE } from '@wb/proto';
import { A } from '../src/doc/automerge';
import { addShape, penStroke, TestClient } from '../src/testing/client';
import { connectClient } from '../src/testing/wsClient';
import type { WsConnection } from '../src/testing/wsClient';

const SECRET = 'integration-test-shared-secret-0123456789';
const NODE = 'services/realtime';
const SESSION_CHECK_MS = 1000;

let stack: RunningStack;
let db: Pool;
let redis: Redis;
let snapshots: string;

beforeAll(async () => {
  snapshots = await mkdtemp(join(tmpdir(), 'wb-rt-sess-'));
  stack = await startStack({
    deployables: ['services/auth', 'services/boards', NODE, 'gateway'],
    env: { RT_SHARED_SECRET: SECRET },
    envFor: {
      [NODE]: {
        RT_NODE_ID: 'rt-1',
        RT_PORT: String(await freePort()),
        SNAPSHOT_DIR: snapshots,
        RT_SESSION_CHECK_MS: String(SESSION_CHECK_MS),
      },
    },
  });
  db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
  redis = new Redis(stack.env.REDIS_URL!);
}, 90_000);

afterAll(async () => {
  await db?.end();
  await redis?.quit();
  await stack?.stop();
  await rm(snapshots, { recursive: true, force: true });
});

interface Opened {
  conn: WsConnection;
  client: TestClient;
  /** resolves with the close code, reason and when it arrived */
  closed: Promise<{ code: number; reason: string; at: number }>;
}

/** a board socket through the gateway, as the browser opens it (the session cookie only) */
async function open(browser: Browser, boardId: string, client: TestClient): Promise<Opened> {
  const conn = await connectClient(stack.gatewayUrl.replace('http:', 'ws:'), boardId, client, {
    secret: SECRET,
    actorHeader: null,
    headers: { cookie: `sid=${browser.cookie('sid')!}` },
  });
  const closed = conn.closed.then((c) => ({ ...c, at: Date.now() }));
  let early: unknown = null;
  void closed.then((c) => (early = c));
  await eventually(() => client.inSync || early !== null, 10_000, 25, 'in sync through the gateway');
  expect(early).toBeNull();
  return { conn, client, closed };
}

async function newBoard(browser: Browser): Promise<string> {
  const created = await browser.post('/api/boards', {});
  expect(created.status).toBe(200);
  return (created.body as { id: string }).id;
}

async function journaled(boardId: string): Promise<string[]> {
  const { rows } = await db.query<{ hash: string }>('SELECT hash FROM realtime.journal WHERE board_id = $1', [boardId]);
  return rows.map((r) => r.hash);
}

/** a change of `client`'s document that is not applied locally (sent raw, after the fact) */
function strayChange(client: TestClient, id: string, creator: number): { hash: string; bytes: Uint8Array } {
  const doc = A.change(A.clone(client.doc), (d) => addShape(d, id, penStroke(id, creator, [3, 3])));
  const bytes = A.getLastLocalChange(doc)!;
  return { hash: A.decodeChange(bytes).hash, bytes };
}

describe('sessions and names on the realtime node', () => {
  it('A5/A6: logging out closes that session’s socket with 4401 within 1 s; a change sent after is not journaled', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Ann Teacher');
    const boardId = await newBoard(browser);
    // A6: HELLO says one thing, presence shows the account's name
    const s = await open(browser, boardId, new TestClient(id, 'Teacher (owner)'));
    expect(s.client.presence.find((p) => p.userId === id)?.name).toBe('Ann Teacher');
    const saved = s.client.edit((d) => addShape(d, 'kept', penStroke('kept', id, [1, 1])))!;
    await eventually(() => s.client.pending.size === 0, 10_000, 25, 'saved');

    const t0 = Date.now();
    expect((await browser.post('/auth/logout', {})).status).toBeLessThan(400);
    const answered = Date.now();
    // sent as soon as the logout answered, on the still open socket
    const late = strayChange(s.client, 'late', id);
    if (s.conn.ws.readyState === s.conn.ws.OPEN) s.conn.ws.send(encodeListFrame(MSG.CHANGES, [late.bytes]));
    const closed = await s.closed;
    expect(closed.code).toBe(RT_CLOSE.UNAUTHENTICATED);
    expect(closed.reason).toBe('session ended');
    expect(closed.at - answered).toBeLessThan(1000);
    expect(closed.at - t0).toBeLessThan(2000); // the logout request included
    await sleep(300); // more than a journal batch (P1)
    const hashes = await journaled(boardId);
    expect(hashes).toContain(saved);
    expect(hashes).not.toContain(late.hash);
  }, 30_000);

  it('A5: a password change ends the other sessions: their sockets close, the changing one stays', async () => {
    const email = uniqueEmail('pw-change');
    const first = new Browser(stack.gatewayUrl);
    const signed = await first.post('/api/auth/signup', { name: 'Bea', email, password: 'long enough pw' });
    expect(signed.status).toBe(200);
    const userId = (signed.body as { user: { id: number } }).user.id;
    const second = new Browser(stack.gatewayUrl);
    expect((await second.post('/api/auth/login', { email, password: 'long enough pw' })).status).toBe(200);
    const boardId = await newBoard(first);
    const mine = await open(first, boardId, new TestClient(userId));
    const other = await open(second, boardId, new TestClient(userId));

    const changed = await first.post('/api/user/password', {
      currentPassword: 'long enough pw',
      newPassword: 'another long pw',
    });
    // the sessions end when auth answers (after hashing the new password, which takes a while)
    const answered = Date.now();
    expect(changed.status).toBe(200);
    const closed = await other.closed;
    expect(closed.code).toBe(RT_CLOSE.UNAUTHENTICATED);
    expect(closed.at - answered).toBeLessThan(1000);
    await sleep(200);
    expect(mine.conn.ws.readyState).toBe(mine.conn.ws.OPEN);
    mine.conn.close();
  }, 30_000);

  it('A5: a revocation whose broadcast was lost is caught by the node’s periodic check', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Cid');
    const boardId = await newBoard(browser);
    const s = await open(browser, boardId, new TestClient(id));
    // what auth does on logout, without the broadcast: the record, then the cache
    const sessionId = sessionIdOf(browser.cookie('sid')!);
    const revoked = await db.query('UPDATE auth.sessions SET revoked_at = now() WHERE id = $1', [sessionId]);
    expect(revoked.rowCount).toBe(1);
    await redis.del(`${stack.redisPrefix}sess:${sessionId}`);
    const t0 = Date.now();
    const closed = await s.closed;
    expect(closed.code).toBe(RT_CLOSE.UNAUTHENTICATED);
    expect(closed.at - t0).toBeLessThan(SESSION_CHECK_MS * 2 + 1000);
  }, 30_000);
});
