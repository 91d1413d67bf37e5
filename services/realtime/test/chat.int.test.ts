/**
 * Board chat (SPEC C1–C9) through the real socket path: auth + boards + a realtime node + the
 * gateway, TestClients over websockets, messages in PostgreSQL. Access comes from boards'
 * access.check (viewer and guest may chat, a stranger never joins); limits, deletion rules,
 * persistence across a reconnect and a node restart, paging, and the purge.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectBus, createLogger, createPool, withTransaction } from '@wb/platform';
import type { Bus, Pool } from '@wb/platform';
import { eventually, freePort, signUp, sleep, startStack } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';
import { encodeJsonFrame, eventSubject, MSG, RT_CLOSE, RT_LIMITS } from '@wb/proto';
import type { EventEnvelope } from '@wb/proto';
import { BoardPurgedProcessor } from '../src/processors/boardPurged';
import { PgChatStore } from '../src/repositories/chat';
import { SCHEMA } from '../src/repositories/journal';
import { signActor } from '../src/server/actor';
import { ChatTestClient } from '../src/testing/chatClient';
import { connectClient } from '../src/testing/wsClient';
import type { WsConnection } from '../src/testing/wsClient';

const SECRET = 'integration-test-shared-secret-0123456789';
const NODE = 'services/realtime';

let stack: RunningStack;
let bus: Bus;
let pool: Pool;
let snapshots: string;
let nodeUrl: string;
let ownerId: number;
let boardId: string;
const log = createLogger({ service: 'test', level: 'silent' });

beforeAll(async () => {
  snapshots = await mkdtemp(join(tmpdir(), 'wb-rt-chat-'));
  const port = await freePort();
  stack = await startStack({
    deployables: ['services/auth', 'services/boards', NODE, 'gateway'],
    env: { RT_SHARED_SECRET: SECRET },
    envFor: { [NODE]: { RT_NODE_ID: 'rt-chat', RT_PORT: String(port), SNAPSHOT_DIR: snapshots } },
  });
  nodeUrl = `ws://127.0.0.1:${port}`;
  bus = await connectBus({
    url: stack.env.NATS_URL!,
    prefix: stack.natsPrefix,
    name: 'test-chat',
    log,
    ensureStream: false,
  });
  pool = createPool({ url: stack.databaseUrl, schema: SCHEMA, poolSize: 2, log });
  // an owner on a plan with guests (billing played by the test, as in plans.int.test.ts)
  const { browser, id } = await signUp(stack.gatewayUrl, 'Olga Owner');
  ownerId = id;
  const envelope: EventEnvelope = {
    id: `billing:1`,
    type: 'billing.subscription.changed.v1',
    occurredAt: new Date().toISOString(),
    data: { userId: id, subscriptionId: `sub-${id}`, plan: 'standard', seats: 1 },
  };
  await bus.js.publish(eventSubject(stack.natsPrefix, envelope.type), JSON.stringify(envelope), { msgID: envelope.id });
  const end = Date.now() + 10_000;
  while ((await browser.get('/api/plan')).body.name !== 'standard') {
    if (Date.now() > end) throw new Error('plan never became standard');
    await sleep(50);
  }
  boardId = (await browser.post('/api/boards', {})).body.id as string;
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await bus?.drain();
  await stack?.stop();
  await rm(snapshots, { recursive: true, force: true });
});

const open: WsConnection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

async function enter(board: string, client: ChatTestClient): Promise<WsConnection> {
  const conn = await connectClient(nodeUrl, board, client, { secret: SECRET });
  open.push(conn);
  let closed: number | null = null;
  void conn.closed.then((c) => (closed = c.code));
  await eventually(() => client.inSync || closed !== null, 10_000, 25, 'in sync');
  if (closed !== null) throw new Error(`closed with ${String(closed)}`);
  return conn;
}
async function newBoard(permission: 'view' | 'edit' | 'none'): Promise<string> {
  const { id } = (await bus.request('boards', 'board.create', {}, { userId: ownerId })).data as { id: string };
  await bus.request('boards', 'board.update', { boardId: id, defaultPermission: permission }, { userId: ownerId });
  return id;
}
const lastError = (c: ChatTestClient): string => c.errors.at(-1)?.code ?? '';

describe('board chat (SPEC C*)', () => {
  it('C1/C2: a viewer and a guest chat; the sender gets its clientId back; a stranger cannot join', async () => {
    await bus.request('boards', 'board.update', { boardId, defaultPermission: 'view' }, { userId: ownerId });
    const owner = new ChatTestClient(ownerId);
    const viewer = new ChatTestClient(4242);
    const guest = new ChatTestClient(0, 'Guest Gary');
    await enter(boardId, owner);
    await enter(boardId, viewer);
    await enter(boardId, guest);
    expect(viewer.welcome?.role).toBe('viewer');
    expect(guest.welcome?.role).toBe('viewer');

    const cid = viewer.say('  hello from a viewer  ');
    await eventually(
      () => owner.chat.length === 1 && guest.chat.length === 1 && viewer.chat.length === 1,
      10_000,
      25,
      'condition',
    );
    expect(viewer.chat[0]).toMatchObject({ text: 'hello from a viewer', authorId: 4242, guest: false, clientId: cid });
    expect(owner.chat[0]!.clientId).toBeUndefined(); // C2: only the sender sees its clientId
    guest.say('hi, I am a guest');
    await eventually(() => owner.chat.length === 2, 10_000, 25, 'condition');
    expect(owner.chat[1]).toMatchObject({ authorId: 0, authorName: 'Guest Gary', guest: true });

    await bus.request('boards', 'board.update', { boardId, defaultPermission: 'none' }, { userId: ownerId });
    const stranger = new ChatTestClient(9999);
    const conn = await connectClient(nodeUrl, boardId, stranger, { secret: SECRET });
    expect((await conn.closed).code).toBe(RT_CLOSE.RESTRICTED);
    expect(stranger.chat).toHaveLength(0);
    await bus.request('boards', 'board.update', { boardId, defaultPermission: 'view' }, { userId: ownerId });
  }, 30_000);

  it('C3/C4/C8: empty, too long, rate and malformed input get an ERROR naming the rule; the socket stays', async () => {
    const a = new ChatTestClient(5151);
    const b = new ChatTestClient(ownerId);
    const conn = await enter(boardId, a);
    await enter(boardId, b);
    a.say('   \n ');
    await eventually(() => a.errors.length === 1, 10_000, 25, 'condition');
    expect(a.errors[0]).toMatchObject({ code: 'chat_invalid' });
    expect(a.errors[0]!.message).toMatch(/C3.*empty/);
    a.say('x'.repeat(RT_LIMITS.maxChatChars + 1));
    await eventually(() => a.errors.length === 2, 10_000, 25, 'condition');
    expect(a.errors[1]!.message).toMatch(/C3.*at most 1000/);
    // exactly the limit (emoji count as one character each) is fine
    a.say('😀'.repeat(RT_LIMITS.maxChatChars));
    // malformed: not JSON, extra field, wrong type, NUL, a lone surrogate
    a.sendRaw(Uint8Array.of(MSG.CHAT_SEND, 0x7b));
    a.sendRaw(encodeJsonFrame(MSG.CHAT_SEND, { text: 'x', clientId: 'c', html: '<b>' }));
    a.sendRaw(encodeJsonFrame(MSG.CHAT_SEND, { text: 5, clientId: 'c' }));
    a.sendRaw(encodeJsonFrame(MSG.CHAT_SEND, { text: 'a\u0000b', clientId: 'c' }));
    a.sendRaw(new Uint8Array([MSG.CHAT_SEND, ...new TextEncoder().encode('{"text":"\\ud800","clientId":"c"}')]));
    await eventually(() => a.errors.length === 7, 10_000, 25, 'condition');
    expect(a.errors.slice(2).map((e) => e.code)).toEqual(Array(5).fill('chat_invalid'));
    expect(a.errors[5]!.message).toMatch(/NUL/);
    expect(a.errors[6]!.message).toMatch(/surrogate/);
    await eventually(() => b.chat.length === 1, 10_000, 25, 'condition');
    expect([...b.chat[0]!.text]).toHaveLength(RT_LIMITS.maxChatChars);
    // C4: 5 in a burst (one already used above), the next is refused
    for (let i = 0; i < 5; i++) a.say(`burst ${i}`);
    await eventually(() => a.errors.length === 8, 10_000, 25, 'condition');
    expect(a.errors[7]).toMatchObject({ code: 'chat_rate_limited' });
    expect(a.errors[7]!.message).toMatch(/C4: at most 5 messages per 5 s/);
    await eventually(() => b.chat.length === 5, 10_000, 25, 'condition');
    expect(conn.ws.readyState).toBe(conn.ws.OPEN);
    // the limit is per person: another user is not affected
    b.say('owner speaks');
    await eventually(() => b.chat.length === 6, 10_000, 25, 'condition');
    // and it refills: one second later one more goes through
    await sleep(1100);
    a.say('after the pause');
    await eventually(() => b.chat.length === 7, 10_000, 25, 'condition');
  }, 30_000);

  it('C4/J7: guests cannot multiply the rate by opening sockets: one address shares a bucket, and its sockets are capped', async () => {
    const board = await newBoard('view');
    const gateway = stack.gatewayUrl.replace('http:', 'ws:');
    const owner = new ChatTestClient(ownerId);
    await enter(board, owner);
    // five guest sockets through the gateway, as browsers open them; each claims another address
    // (X-Forwarded-For is not trusted without TRUST_PROXY) and forges an actor header (replaced)
    const forged = signActor(SECRET, { userId: 0, ip: '198.51.100.7' }, Date.now());
    const guests: ChatTestClient[] = [];
    for (let i = 0; i < 5; i++) {
      const g = new ChatTestClient(0, `Guest ${i}`);
      const conn = await connectClient(gateway, board, g, {
        secret: SECRET,
        actorHeader: forged,
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      });
      open.push(conn);
      await eventually(() => g.inSync, 10_000, 25, 'guest in sync');
      guests.push(g);
    }
    // 50 messages in 2.5 s, round robin over the five sockets (the probe: 25 went through)
    const started = Date.now();
    for (let i = 0; i < 50; i++) {
      guests[i % 5]!.say(`spam ${i}`);
      await sleep(50);
    }
    const elapsed = Date.now() - started;
    await eventually(
      () => guests.reduce((n, g) => n + g.errors.length, 0) + owner.chat.length >= 50,
      10_000,
      25,
      'all answered',
    );
    // the address's bucket: a burst of 10, refilled at 10 per 5 s over the ~2.5 s
    const allowed = RT_LIMITS.guestChatPerAddressMessages * (1 + elapsed / RT_LIMITS.chatRateWindowMs);
    expect(owner.chat.length).toBeLessThanOrEqual(Math.ceil(allowed));
    expect(owner.chat.length).toBeGreaterThanOrEqual(RT_LIMITS.guestChatPerAddressMessages);
    const refusals = guests.flatMap((g) => g.errors);
    expect(refusals.every((e) => e.code === 'chat_rate_limited')).toBe(true);
    expect(refusals.some((e) => /guests of your network/.test(e.message))).toBe(true);
    // a signed-in user on the same address is not limited by the guests' bucket
    owner.say('the owner still speaks');
    await eventually(() => owner.chat.some((m) => m.text === 'the owner still speaks'), 10_000, 25, 'owner spoke');

    // J7: up to guestSocketsPerAddress guest sockets from one address; the next is closed 4430
    for (let i = guests.length; i < RT_LIMITS.guestSocketsPerAddress; i++) {
      const g = new ChatTestClient(0, `Guest ${i}`);
      open.push(await connectClient(gateway, board, g, { secret: SECRET, actorHeader: null }));
      await eventually(() => g.inSync, 10_000, 25, 'guest in sync');
    }
    const extra = new ChatTestClient(0, 'One too many');
    const refused = await connectClient(gateway, board, extra, { secret: SECRET, actorHeader: null });
    open.push(refused);
    expect(await refused.closed).toEqual({ code: RT_CLOSE.GUEST_LIMIT, reason: 'too many guests from this address' });
    // the cap is per address and board: another board admits the same address
    const other = new ChatTestClient(0, 'Elsewhere');
    open.push(await connectClient(gateway, await newBoard('view'), other, { secret: SECRET, actorHeader: null }));
    await eventually(() => other.inSync, 10_000, 25, 'guest on another board');
  }, 60_000);

  it('C6: the owner deletes any message, an author their own, nobody else; a guest only from its socket', async () => {
    const owner = new ChatTestClient(ownerId);
    const alice = new ChatTestClient(6001);
    const bob = new ChatTestClient(6002);
    const guest = new ChatTestClient(0, 'Guest Gwen');
    await enter(boardId, owner);
    await enter(boardId, alice);
    await enter(boardId, bob);
    const g1 = await enter(boardId, guest);
    alice.say('alice 1');
    await eventually(() => owner.chat.length === 1, 10_000, 25, 'condition');
    bob.say('bob 1');
    await eventually(() => owner.chat.length === 2, 10_000, 25, 'condition');
    guest.say('guest 1');
    await eventually(() => owner.chat.length === 3, 10_000, 25, 'condition');
    const [a1, b1, gm] = owner.chat.map((m) => m.id);

    bob.deleteMessage(a1!);
    await eventually(() => bob.errors.length === 1, 10_000, 25, 'condition');
    expect(lastError(bob)).toBe('chat_forbidden');
    alice.deleteMessage(a1!);
    await eventually(() => bob.deleted.includes(a1!) && owner.deleted.includes(a1!), 10_000, 25, 'condition');
    alice.deleteMessage(a1!); // already gone
    await eventually(() => alice.errors.length === 1, 10_000, 25, 'condition');
    expect(lastError(alice)).toBe('chat_not_found');
    owner.deleteMessage(b1!);
    await eventually(() => alice.deleted.includes(b1!), 10_000, 25, 'condition');
    // a guest reconnecting is another guest: the message sent from the first socket is not its own
    g1.close();
    await eventually(() => !guest.inSync, 10_000, 25, 'condition');
    const guest2 = new ChatTestClient(0, 'Guest Gwen');
    await enter(boardId, guest2);
    guest2.deleteMessage(gm!);
    await eventually(() => guest2.errors.length === 1, 10_000, 25, 'condition');
    expect(lastError(guest2)).toBe('chat_forbidden');
    guest2.say('guest 2');
    await eventually(() => guest2.chat.length === 1, 10_000, 25, 'condition');
    guest2.deleteMessage(guest2.chat[0]!.id);
    await eventually(() => owner.deleted.includes(guest2.chat[0]!.id), 10_000, 25, 'condition');
    // deleted messages are not in the history any more
    owner.history();
    await eventually(() => owner.pages.length === 1, 10_000, 25, 'condition');
    const ids = owner.pages[0]!.messages.map((m) => m.id);
    expect(ids).toContain(gm);
    expect(ids).not.toContain(a1);
    expect(ids).not.toContain(b1);
  }, 30_000);

  it('C5: history survives a reconnect and a node restart, and pages by id', async () => {
    const board = await newBoard('edit');
    const owner = new ChatTestClient(ownerId);
    await enter(board, owner);
    // 120 messages written straight to the store (the rate limit is per person, not per board)
    const store = new PgChatStore(pool);
    for (let i = 0; i < 120; i++) await store.insert(board, ownerId, 'Olga Owner', `m${i}`);
    owner.history();
    await eventually(() => owner.pages.length === 1, 10_000, 25, 'condition');
    const first = owner.pages[0]!;
    expect(first.messages).toHaveLength(RT_LIMITS.chatHistoryPage);
    expect(first.messages.at(-1)!.text).toBe('m119'); // oldest first, newest at the end
    expect(first.more).toBe(true);
    owner.history(first.messages[0]!.id);
    await eventually(() => owner.pages.length === 2, 10_000, 25, 'condition');
    expect(owner.pages[1]!.messages.map((m) => m.text)[0]).toBe('m20');
    expect(owner.pages[1]!.before).toBe(first.messages[0]!.id);
    owner.history(owner.pages[1]!.messages[0]!.id);
    await eventually(() => owner.pages.length === 3, 10_000, 25, 'condition');
    expect(owner.pages[2]!.messages.map((m) => m.text)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`));
    expect(owner.pages[2]!.more).toBe(false);

    owner.say('before the restart');
    await eventually(() => owner.chat.length === 1, 10_000, 25, 'condition');
    await stack.restartOne(NODE);
    const later = new ChatTestClient(7007);
    const end = Date.now() + 20_000;
    for (;;) {
      try {
        await enter(board, later);
        break;
      } catch (err) {
        if (Date.now() > end) throw err;
        await sleep(200);
      }
    }
    later.history();
    await eventually(() => later.pages.length === 1, 10_000, 25, 'condition');
    expect(later.pages[0]!.messages.at(-1)!.text).toBe('before the restart');
    expect(later.pages[0]!.messages.at(-1)!.id).toBe(owner.chat[0]!.id);
  }, 60_000);

  it('C9: a purged board’s chat is deleted', async () => {
    const board = `purge${Date.now()}`;
    const store = new PgChatStore(pool);
    await store.insert(board, 1, 'x', 'to be purged');
    const p = new BoardPurgedProcessor(
      { dropPurged: () => undefined },
      { delete: async () => {}, deleteBoard: async () => {} },
      () => {},
    );
    await withTransaction(pool, (c) =>
      p.handle(
        {
          id: `boards:1`,
          type: 'boards.board.purged.v1',
          occurredAt: new Date().toISOString(),
          data: { boardId: board, ownerId: 1, reason: 'owner' },
        },
        c,
      ),
    );
    expect((await store.page(board, undefined, 10)).messages).toHaveLength(0);
  });
});
