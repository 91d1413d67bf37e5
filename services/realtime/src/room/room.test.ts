import {
  AVATAR_COLORS,
  avatarColor,
  bucketOf,
  encodeJsonFrame,
  encodeListFrame,
  EPHEMERAL_KIND,
  MSG,
  RT_CLOSE,
  RT_LIMITS,
  splitFrame,
} from '@wb/proto';
import type { BoardBackground } from '@wb/proto';
import { A } from '../doc/automerge';
import { Room } from './room';
import type { PeerIdentity } from './room';
import { FakeClock, FakeSocket, freshBoardHandle, MemoryJournal, silentLogger } from '../testing/fakes';
import { renderSnapshotOf, type RenderSnapshotMaker } from '../doc/renderSnapshot';
import { addShape, deleteShape, penStroke, TestClient } from '../testing/client';

/** a sticky note record as the web writes it (its text is collaborative) */
const stickyRecord = (creator: number): Record<string, unknown> => ({
  kind: new A.ImmutableString('sticky'),
  creator,
  z: new A.ImmutableString('a1'),
  x: 0,
  y: 0,
  w: 200,
  h: 200,
  color: 0xffee88,
});

const editor = (userId: number): PeerIdentity => ({
  userId,
  name: `u${userId}`,
  guest: false,
  access: 'edit',
  readOnlyReason: null,
});

function setup(
  opts: { deleteOwnOnly?: boolean; title?: string; background?: BoardBackground; renders?: RenderSnapshotMaker } = {},
) {
  const journal = new MemoryJournal();
  const clock = new FakeClock();
  const room = new Room({
    boardId: 'b1',
    ownerId: 1,
    deleteOwnOnly: opts.deleteOwnOnly ?? false,
    title: opts.title,
    background: opts.background,
    handle: freshBoardHandle(),
    journal,
    clock,
    log: silentLogger(),
    renders: opts.renders,
  });
  /** connect a TestClient through a fake socket; frames are delivered synchronously */
  const connect = (client: TestClient, identity: PeerIdentity, observe?: (frame: Uint8Array) => void) => {
    const socket = new FakeSocket();
    socket.onSend = (f) => {
      observe?.(f);
      client.receive(f);
    };
    const ref: { peer?: ReturnType<Room['join']> } = {};
    const queue: Uint8Array[] = [];
    client.attach((f) => {
      if (!ref.peer)
        queue.push(f); // HELLO is handled by the server layer, not the room
      else room.receive(ref.peer, f);
    });
    const hello = splitFrame(queue.find((f) => splitFrame(f).type === MSG.HELLO)!).payload;
    const { fresh, render } = JSON.parse(Buffer.from(hello).toString()) as { fresh?: boolean; render?: boolean };
    const peer = room.join(socket, identity, { fresh: fresh === true, render: render === true });
    ref.peer = peer;
    for (const f of queue.splice(0)) if (splitFrame(f).type !== MSG.HELLO) room.receive(peer, f);
    return { socket, peer };
  };
  /** run ticks until nothing moves (sync rounds are synchronous with fake sockets) */
  const settle = async () => {
    for (let i = 0; i < 5; i++) {
      room.tick();
      await room.flushPersist();
    }
  };
  return { room, journal, clock, connect, settle };
}

describe('Room', () => {
  it('a signed-in peer keeps their colour across reconnects, whoever joined before (issue 26 #15)', () => {
    const { room, connect } = setup();
    const first = connect(new TestClient(7), editor(7)).peer;
    expect(first.color).toBe(avatarColor(7));
    room.leave(first);
    for (const other of [3, 4, 5]) connect(new TestClient(other), editor(other));
    const again = connect(new TestClient(7), editor(7)).peer;
    expect(again.id).not.toBe(first.id);
    expect(again.color).toBe(avatarColor(7));
    // a guest has no id: a colour of the same palette, by arrival
    const guest = connect(new TestClient(0), { ...editor(0), guest: true, name: 'Guest' }).peer;
    expect(AVATAR_COLORS).toContain(guest.color);
  });

  it('J2/S1/S2: a joining client catches up by sync and is marked in sync', async () => {
    const { connect, settle } = setup();
    const a = new TestClient(1);
    connect(a, editor(1));
    await settle();
    expect(a.welcome?.role).toBe('editor');
    expect(a.inSync).toBe(true);
    expect(Object.keys(a.doc.shapes)).toHaveLength(256);
  });

  it('S5/P1/P2: a committed change reaches in-sync peers in one tick batch, is journaled and acked', async () => {
    const { room, connect, settle, journal } = setup();
    const a = new TestClient(2);
    const b = new TestClient(3);
    connect(a, editor(2));
    const { socket: sb } = connect(b, editor(3));
    await settle();
    const h1 = a.edit((d) => addShape(d, 's1', penStroke('s1', 2, [0, 0, 1, 1])));
    const h2 = a.edit((d) => addShape(d, 's2', penStroke('s2', 2, [2, 2, 3, 3])));
    // nothing reaches b before the tick
    expect(b.shapeIds()).toEqual([]);
    sb.onSend = null;
    room.tick();
    const frames = sb.take().filter((f) => splitFrame(f).type === MSG.CHANGES_S);
    expect(frames).toHaveLength(1); // both changes in one frame
    for (const f of frames) b.receive(f);
    sb.onSend = (f) => b.receive(f);
    expect(b.shapeIds()).toEqual(['s1', 's2']);
    expect(a.pending.size).toBe(2);
    await settle();
    expect(journal.entries.map((e) => e.hash)).toEqual([h1, h2]);
    expect(a.pending.size).toBe(0);
    expect(a.savedHashes).toEqual(new Set([h1, h2]));
  });

  it('D5: a viewer receives changes but every change it sends is refused', async () => {
    const { connect, settle, journal } = setup();
    const v = new TestClient(4);
    const e = new TestClient(5);
    connect(v, { ...editor(4), access: 'view' });
    connect(e, editor(5));
    await settle();
    e.edit((d) => addShape(d, 'x', penStroke('x', 5, [1, 2])));
    v.edit((d) => addShape(d, 'y', penStroke('y', 4, [1, 2])));
    await settle();
    expect(v.welcome?.role).toBe('viewer');
    expect(v.errors.map((x) => x.code)).toEqual(['read_only']);
    expect(v.shapeIds()).toEqual(['x', 'y']); // its own local edit plus the editor's
    expect(e.shapeIds()).toEqual(['x']);
    expect(journal.entries).toHaveLength(1);
  });

  it("D6: with deleteOwnOnly an editor cannot delete another's shape; the owner can", async () => {
    const { connect, settle } = setup({ deleteOwnOnly: true });
    const owner = new TestClient(1);
    const a = new TestClient(6);
    const b = new TestClient(7);
    connect(owner, { ...editor(1), access: 'own' });
    connect(a, editor(6));
    connect(b, editor(7));
    await settle();
    a.edit((d) => addShape(d, 'sa', penStroke('sa', 6, [1, 1])));
    a.edit((d) => addShape(d, 'sa2', penStroke('sa2', 6, [1, 1])));
    await settle();
    b.edit((d) => deleteShape(d, 'sa'));
    await settle();
    expect(b.errors.map((x) => x.code)).toEqual(['delete_own_only']);
    expect(a.shapeIds()).toEqual(['sa', 'sa2']);
    a.edit((d) => deleteShape(d, 'sa'));
    owner.edit((d) => deleteShape(d, 'sa2'));
    await settle();
    expect(a.errors).toEqual([]);
    expect(owner.errors).toEqual([]);
    expect(a.shapeIds()).toEqual([]);
  });

  it('D6/D10: erasing another person’s shape by removing or garbling its fields is refused, never forwarded or journaled', async () => {
    const { connect, settle, journal } = setup({ deleteOwnOnly: true });
    const owner = new TestClient(1);
    const ann = new TestClient(6);
    const bob = new TestClient(7);
    connect(owner, { ...editor(1), access: 'own' });
    const forwarded: number[] = [];
    connect(ann, editor(6), (f) => forwarded.push(splitFrame(f).type));
    connect(bob, editor(7));
    await settle();
    ann.edit((d) => addShape(d, 'sa', penStroke('sa', 6, [1, 1, 2, 2])));
    await settle();
    const stored = () => JSON.stringify(owner.doc.shapes[bucketOf('sa')].sa);
    const before = stored();
    forwarded.length = 0;
    const attacks: ((s: Record<string, unknown>) => void)[] = [
      (s) => {
        delete s.kind;
        delete s.points;
      },
      (s) => (s.points = new Uint8Array([99, 1, 2])),
      (s) => (s.kind = new A.ImmutableString('bogus')),
    ];
    for (const attack of attacks) {
      bob.errors = [];
      bob.edit((d) => attack(d.shapes[bucketOf('sa')].sa));
      await settle();
      expect(bob.errors.map((x) => [x.code, x.hashes?.length])).toEqual([['delete_own_only', 1]]);
      // the client drops its document after a refusal (D7): here, a fresh one for the next attack
      bob.doc = A.clone(owner.doc);
    }
    expect(stored()).toBe(before);
    expect(ann.shapeIds()).toEqual(['sa']);
    expect(forwarded).not.toContain(MSG.CHANGES_S); // nothing of it reached the others
    expect(journal.entries).toHaveLength(1);
    // an invalid change to one's own shape is refused too (invalid_change, D10)
    ann.edit((d) => (d.shapes[bucketOf('sa')].sa.kind = new A.ImmutableString('bogus')));
    await settle();
    expect(ann.errors.map((x) => x.code)).toEqual(['invalid_change']);
    expect(stored()).toBe(before);
    expect(journal.entries).toHaveLength(1);
  });

  it('E5: a viewer’s stroke previews and selections are dropped; its cursor and viewport still reach others', async () => {
    const { room, connect, settle } = setup();
    const v = new TestClient(4);
    const e = new TestClient(5);
    const { peer: pv } = connect(v, { ...editor(4), access: 'view' });
    connect(e, editor(5));
    await settle();
    e.ephemeral = [];
    for (const kind of [
      EPHEMERAL_KIND.STROKE,
      EPHEMERAL_KIND.SELECTION,
      EPHEMERAL_KIND.CURSOR,
      EPHEMERAL_KIND.VIEWPORT,
    ])
      v.sendEphemeral(kind, Uint8Array.of(kind));
    room.tick();
    expect(e.ephemeral.filter((x) => x.peerId === pv.id).map((x) => x.kind)).toEqual([
      EPHEMERAL_KIND.CURSOR,
      EPHEMERAL_KIND.VIEWPORT,
    ]);
    // an editor's stroke preview and selection go through
    e.sendEphemeral(EPHEMERAL_KIND.STROKE, Uint8Array.of(1));
    e.sendEphemeral(EPHEMERAL_KIND.SELECTION, Uint8Array.of(0, 0));
    v.ephemeral = [];
    room.tick();
    expect(v.ephemeral.map((x) => x.kind).sort()).toEqual([EPHEMERAL_KIND.STROKE, EPHEMERAL_KIND.SELECTION].sort());
  });

  it('D7/D8: shapes must name their author as creator and sit in their bucket', async () => {
    const { connect, settle } = setup();
    const a = new TestClient(8);
    connect(a, editor(8));
    await settle();
    a.edit((d) => addShape(d, 'forged', penStroke('forged', 99, [1, 1])));
    await settle();
    expect(a.errors.map((x) => x.code)).toEqual(['invalid_change']);
    const b = new TestClient(9);
    connect(b, editor(9));
    await settle();
    b.edit((d) => {
      d.shapes['00']['not-in-00-bucket-zz'] = penStroke('z', 9, [1, 1]);
    });
    await settle();
    expect(b.errors.map((x) => x.code)).toEqual(['invalid_change']);
  });

  it('E1/E3/E4: ephemerals are coalesced per tick into one frame and dropped under back-pressure', async () => {
    const { room, connect, settle } = setup();
    const a = new TestClient(10);
    const b = new TestClient(11);
    const c = new TestClient(12);
    connect(a, editor(10));
    const { socket: sb } = connect(b, editor(11));
    const { socket: sc } = connect(c, editor(12));
    await settle();
    sb.onSend = null;
    sc.onSend = null;
    for (let i = 0; i < 5; i++) a.sendEphemeral(EPHEMERAL_KIND.CURSOR, Uint8Array.of(i));
    a.sendEphemeral(EPHEMERAL_KIND.STROKE, Uint8Array.of(100));
    a.sendEphemeral(EPHEMERAL_KIND.STROKE, Uint8Array.of(101));
    sc.bufferedAmount = 10 * 1024 * 1024;
    room.tick();
    const bFrames = sb.take();
    expect(bFrames).toHaveLength(1);
    b.receive(bFrames[0]!);
    const fromA = b.ephemeral.filter((e) => e.peerId === 1);
    expect(fromA.map((e) => [e.kind, [...e.data]])).toEqual([
      [EPHEMERAL_KIND.CURSOR, [4]],
      [EPHEMERAL_KIND.STROKE, [100]],
      [EPHEMERAL_KIND.STROKE, [101]],
    ]);
    expect(sc.take()).toHaveLength(0);
  });

  it('L1/L5: a malformed frame closes only that socket', async () => {
    const { room, connect, settle } = setup();
    const a = new TestClient(13);
    const b = new TestClient(14);
    const { peer: pa, socket: sa } = connect(a, editor(13));
    const { socket: sb } = connect(b, editor(14));
    await settle();
    room.receive(pa, encodeListFrame(MSG.CHANGES, [Uint8Array.of(1, 2, 3)]));
    expect(sa.closedWith?.code).toBe(RT_CLOSE.MALFORMED);
    expect(sb.closedWith).toBeNull();
    expect(room.size).toBe(1);
    const c = new TestClient(15);
    const { peer: pc, socket: sc } = connect(c, editor(15));
    room.receive(pc, encodeJsonFrame(MSG.HELLO, { protocol: 1 }));
    expect(sc.closedWith?.code).toBe(RT_CLOSE.MALFORMED);
  });

  it('P3: a failed journal append is retried and the ack waits for it', async () => {
    const { connect, settle, journal } = setup();
    const a = new TestClient(16);
    connect(a, editor(16));
    await settle();
    journal.fail = new Error('db down');
    const h = a.edit((d) => addShape(d, 'k', penStroke('k', 16, [1, 1])));
    await settle();
    expect(a.pending.has(h!)).toBe(true);
    journal.fail = null;
    await settle();
    expect(a.savedHashes.has(h!)).toBe(true);
    expect(journal.entries.map((e) => e.hash)).toEqual([h]);
  });

  it('S3/P4: a client that drew offline re-sends what a restarted server lacks (sync changes in any order)', async () => {
    const journal = new MemoryJournal();
    const clock = new FakeClock();
    const mk = (handle = freshBoardHandle()) =>
      new Room({ boardId: 'b', ownerId: 1, deleteOwnOnly: false, handle, journal, clock, log: silentLogger() });
    let room = mk();
    const c = new TestClient(2);
    const connectTo = (r: Room) => {
      const socket = new FakeSocket();
      const up: Uint8Array[] = [];
      socket.onSend = (f) => c.receive(f);
      c.attach((f) => up.push(f));
      const peer = r.join(socket, editor(2));
      return { socket, peer, up };
    };
    const pump = async (r: Room, k: ReturnType<typeof connectTo>) => {
      for (let i = 0; i < 50; i++) {
        for (const f of k.up.splice(0)) if (splitFrame(f).type !== MSG.HELLO) r.receive(k.peer, f);
        r.tick();
        await r.flushPersist();
        if (c.inSync && c.pending.size === 0 && !k.up.length) return;
      }
    };
    let k = connectTo(room);
    await pump(room, k);
    for (let i = 0; i < 10; i++) c.edit((d) => addShape(d, `a${i}`, penStroke(`a${i}`, 2, [i, i])));
    await pump(room, k);
    c.detach();
    // crash: the server restarts from its journal while the client keeps drawing
    for (let i = 0; i < 12; i++) c.edit((d) => addShape(d, `b${i}`, penStroke(`b${i}`, 2, [i, i])));
    const h = freshBoardHandle();
    h.applyChanges(journal.entries.map((e) => e.bytes));
    room = mk(h);
    k = connectTo(room);
    await pump(room, k);
    expect(k.socket.closedWith).toBeNull();
    expect(c.inSync).toBe(true);
    expect(c.pending.size).toBe(0);
    expect(journal.entries).toHaveLength(22);
    expect(room.handle.getHeads()).toEqual(c.heads());
  });

  it('S9: a fresh peer that asks for it gets the catch-up DOC rendered to records (once made) before the DOC', async () => {
    const rendered: Uint8Array[] = [];
    const { connect, settle } = setup({
      renders: {
        render: (doc) => {
          rendered.push(doc);
          return Promise.resolve(renderSnapshotOf(doc));
        },
        preview: () => Promise.reject(new Error('not used')),
        close: () => Promise.resolve(),
      },
    });
    const a = new TestClient(1);
    connect(a, editor(1));
    await settle();
    // more changes than a catch-up may lag (200): the next fresh peer starts a new one
    for (let i = 0; i < 210; i++) a.edit((d) => addShape(d, `s${i}`, penStroke(`s${i}`, 1, [i, i, i + 1, i + 1])));
    await settle();
    rendered.length = 0;

    const types = (client: TestClient, render: boolean) => {
      const seen: number[] = [];
      client.wantsRender = render;
      connect(client, editor(client.userId), (f) => seen.push(splitFrame(f).type));
      return { seen, records: client.renders };
    };
    // the first fresh peer of a catch-up goes without: its render is still being made
    const b = types(new TestClient(2), true);
    expect(b.seen).toContain(MSG.DOC);
    expect(b.seen).not.toContain(MSG.RENDER);
    await settle();
    expect(rendered).toHaveLength(1);
    const c = types(new TestClient(3), true);
    expect(c.seen.indexOf(MSG.RENDER)).toBeGreaterThan(-1);
    expect(c.seen.indexOf(MSG.RENDER)).toBeLessThan(c.seen.indexOf(MSG.DOC));
    expect(c.records[0]!.map((r) => r.id).sort()).toEqual(a.shapeIds().sort());
    expect(c.records[0]).toHaveLength(210);
    expect(c.records[0]!.find((r) => r.id === 's2')).toMatchObject({ kind: 'pen', creator: 1, z: expect.any(String) });
    // a peer that did not ask (an older client) gets none; nothing was rendered twice
    const d = types(new TestClient(4), false);
    expect(d.seen).not.toContain(MSG.RENDER);
    expect(rendered).toHaveLength(1);
  });

  it('S6: fresh clients get one shared catch-up document, then sync only what it lacks', async () => {
    const { connect, settle } = setup();
    const a = new TestClient(1);
    connect(a, editor(1));
    await settle();
    for (let i = 0; i < 300; i++) a.edit((d) => addShape(d, `s${i}`, penStroke(`s${i}`, 1, [i, i, i + 1, i + 1])));
    await settle();

    const seen = (sizes: Map<number, number>, f: Uint8Array) => {
      const { type } = splitFrame(f);
      sizes.set(type, (sizes.get(type) ?? 0) + f.length);
    };
    const docs: Uint8Array[] = [];
    const bSizes = new Map<number, number>();
    const b = new TestClient(2);
    connect(b, editor(2), (f) => {
      seen(bSizes, f);
      if (splitFrame(f).type === MSG.DOC) docs.push(f);
    });
    await settle();
    a.edit((d) => addShape(d, 'late', penStroke('late', 1, [9, 9]))); // the next fresh peer syncs this on top
    await settle();
    const c = new TestClient(3);
    connect(c, editor(3), (f) => {
      if (splitFrame(f).type === MSG.DOC) docs.push(f);
    });
    await settle();

    expect(docs).toHaveLength(2);
    expect(docs[1]).toBe(docs[0]); // the same bytes: saved once for both
    expect(b.inSync && c.inSync).toBe(true);
    expect(c.shapeIds()).toEqual(a.shapeIds());
    expect(c.heads()).toEqual(a.heads());
    expect(b.heads()).toEqual(a.heads());
    // what b needed beyond the document was a few sync round trips, not the board again
    expect(bSizes.get(MSG.SYNC_S)!).toBeLessThan(bSizes.get(MSG.DOC)! / 10);

    // a client that already has the board (a reconnect) is not sent the document
    const again = new TestClient(3);
    again.doc = c.doc;
    let docFrames = 0;
    connect(again, editor(3), (f) => {
      if (splitFrame(f).type === MSG.DOC) docFrames++;
    });
    await settle();
    expect(docFrames).toBe(0);
    expect(again.inSync).toBe(true);
  });

  it('S7: a peer that does not answer gets no new sync message per tick, only after SYNC_REPLY_WAIT_MS', async () => {
    const { room, connect, settle, clock } = setup();
    const a = new TestClient(1);
    connect(a, editor(1));
    await settle();
    const stuck = new FakeSocket(); // joins and never answers
    room.join(stuck, editor(9));
    const syncs = () => stuck.sent.filter((f) => splitFrame(f).type === MSG.SYNC_S).length;
    expect(syncs()).toBe(1);
    for (let i = 0; i < 20; i++) {
      a.edit((d) => addShape(d, `t${i}`, penStroke(`t${i}`, 1, [i, i])));
      room.tick();
    }
    expect(syncs()).toBe(1);
    clock.t += 1000;
    a.edit((d) => addShape(d, 'late', penStroke('late', 1, [1, 1])));
    room.tick();
    expect(syncs()).toBe(2);
    // the others were not held up
    expect(a.inSync).toBe(true);
  });

  it('L1: an oversized frame or change closes that socket with 4413', async () => {
    const { room, connect, settle } = setup();
    const a = new TestClient(20);
    const b = new TestClient(21);
    const { peer: pa, socket: sa } = connect(a, editor(20));
    const { peer: pb, socket: sb } = connect(b, editor(21));
    await settle();
    room.receive(pa, new Uint8Array(RT_LIMITS.maxFrameBytes + 1));
    expect(sa.closedWith?.code).toBe(RT_CLOSE.TOO_LARGE);
    room.receive(pb, encodeListFrame(MSG.CHANGES, [new Uint8Array(RT_LIMITS.maxChangeBytes + 1)]));
    expect(sb.closedWith?.code).toBe(RT_CLOSE.TOO_LARGE);
  });
  it('B1: WELCOME carries the title and background; a change reaches every peer at once as BOARD_INFO', async () => {
    const { room, connect, settle, journal } = setup({ title: 'Algebra', background: 'graphGrid' });
    const a = new TestClient(30);
    const v = new TestClient(31);
    connect(a, editor(30));
    connect(v, { ...editor(31), access: 'view' });
    await settle();
    expect(a.welcome).toMatchObject({ title: 'Algebra', background: 'graphGrid', deleteOwnOnly: false });
    expect(v.boardInfo).toEqual({ title: 'Algebra', background: 'graphGrid', deleteOwnOnly: false });

    room.updateBoardInfo({ title: 'Algebra 7b' });
    room.updateBoardInfo({ background: 'dotGrid', deleteOwnOnly: true });
    for (const c of [a, v]) {
      expect(c.boardInfos).toEqual([
        { title: 'Algebra 7b', background: 'graphGrid', deleteOwnOnly: false },
        { title: 'Algebra 7b', background: 'dotGrid', deleteOwnOnly: true },
      ]);
    }
    // nothing changed: nothing sent
    room.updateBoardInfo({ title: 'Algebra 7b', deleteOwnOnly: true });
    expect(a.boardInfos).toHaveLength(2);
    // the new deleteOwnOnly applies at once (D6) and a later joiner is welcomed with the new info
    expect(room.deleteOwnOnly).toBe(true);
    const late = new TestClient(32);
    connect(late, editor(32));
    await settle();
    expect(late.welcome).toMatchObject({ title: 'Algebra 7b', background: 'dotGrid', deleteOwnOnly: true });
    a.edit((d) => addShape(d, 'mine', penStroke('mine', 30, [1, 1])));
    await settle();
    late.edit((d) => deleteShape(d, 'mine'));
    await settle();
    expect(late.errors.map((x) => x.code)).toEqual(['delete_own_only']);
    expect(journal.entries).toHaveLength(1);
  });

  it('E1/E5: a viewer’s laser pointer reaches an editor, latest per peer per tick', async () => {
    const { room, connect, settle } = setup();
    const v = new TestClient(33);
    const e = new TestClient(34);
    const { peer: pv } = connect(v, { ...editor(33), access: 'view' });
    const { peer: pe } = connect(e, editor(34));
    await settle();
    e.ephemeral = [];
    v.ephemeral = [];
    for (let i = 0; i < 3; i++) v.sendEphemeral(EPHEMERAL_KIND.LASER, Uint8Array.of(i, 0, 0, 0, 0, 0, 0, 0));
    room.tick();
    expect(e.ephemeral.filter((x) => x.peerId === pv.id).map((x) => [x.kind, x.data[0]])).toEqual([
      [EPHEMERAL_KIND.LASER, 2],
    ]);
    // an editor's laser reaches the viewer the same way
    e.sendEphemeral(EPHEMERAL_KIND.LASER, Uint8Array.of(9, 0, 0, 0, 0, 0, 0, 0));
    room.tick();
    expect(v.ephemeral.filter((x) => x.peerId === pe.id).map((x) => [x.kind, x.data[0]])).toEqual([
      [EPHEMERAL_KIND.LASER, 9],
    ]);
    // the next tick carries nothing more (state kinds are sent once per change)
    e.ephemeral = [];
    room.tick();
    expect(e.ephemeral).toEqual([]);
  });

  it('E1/E5: geometry instruments (kind 6) are relayed like the laser, the latest per peer per tick, viewers’ too', async () => {
    const { room, connect, settle } = setup();
    const v = new TestClient(37);
    const e = new TestClient(38);
    const { peer: pv } = connect(v, { ...editor(37), access: 'view' });
    const { peer: pe } = connect(e, editor(38));
    await settle();
    e.ephemeral = [];
    v.ephemeral = [];
    // the payload is the client's (u8 count + 21 bytes per instrument); the node only relays it
    for (let i = 1; i <= 3; i++) e.sendEphemeral(EPHEMERAL_KIND.INSTRUMENT, Uint8Array.of(1, i, ...new Uint8Array(20)));
    v.sendEphemeral(EPHEMERAL_KIND.INSTRUMENT, Uint8Array.of(0));
    room.tick();
    expect(v.ephemeral.filter((x) => x.peerId === pe.id).map((x) => [x.kind, x.data[1]])).toEqual([
      [EPHEMERAL_KIND.INSTRUMENT, 3],
    ]);
    expect(e.ephemeral.filter((x) => x.peerId === pv.id).map((x) => [x.kind, x.data.length])).toEqual([
      [EPHEMERAL_KIND.INSTRUMENT, 1],
    ]);
  });

  it('L4: a change over the operation limits is refused (change_too_big) before it is applied, forwarded or journaled', async () => {
    const { room, connect, settle, journal } = setup();
    const a = new TestClient(35);
    const b = new TestClient(36);
    connect(a, editor(35));
    connect(b, editor(36));
    await settle();
    const n = RT_LIMITS.maxChangeOverwrites / 2 + 1;
    const ids = Array.from({ length: 3 * n }, (_, i) => `m${i}`);
    // 3·n new strokes in one change (~8 operations each, none replaces a value): fine
    a.edit((d) => {
      for (const id of ids) addShape(d, id, penStroke(id, 35, [1, 1, 2, 2]));
    });
    await settle();
    expect(a.errors).toEqual([]);
    expect(b.shapeIds()).toHaveLength(ids.length);
    const heads = room.handle.getHeads();
    const journaled = journal.entries.length;
    // moving n of them is 2·n overwrites (x and y): one move over the limit
    const move = (d: Parameters<Parameters<TestClient['edit']>[0]>[0], some: string[]) => {
      for (const id of some) {
        const s = d.shapes[bucketOf(id)][id];
        s.x += 5;
        s.y += 5;
      }
    };
    const refused = a.edit((d) => move(d, ids.slice(0, n)));
    await settle();
    expect(a.errors).toEqual([
      {
        code: 'change_too_big',
        message: expect.stringMatching(
          new RegExp(`at most ${RT_LIMITS.maxChangeOverwrites} existing values, this one ${2 * n}: split the edit`),
        ),
        hashes: [refused],
      },
    ]);
    expect(room.handle.getHeads()).toEqual(heads);
    expect(journal.entries).toHaveLength(journaled);
    expect(b.errors).toEqual([]);
    expect(b.doc.shapes[bucketOf(ids[0]!)][ids[0]!].x).toBe(0);

    // a client that splits the edit (≤ maxChangeOverwrites / 2 moves per change) gets all of it through
    const c = new TestClient(35);
    connect(c, editor(35));
    await settle();
    c.edit((d) => move(d, ids.slice(0, n - 1)));
    c.edit((d) => move(d, ids.slice(n - 1, n)));
    await settle();
    expect(c.errors).toEqual([]);
    expect(b.doc.shapes[bucketOf(ids[n - 1]!)][ids[n - 1]!].x).toBe(5);

    // text is cheap: a 3,000-character label and cutting 2,000 of its characters pass; more
    // operations than maxChangeOps in one change do not
    c.edit((d) => {
      addShape(d, 'st', { ...stickyRecord(35), text: 'x'.repeat(3000) });
    });
    c.edit((d) => A.splice(d.shapes[bucketOf('st')].st, ['text'], 0, 2000));
    await settle();
    expect(c.errors).toEqual([]);
    expect(b.doc.shapes[bucketOf('st')].st.text).toHaveLength(1000);
    const huge = c.edit((d) => addShape(d, 'st2', { ...stickyRecord(35), text: 'y'.repeat(RT_LIMITS.maxChangeOps) }));
    await settle();
    expect(c.errors).toEqual([
      { code: 'change_too_big', message: expect.stringMatching(/at most 10000 operations/), hashes: [huge] },
    ]);
    expect(b.shapeIds()).not.toContain('st2');
  });
});
