/**
 * The real websocket endpoint on loopback with an in-memory room (no database, no NATS): the
 * presence name rules (A6), sockets of ended sessions (A5) and the listening interface (A1).
 */
import { networkInterfaces } from 'node:os';
import { encodeListFrame, MSG, RT_CLOSE } from '@wb/proto';
import type { AccessCheckReply } from '@wb/proto';
import { A } from '../doc/automerge';
import { Room } from '../room/room';
import type { RoomManager } from '../room/manager';
import { freshBoardHandle, MemoryJournal, silentLogger } from '../testing/fakes';
import { addShape, penStroke, TestClient } from '../testing/client';
import { connectClient } from '../testing/wsClient';
import type { WsConnection } from '../testing/wsClient';
import { signActor } from './actor';
import { SessionGuard } from './sessions';
import { guestName, SESSION_ENDED_REASON, startWsServer } from './wsServer';
import type { RunningWsServer } from './wsServer';
import { eventually, sleep } from '@wb/platform/testing';

const SECRET = 'ws-server-test-shared-secret-0123456789';

let server: RunningWsServer;
let room: Room;
let journal: MemoryJournal;
let sessions: SessionGuard;
/** sessions the periodic check finds ended (what auth and the session cache would say) */
let endedSessions: Set<string>;
let ticker: NodeJS.Timeout;
const clock = { now: () => Date.now() };

beforeEach(async () => {
  journal = new MemoryJournal();
  room = new Room({
    boardId: 'b1',
    ownerId: 1,
    deleteOwnOnly: false,
    handle: freshBoardHandle(),
    journal,
    clock,
    log: silentLogger(),
  });
  ticker = setInterval(() => {
    room.tick();
    void room.flushPersist();
  }, 10);
  endedSessions = new Set();
  sessions = new SessionGuard({
    clock,
    log: silentLogger(),
    validity: { ended: async (ids) => ids.filter((id) => endedSessions.has(id)) },
  });
  const manager = { open: async () => ({ kind: 'open', room: { room } }) } as unknown as RoomManager;
  const reply = (userId: number): AccessCheckReply =>
    ({
      access: userId === 1 ? 'own' : 'edit',
      readOnlyReason: null,
      board: { ownerId: 1, deleteOwnOnly: false },
    }) as unknown as AccessCheckReply;
  server = await startWsServer({
    port: 0,
    host: '127.0.0.1',
    manager,
    access: { check: async (_b, actor) => reply(actor.userId) },
    secret: SECRET,
    allowedOrigins: [],
    sessions,
    clock,
    log: silentLogger(),
  });
});
afterEach(async () => {
  clearInterval(ticker);
  await server.close();
  room.dispose();
});

const url = () => `ws://127.0.0.1:${server.port}`;
function connect(client: TestClient, actor: { userId: number; name?: string; sessionId?: string }) {
  return connectClient(url(), 'b1', client, { secret: SECRET, actorHeader: signActor(SECRET, actor, Date.now()) });
}
async function joined(client: TestClient, actor: Parameters<typeof connect>[1]): Promise<WsConnection> {
  const conn = await connect(client, actor);
  await eventually(() => client.inSync, 5000, 25, 'in sync');
  return conn;
}
const nameOf = (client: TestClient, userId: number) => client.presence.find((p) => p.userId === userId)?.name;

describe('websocket server', () => {
  it('A7: listens on the interface it is given (loopback with the development secret)', async () => {
    const c = await joined(new TestClient(5), { userId: 5, sessionId: 'f'.repeat(64) });
    c.close();
    // not reachable on this machine's other addresses (when it has any)
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    if (external) {
      await expect(
        connectClient(`ws://${external}:${server.port}`, 'b1', new TestClient(5), { secret: SECRET, timeoutMs: 1000 }),
      ).rejects.toThrow();
    }
  });

  it('A6: a signed-in user is shown with the signed name whatever HELLO says; only guests choose', async () => {
    const teacher = new TestClient(5, 'Teacher (owner)');
    const c1 = await joined(teacher, { userId: 5, name: 'Ann Smith', sessionId: 'a'.repeat(64) });
    expect(nameOf(teacher, 5)).toBe('Ann Smith');
    // a HELLO name longer than a guest's does not matter for a signed-in user
    const long = new TestClient(6, 'x'.repeat(100));
    const c2 = await joined(long, { userId: 6, sessionId: 'b'.repeat(64) });
    expect(nameOf(long, 6)).toBe('User 6'); // no name signed: a neutral one, never HELLO's
    const guest = new TestClient(0, '  Max  ');
    const c3 = await joined(guest, { userId: 0 });
    expect(nameOf(guest, 0)).toBe('Max');
    for (const bad of ['Eve\u0007', 'Bob\u202e', 'x'.repeat(61), '   ']) {
      const c = await connect(new TestClient(0, bad), { userId: 0 });
      expect((await c.closed).code).toBe(RT_CLOSE.MALFORMED);
    }
    for (const c of [c1, c2, c3]) c.close();
  });

  it('L3/A6: guest names are trimmed, 1–60 characters, without control or bidi characters', () => {
    expect(guestName(undefined)).toBe('Guest');
    expect(guestName(' Zoë 🎨 ')).toBe('Zoë 🎨');
    expect(guestName('a\nb')).toBeNull();
    expect(guestName('\u2066x')).toBeNull();
    expect(guestName('x'.repeat(60))).toHaveLength(60);
  });

  it('A5: a revoked session’s sockets are closed with 4401 at once; what they send after is not applied', async () => {
    const sid = 'c'.repeat(64);
    const a = new TestClient(5);
    const other = new TestClient(6);
    const ca = await joined(a, { userId: 5, name: 'Ann', sessionId: sid });
    const c2 = await joined(other, { userId: 6, name: 'Bob', sessionId: 'd'.repeat(64) });
    a.edit((d) => addShape(d, 'before', penStroke('before', 5, [1, 1])));
    await eventually(() => a.pending.size === 0, 5000, 25, 'saved');
    let closedAt = 0;
    const closed = ca.closed.then((c) => {
      closedAt = Date.now();
      return c;
    });
    const t0 = Date.now();
    expect(sessions.revoke([sid])).toBe(1);
    // a change sent right after the revocation, before the close reached the client
    const late = A.change(A.clone(a.doc), (d) => addShape(d, 'after', penStroke('after', 5, [2, 2])));
    ca.ws.send(encodeListFrame(MSG.CHANGES, [A.getLastLocalChange(late)!]));
    expect(await closed).toEqual({ code: RT_CLOSE.UNAUTHENTICATED, reason: SESSION_ENDED_REASON });
    expect(closedAt - t0).toBeLessThan(1000);
    await sleep(100);
    expect(journal.entries).toHaveLength(1);
    expect(other.shapeIds()).toEqual(['before']);
    // a header signed before the revocation cannot open a new socket
    const again = await connect(new TestClient(5), { userId: 5, sessionId: sid });
    expect((await again.closed).code).toBe(RT_CLOSE.UNAUTHENTICATED);
    expect(c2.ws.readyState).toBe(c2.ws.OPEN); // other sessions are untouched
    c2.close();
  });

  it('A5: the periodic check closes a session whose revocation broadcast was lost', async () => {
    const sid = 'e'.repeat(64);
    const client = new TestClient(7);
    const conn = await joined(client, { userId: 7, sessionId: sid });
    let closedWith: number | null = null;
    void conn.closed.then((c) => (closedWith = c.code));
    await sessions.sweep();
    expect(closedWith).toBeNull();
    endedSessions.add(sid); // auth removed it from the cache; the broadcast never arrived
    await sessions.sweep();
    await eventually(() => closedWith !== null, 1000, 25, 'closed by the sweep');
    expect(closedWith).toBe(RT_CLOSE.UNAUTHENTICATED);
    expect(sessions.size).toBe(0);
  });
});
