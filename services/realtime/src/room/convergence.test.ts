/**
 * Property (SPEC S1–S5, P1–P4, J5): several clients edit at random while their frames are
 * delivered late, duplicated, reordered or lost with the connection, clients reconnect and the
 * node restarts from what it persisted (snapshot + journal). After everyone reconnects and the
 * network settles, every client, the server and a fresh load of the persisted board have the same
 * heads, and every change any client made is in it.
 */
import fc from 'fast-check';
import { MSG, splitFrame } from '@wb/proto';
import { genesisChange, loadHandle, newHandle } from '../doc/automerge';
import type { Handle } from '../doc/automerge';
import { Room } from './room';
import type { JournalEntry, Peer, RoomJournal } from './room';
import { FakeClock, FakeSocket, silentLogger } from '../testing/fakes';
import { addShape, deleteShape, penStroke, TestClient } from '../testing/client';

/** what the node persisted: last snapshot + journal entries after it */
class Persisted implements RoomJournal {
  snapshot: Uint8Array | null = null;
  entries: JournalEntry[] = [];
  async append(entries: JournalEntry[]): Promise<void> {
    this.entries.push(...entries);
  }
  load(): Handle {
    const h = this.snapshot ? loadHandle(this.snapshot) : newHandle();
    if (!this.snapshot) h.applyChanges([genesisChange()]);
    h.applyChanges(this.entries.map((e) => e.bytes));
    return h;
  }
}

interface Conn {
  client: TestClient;
  peer: Peer | null;
  socket: FakeSocket | null;
  up: Uint8Array[];
  down: Uint8Array[];
}

type Action =
  | { t: 'add'; c: number }
  | { t: 'move'; c: number; k: number }
  | { t: 'del'; c: number; k: number }
  | { t: 'up'; c: number; mode: 'deliver' | 'dup' | 'swap' }
  | { t: 'down'; c: number }
  | { t: 'drop'; c: number }
  | { t: 'reconnect'; c: number }
  | { t: 'tick' }
  | { t: 'persist' }
  | { t: 'snapshot' }
  | { t: 'restart' };

const N = 3;
const c = fc.integer({ min: 0, max: N - 1 });
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: c.map((i) => ({ t: 'add' as const, c: i })) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('move' as const), c, k: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('del' as const), c, k: fc.nat(20) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('up' as const),
      c,
      mode: fc.constantFrom('deliver' as const, 'deliver' as const, 'dup' as const, 'swap' as const),
    }),
  },
  { weight: 6, arbitrary: c.map((i) => ({ t: 'down' as const, c: i })) },
  { weight: 1, arbitrary: c.map((i) => ({ t: 'drop' as const, c: i })) },
  { weight: 1, arbitrary: c.map((i) => ({ t: 'reconnect' as const, c: i })) },
  { weight: 3, arbitrary: fc.constant({ t: 'tick' as const }) },
  { weight: 2, arbitrary: fc.constant({ t: 'persist' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'snapshot' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'restart' as const }) },
);

async function run(actions: Action[]): Promise<void> {
  const persisted = new Persisted();
  const clock = new FakeClock();
  const log = silentLogger();
  const makeRoom = (): Room =>
    new Room({
      boardId: 'p',
      ownerId: 100,
      deleteOwnOnly: false,
      handle: persisted.load(),
      journal: persisted,
      clock,
      log,
    });
  let room = makeRoom();
  let nextShape = 0;
  const conns: Conn[] = Array.from({ length: N }, (_, i) => ({
    client: new TestClient(i + 1),
    peer: null,
    socket: null,
    up: [],
    down: [],
  }));

  const connect = (k: Conn): void => {
    const socket = new FakeSocket();
    k.socket = socket;
    k.up = [];
    k.down = [];
    socket.onSend = (f) => k.down.push(f);
    k.client.attach((f) => {
      if (splitFrame(f).type !== MSG.HELLO) k.up.push(f);
    });
    k.peer = room.join(socket, {
      userId: k.client.userId,
      name: 'x',
      guest: false,
      access: 'edit',
      readOnlyReason: null,
    });
  };
  const disconnect = (k: Conn): void => {
    if (k.peer) room.leave(k.peer);
    k.client.detach();
    k.peer = null;
    k.socket = null;
    k.up = [];
    k.down = [];
  };
  const deliverUp = (k: Conn): void => {
    const f = k.up.shift();
    if (f && k.peer && !k.peer.closed) room.receive(k.peer, f);
  };
  const deliverDown = (k: Conn): void => {
    const f = k.down.shift();
    if (f) k.client.receive(f);
  };
  const shapesOf = (k: Conn): string[] => k.client.shapeIds();

  for (const k of conns) connect(k);
  // J5: a client edits only once it has the board (the genesis came with its first sync)
  const loaded = (i: number): boolean => Boolean((conns[i]!.client.doc as { shapes?: unknown }).shapes);
  for (const a of actions) {
    if ((a.t === 'add' || a.t === 'move' || a.t === 'del') && !loaded(a.c)) continue;
    switch (a.t) {
      case 'add': {
        const id = `s${nextShape++}`;
        conns[a.c]!.client.edit((d) => addShape(d, id, penStroke(id, a.c + 1, [1, 2, 3, 4])));
        break;
      }
      case 'move': {
        const ids = shapesOf(conns[a.c]!);
        if (!ids.length) break;
        const id = ids[a.k % ids.length]!;
        conns[a.c]!.client.edit((d) => {
          const s = d.shapes[Object.keys(d.shapes).find((b) => d.shapes[b][id])!][id];
          s.x = a.k;
        });
        break;
      }
      case 'del': {
        const ids = shapesOf(conns[a.c]!);
        if (ids.length) conns[a.c]!.client.edit((d) => deleteShape(d, ids[a.k % ids.length]!));
        break;
      }
      case 'up': {
        const k = conns[a.c]!;
        if (a.mode === 'swap' && k.up.length >= 2) [k.up[0], k.up[1]] = [k.up[1]!, k.up[0]!];
        if (a.mode === 'dup' && k.up.length) k.up.unshift(k.up[0]!);
        deliverUp(k);
        break;
      }
      case 'down':
        deliverDown(conns[a.c]!);
        break;
      case 'drop':
        disconnect(conns[a.c]!);
        break;
      case 'reconnect':
        disconnect(conns[a.c]!);
        connect(conns[a.c]!);
        break;
      case 'tick':
        room.tick();
        break;
      case 'persist':
        await room.flushPersist();
        break;
      case 'snapshot':
        await room.drain();
        persisted.snapshot = room.handle.save();
        persisted.entries = [];
        break;
      case 'restart':
        // crash: whatever was not persisted is gone from the server; clients must re-send it
        for (const k of conns) disconnect(k);
        room = makeRoom();
        break;
    }
  }

  // settle: everyone reconnects, deliver everything until quiet
  for (const k of conns) {
    disconnect(k);
    connect(k);
  }
  for (let round = 0; round < 200; round++) {
    let moved = false;
    for (const k of conns) {
      while (k.up.length || k.down.length) {
        moved = true;
        deliverUp(k);
        deliverDown(k);
      }
    }
    room.tick();
    await room.flushPersist();
    for (const k of conns) if (k.down.length || k.up.length) moved = true;
    if (!moved && conns.every((k) => k.client.inSync && k.client.pending.size === 0)) break;
  }

  const serverHeads = room.handle.getHeads().slice().sort();
  for (const k of conns) {
    expect(k.client.inSync).toBe(true);
    expect(k.client.pending.size).toBe(0);
    expect(k.client.errors).toEqual([]);
    expect(k.client.heads()).toEqual(serverHeads);
    for (const h of k.client.made) expect(room.handle.getChangeByHash(h)).not.toBeNull();
  }
  expect(persisted.load().getHeads().slice().sort()).toEqual(serverHeads);
}

describe('convergence (property)', () => {
  it('S1–S5/P1–P4: random edits, lossy delivery, reconnects and restarts converge to what is persisted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 60 }), async (actions) => run(actions)),
      { numRuns: 30, seed: 20261121 },
    );
  }, 60_000);
});
