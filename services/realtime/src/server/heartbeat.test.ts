/**
 * The heartbeat of the real websocket endpoint (SPEC K1, K2) on loopback with an in-memory room:
 * a frozen socket (its reader paused: it answers no ping, as a half-open TCP connection or a
 * frozen tab) is dropped within two rounds and leaves everyone else's presence; an idle but
 * healthy one is kept; a client's PING gets a PONG.
 */
import type { Socket } from 'node:net';
import { MSG } from '@wb/proto';
import type { AccessCheckReply } from '@wb/proto';
import { eventually, sleep } from '@wb/platform/testing';
import { Room } from '../room/room';
import type { RoomManager } from '../room/manager';
import { freshBoardHandle, MemoryJournal, silentLogger } from '../testing/fakes';
import { TestClient } from '../testing/client';
import { connectClient } from '../testing/wsClient';
import type { WsConnection } from '../testing/wsClient';
import { signActor } from './actor';
import { startWsServer } from './wsServer';
import type { RunningWsServer } from './wsServer';

const SECRET = 'heartbeat-test-shared-secret-0123456789';
const ROUND_MS = 250;

let server: RunningWsServer;
let room: Room;
let ticker: NodeJS.Timeout;
let dropped = 0;
const clock = { now: () => Date.now() };

beforeEach(async () => {
  dropped = 0;
  room = new Room({
    boardId: 'b1',
    ownerId: 1,
    deleteOwnOnly: false,
    handle: freshBoardHandle(),
    journal: new MemoryJournal(),
    clock,
    log: silentLogger(),
  });
  ticker = setInterval(() => {
    room.tick();
    void room.flushPersist();
  }, 10);
  const manager = { open: async () => ({ kind: 'open', room: { room } }) } as unknown as RoomManager;
  server = await startWsServer({
    port: 0,
    host: '127.0.0.1',
    manager,
    access: {
      check: async () =>
        ({
          access: 'edit',
          readOnlyReason: null,
          board: { ownerId: 1, deleteOwnOnly: false },
        }) as unknown as AccessCheckReply,
    },
    secret: SECRET,
    allowedOrigins: [],
    clock,
    log: silentLogger(),
    heartbeatMs: ROUND_MS,
    heartbeatMetrics: { silentDropped: () => void dropped++ },
  });
});
afterEach(async () => {
  clearInterval(ticker);
  await server.close();
  room.dispose();
});

async function joined(client: TestClient): Promise<WsConnection> {
  const conn = await connectClient(`ws://127.0.0.1:${server.port}`, 'b1', client, {
    secret: SECRET,
    actorHeader: signActor(SECRET, { userId: client.userId }, Date.now()),
  });
  await eventually(() => client.inSync, 5000, 25, 'in sync');
  return conn;
}
const present = (c: TestClient) => c.presence.map((p) => p.userId).sort();

describe('heartbeat (SPEC K1, K2)', () => {
  it('K1: a frozen socket is dropped within two rounds and leaves the others’ presence', async () => {
    const teacher = new TestClient(1);
    const student = new TestClient(2);
    const t = await joined(teacher);
    const s = await joined(student);
    await eventually(() => present(teacher).join() === '1,2', 2000, 10, 'both present');
    // the student's connection freezes: nothing it receives is read, so no pong goes back
    const frozenAt = Date.now();
    (s.ws as unknown as { _socket: Socket })._socket.pause();
    await eventually(() => present(teacher).join() === '1', 2 * ROUND_MS + 2000, 10, 'student dropped');
    const tookMs = Date.now() - frozenAt;
    expect(tookMs).toBeLessThanOrEqual(2 * ROUND_MS + 500); // two rounds, and a loaded machine
    expect(dropped).toBe(1);
    expect(server.connections()).toBe(1);
    t.close();
    s.ws.terminate();
  });

  it('K1: an idle socket that answers pings stays (several rounds, nothing sent)', async () => {
    const teacher = new TestClient(1);
    const student = new TestClient(2);
    const t = await joined(teacher);
    const s = await joined(student);
    await sleep(ROUND_MS * 5);
    expect(present(teacher)).toEqual([1, 2]);
    expect(dropped).toBe(0);
    expect(server.connections()).toBe(2);
    t.close();
    s.close();
  });

  it('K2: PING is answered with PONG, before the join is done too, and changes nothing else', async () => {
    const client = new TestClient(2);
    const c = await joined(client);
    const presenceBefore = client.presence;
    client.sendRaw(new Uint8Array([MSG.PING]));
    client.sendRaw(new Uint8Array([MSG.PING]));
    await eventually(() => client.pongs === 2, 2000, 10, 'two pongs');
    expect(client.presence).toBe(presenceBefore);
    expect(server.connections()).toBe(1);
    c.close();
  });
});
