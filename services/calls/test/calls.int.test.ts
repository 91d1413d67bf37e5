/**
 * The calls service through NATS against a real Janus on loopback (signalling works there; only
 * media needs a network namespace, see calls.media.int.test.ts), with the real NATS (and the
 * stack's PostgreSQL/Redis, unused by this service). The other parties are played by this test on
 * the stack's prefix: auth (`plan.get`, `users.names`) and boards (`access.check` from a table).
 * Browsers are played by JanusTestClient, which speaks the Janus API as a browser does.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { connectBus, createLogger } from '@wb/platform';
import type { Bus, RunningService } from '@wb/platform';
import { eventually, startStack } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';
import { AppError, CALL_JANUS_PATH, PLANS } from '@wb/proto';
import type { BoardAccess, CallJoinReply, Plan } from '@wb/proto';
import { roomIdOf, signJanusToken, verifyJanusToken } from '../src/janus/tokens';
import { startFakeParties } from '../src/testing/fakeParties';
import { startJanus } from '../src/testing/janus';
import type { StartedJanus } from '../src/testing/janus';
import { JanusRequestError, JanusTestClient } from '../src/testing/janusClient';

const log = createLogger({ service: 'test', level: 'silent' });
const TURN_SECRET = 'turn-secret-for-the-test-0123456789';

let janus: StartedJanus;
let stack: RunningStack;
let bus: Bus;
const fakes: RunningService[] = [];
const clients: JanusTestClient[] = [];

/** plans by user id (auth's plan.get); starter unless set */
const plans = new Map<number, Plan>();
/** boards by id: owner, the access of each user, and whether guests (user 0) may open it */
const boards = new Map<string, { ownerId: number; access: Record<number, BoardAccess>; guests?: boolean }>();

function serviceEnv(j: StartedJanus): Record<string, string> {
  return {
    JANUS_WS_URL: j.wsUrl,
    JANUS_API_SECRET: j.secrets.apiSecret,
    JANUS_TOKEN_SECRET: j.secrets.tokenSecret,
    JANUS_ADMIN_SECRET: j.secrets.adminSecret,
    JANUS_REQUEST_TIMEOUT_MS: '2000',
    CALL_ROOM_IDLE_MS: '1500',
    CALL_SWEEP_EVERY_MS: '300',
    PLAN_CACHE_TTL_MS: '0',
    STUN_URLS: 'stun:127.0.0.1:3478',
    TURN_URLS: 'turn:127.0.0.1:3478?transport=udp',
    TURN_SECRET,
  };
}

beforeAll(async () => {
  janus = await startJanus();
  stack = await startStack({ deployables: ['services/calls'], env: serviceEnv(janus) });
  bus = await connectBus({
    url: stack.env.NATS_URL!,
    prefix: stack.natsPrefix,
    name: 'test',
    log,
    ensureStream: false,
  });
  fakes.push(
    ...(await startFakeParties(bus, log, {
      plan: (userId) => plans.get(userId) ?? PLANS.starter,
      access: (boardId, uid) => {
        const b = boards.get(boardId);
        if (!b) return null;
        const access: BoardAccess =
          b.ownerId === uid ? 'own' : uid === 0 ? (b.guests ? 'view' : 'none') : (b.access[uid] ?? 'none');
        return { ownerId: b.ownerId, access };
      },
    })),
  );
}, 90_000);

afterAll(async () => {
  for (const c of clients) c.close();
  for (const f of fakes) await f.stop();
  await bus?.drain();
  await stack?.stop();
  await janus?.stop();
});

// ---------------------------------------------------------------------------------------------
// helpers

let nextUser = 100;
let nextBoard = 0;
function user(plan: Plan = PLANS.standard): number {
  const id = ++nextUser;
  plans.set(id, plan);
  return id;
}
/** a board owned by a new user on `plan`, with an editor and a viewer */
function board(plan: Plan = PLANS.standard, guests = false) {
  const owner = user(plan);
  const editor = user(PLANS.starter);
  const viewer = user(PLANS.starter);
  const id = `call-board-${++nextBoard}-${Date.now()}`;
  boards.set(id, { ownerId: owner, access: { [editor]: 'edit', [viewer]: 'view' }, guests });
  return { id, owner, editor, viewer };
}

async function call<T = unknown>(op: string, input: unknown, userId: number): Promise<T> {
  return (await bus.request<T>('calls', op, input, { userId })).data;
}
const join = (boardId: string, userId: number, extra: object = {}) =>
  call<CallJoinReply>('join', { boardId, ...extra }, userId);
async function codeOf(op: string, input: unknown, userId: number): Promise<string> {
  try {
    await call(op, input, userId);
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
  return 'OK';
}

async function client(): Promise<JanusTestClient> {
  const c = await JanusTestClient.open(janus.wsUrl);
  clients.push(c);
  return c;
}

/** what a browser does with a join reply: session, VideoRoom handle, join the room as a participant */
async function enter(reply: Pick<CallJoinReply, 'room' | 'token'>, display = 'someone') {
  const c = await client();
  const session = await c.createSession(reply.token);
  const handle = await c.attach(session, reply.token);
  const joined = await c.message(
    session,
    handle,
    { request: 'join', ptype: 'publisher', room: reply.room, display, token: reply.token },
    reply.token,
  );
  return { c, session, handle, joined: joined.data };
}

/** the service's view of Janus (API secret): does the room exist? */
async function roomExists(room: number): Promise<boolean> {
  const c = await client();
  const s = await c.send({ janus: 'create', apisecret: janus.secrets.apiSecret });
  const h = await c.send({
    janus: 'attach',
    session_id: s.data!.id,
    plugin: 'janus.plugin.videoroom',
    apisecret: janus.secrets.apiSecret,
  });
  const r = await c.send({
    janus: 'message',
    session_id: s.data!.id,
    handle_id: h.data!.id,
    body: { request: 'exists', room },
    apisecret: janus.secrets.apiSecret,
  });
  c.close();
  return r.plugindata?.data.exists === true;
}

// ---------------------------------------------------------------------------------------------

describe('join: who may join, and what they get', () => {
  it('the owner hosts: a token for the board’s room, the gateway path, STUN and TURN credentials', async () => {
    const b = board();
    const before = Date.now();
    const r = await join(b.id, b.owner);
    expect(r.role).toBe('host');
    expect(r.display).toBe(`Person ${b.owner}`);
    expect(r.room).toBe(roomIdOf(b.id));
    expect(r.janusUrl).toBe(CALL_JANUS_PATH);
    expect(verifyJanusToken(janus.secrets.tokenSecret, r.token, Date.now())).toBe(true);
    const expires = Date.parse(r.expiresAt);
    expect(expires).toBeGreaterThan(before + 9 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 10 * 60_000);
    expect(r.iceServers[0]).toEqual({ urls: ['stun:127.0.0.1:3478'] });
    const turn = r.iceServers[1]!;
    expect(turn.urls).toEqual(['turn:127.0.0.1:3478?transport=udp']);
    expect(turn.username).toBe(`${Math.floor(expires / 1000)}:u${b.owner}`);
    expect(turn.credential).toBe(createHmac('sha1', TURN_SECRET).update(turn.username!).digest('base64'));
  });

  it('editors, viewers and the board’s guests are members; a guest shows the name they chose', async () => {
    const b = board(PLANS.premium, true);
    expect((await join(b.id, b.editor)).role).toBe('member');
    expect((await join(b.id, b.viewer)).role).toBe('member');
    const guest = await join(b.id, 0, { name: '  Ada  ' });
    expect(guest).toMatchObject({ role: 'member', display: 'Ada', room: roomIdOf(b.id) });
    expect((await join(b.id, 0)).display).toBe('Guest');
    // a signed-in user cannot pick another name
    expect((await join(b.id, b.editor, { name: 'Someone else' })).display).toBe(`Person ${b.editor}`);
  });

  it('refuses people without access, guests the board does not admit, and unknown boards', async () => {
    const b = board();
    expect(await codeOf('join', { boardId: b.id }, user())).toBe('ERR_FORBIDDEN');
    expect(await codeOf('join', { boardId: b.id }, 0)).toBe('ERR_FORBIDDEN');
    expect(await codeOf('join', { boardId: 'no-such-board' }, b.owner)).toBe('ERR_BOARD_NOT_FOUND');
  });

  it('refuses on a board whose owner’s plan has no `call` with the upgrade code, for owner and members', async () => {
    const b = board(PLANS.starter);
    expect(await codeOf('join', { boardId: b.id }, b.owner)).toBe('ERR_FEATURE_NOT_ENABLED');
    expect(await codeOf('join', { boardId: b.id }, b.editor)).toBe('ERR_FEATURE_NOT_ENABLED');
    // the owner upgrades: calls work at once (no cached plan here)
    plans.set(b.owner, PLANS.standard);
    expect((await join(b.id, b.owner)).role).toBe('host');
  });

  it('answers malformed input with ERR_INVALID_INPUT', async () => {
    const b = board();
    expect(await codeOf('join', { boardId: '' }, b.owner)).toBe('ERR_INVALID_INPUT');
    expect(await codeOf('join', { boardId: b.id, extra: 1 }, b.owner)).toBe('ERR_INVALID_INPUT');
    expect(await codeOf('join', { boardId: b.id, name: 'x'.repeat(61) }, 0)).toBe('ERR_INVALID_INPUT');
    expect(await codeOf('muteAll', { boardId: b.id, keep: ['a'] }, b.owner)).toBe('ERR_INVALID_INPUT');
  });
});

describe('Janus accepts exactly the tokens handed out', () => {
  it('a joined client attaches to the VideoRoom and joins its board’s room with its token', async () => {
    const b = board();
    const r = await join(b.id, b.owner);
    const { joined, c, session } = await enter(r, 'Teacher');
    expect(joined).toMatchObject({ videoroom: 'joined', room: r.room });
    expect((await c.keepalive(session, r.token)).janus).toBe('ack');
    // a refreshed token (joining again) is accepted in the same session from then on
    const again = await join(b.id, b.owner);
    expect(again.room).toBe(r.room);
    expect((await c.keepalive(session, again.token)).janus).toBe('ack');
  });

  it('without a token Janus refuses every request', async () => {
    const c = await client();
    await expect(c.createSession()).rejects.toMatchObject({ code: 403 });
    // a session made with a token cannot be used without one either
    const b = board();
    const r = await join(b.id, b.owner);
    const session = await c.createSession(r.token);
    expect((await c.keepalive(session)).error?.code).toBe(403);
    await expect(c.attach(session, undefined)).rejects.toMatchObject({ code: 403 });
    // nor with a token signed with another secret
    const forged = signJanusToken('not-the-secret-at-all-0123456789', Date.now() + 60_000);
    await expect(c.createSession(forged)).rejects.toBeInstanceOf(JanusRequestError);
  });

  it('another board’s token does not open this board’s room', async () => {
    const a = board();
    const b = board();
    const ra = await join(a.id, a.owner);
    const rb = await join(b.id, b.owner);
    const c = await client();
    const session = await c.createSession(rb.token);
    const handle = await c.attach(session, rb.token);
    const r = await c.message(
      session,
      handle,
      { request: 'join', ptype: 'publisher', room: ra.room, display: 'intruder', token: rb.token },
      rb.token,
    );
    expect(r.data.error_code).toBe(433); // not in the allowed list
    // nor can the room be made or changed by a browser (admin_key and the room secret are server-only)
    const create = await c.message(session, handle, { request: 'create', room: 777 }, rb.token);
    expect(create.data.error_code).toBeDefined();
    const allow = await c.message(
      session,
      handle,
      { request: 'allowed', room: ra.room, action: 'add', allowed: [rb.token] },
      rb.token,
    );
    expect(allow.data.error_code).toBeDefined();
  });

  it('an expired token is refused, even when it was on the room’s list', async () => {
    const b = board();
    const r = await join(b.id, b.owner);
    const expired = signJanusToken(janus.secrets.tokenSecret, Date.now() - 1000);
    const c = await client();
    await expect(c.createSession(expired)).rejects.toMatchObject({ code: 403 });
    const session = await c.createSession(r.token);
    expect((await c.keepalive(session, expired)).error?.code).toBe(403);
    // a token that expires in 1.5 s works now and not after
    const short = signJanusToken(janus.secrets.tokenSecret, Date.now() + 1500);
    expect((await c.keepalive(session, short)).janus).toBe('ack');
    await new Promise((resolve) => setTimeout(resolve, 2600));
    expect((await c.keepalive(session, short)).error?.code).toBe(403);
  });
});

describe('rooms', () => {
  it('mute-all is for the host only; with nobody publishing it mutes nobody', async () => {
    const b = board();
    await join(b.id, b.owner);
    expect(await codeOf('muteAll', { boardId: b.id }, b.editor)).toBe('ERR_FORBIDDEN');
    expect(await codeOf('muteAll', { boardId: b.id }, user())).toBe('ERR_FORBIDDEN');
    expect(await codeOf('muteAll', { boardId: 'no-such-board' }, b.owner)).toBe('ERR_BOARD_NOT_FOUND');
    expect(await call('muteAll', { boardId: b.id }, b.owner)).toEqual({ muted: 0 });
  });

  it('a room is destroyed once it has been empty for CALL_ROOM_IDLE_MS, and made again on the next join', async () => {
    const b = board();
    const r = await join(b.id, b.owner);
    const { c } = await enter(r);
    expect(await roomExists(r.room)).toBe(true);
    // someone in it: it stays well past the idle time
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await roomExists(r.room)).toBe(true);
    c.close(); // the browser goes: Janus ends its session and the participant leaves
    await eventually(async () => !(await roomExists(r.room)), 15_000, 200);
    const again = await join(b.id, b.owner);
    expect(again.room).toBe(r.room);
    expect((await enter(again)).joined).toMatchObject({ videoroom: 'joined' });
  });
});

describe('Janus down', () => {
  it('answers 503 ERR_SERVICE_UNAVAILABLE (not 500), and works again once Janus is back', async () => {
    const b = board();
    const ports = janus.ports;
    const secrets = janus.secrets;
    await janus.stop();
    expect(await codeOf('join', { boardId: b.id }, b.owner)).toBe('ERR_SERVICE_UNAVAILABLE');
    // refusals that need no Janus still come first
    expect(await codeOf('join', { boardId: b.id }, user())).toBe('ERR_FORBIDDEN');
    janus = await startJanus({ ports, secrets });
    await eventually(async () => (await codeOf('join', { boardId: b.id }, b.owner)) === 'OK', 20_000, 250);
    expect((await join(b.id, b.owner)).role).toBe('host');
  });
});
