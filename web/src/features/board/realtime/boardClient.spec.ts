/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/**
 * The browser's board client against an in-memory realtime node, with real Automerge (wasm
 * loaded from the package, as the app does through Vite) and a manual clock. Rule ids are the
 * realtime SPEC's.
 */
import { readFileSync } from 'node:fs';
import * as A from '@automerge/automerge/slim';
import {
  bucketOf,
  encodeJsonFrame,
  MSG,
  RT_CLOSE,
  RT_LIMITS,
  SHAPE_STYLE_DEFAULTS,
  validateShapeRecord,
} from '@wb/proto';
import type { PenShape, RtError } from '@wb/proto';
import { BoardClient, backoffDelay, changeCost, closeAction, partsWithinLimits } from './boardClient';
import { allShapes, getShape, newShapeId, putShape, removeShape } from './boardDoc';
import type { BoardDoc } from './boardDoc';
import { decodeBoardInfo } from './messages';
import { MemoryServer } from './testing/memoryServer';
import { FakeTimers } from './testing/fakeTimers';
import type { Transport } from './transport';

beforeAll(async () => {
  await A.initializeWasm(readFileSync(require.resolve('@automerge/automerge/automerge.wasm')));
});

/** wait (real time, ≤ 5 s) until `done` holds: RENDER frames are inflated on zlib's thread pool */
async function until(done: () => boolean): Promise<void> {
  const end = Date.now() + 5000;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 2));
  expect(done()).toBe(true);
}

/** let queued frames (microtasks) and the I/O turn run */
async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
}

function pen(id: string, creator: number, points = [0, 0, 10, 10]): PenShape {
  return {
    id,
    kind: 'pen',
    creator,
    z: 'a0',
    x: 5,
    y: 6,
    strokeColor: SHAPE_STYLE_DEFAULTS.strokeColor,
    strokeWidth: SHAPE_STYLE_DEFAULTS.strokeWidth,
    points: new Uint8Array(new Float32Array(points).buffer),
  };
}

function joined(server: MemoryServer, userId = 7, timers = new FakeTimers()) {
  const client = new BoardClient({ transport: server.transport(userId), userId, timers, random: () => 0.5 });
  client.start();
  return { client, timers };
}

describe('join and edit (J2, J5, S2, P2)', () => {
  it('edits only after the genesis arrived; saving → saved on the SAVED ack', async () => {
    const server = new MemoryServer();
    server.autoSave = false;
    const { client } = joined(server);
    expect(client.getSnapshot().status).toBe('connecting');
    expect(client.change((d) => putShape(d, pen('early', 7)))).toBeNull(); // J5
    await settle();
    const s = client.getSnapshot();
    expect(s).toMatchObject({ status: 'live', ready: true, saveState: 'saved', readOnly: false });
    expect(s.welcome?.role).toBe('editor');

    const hash = client.change((d) => putShape(d, pen('s1', 7)));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(A.decodeChange(client.pending.get(hash!)!).hash); // the head is the change's hash
    expect(client.getSnapshot()).toMatchObject({ saveState: 'saving', pending: 1 });
    await settle();
    expect(server.shapeIds()).toEqual(['s1']);
    expect(client.getSnapshot().saveState).toBe('saving'); // applied, not yet durable
    server.flushSaves();
    await settle();
    expect(client.getSnapshot()).toMatchObject({ saveState: 'saved', pending: 0 });
    expect(client.pending.size).toBe(0);
    // D10: what the web writes is a valid record for the node (and the web can check it itself)
    for (const shape of allShapes(client.doc).values()) expect(validateShapeRecord(shape)).toBeNull();
  });

  it('another client sees the change, with the touched shape id (S5)', async () => {
    const server = new MemoryServer();
    const a = joined(server, 1).client;
    const b = joined(server, 2).client;
    await settle();
    const seen: string[] = [];
    b.onDoc((u) => {
      if (!u.all) seen.push(...u.ids);
    });
    a.change((d) => putShape(d, pen('s1', 1)));
    await settle();
    expect(seen).toEqual(['s1']);
    const shape = getShape(b.doc, 's1');
    expect(shape).toMatchObject({ id: 's1', kind: 'pen', creator: 1, z: 'a0', x: 5, y: 6 });
    expect(
      b
        .getSnapshot()
        .presence.map((p) => p.userId)
        .sort(),
    ).toEqual([1, 2]);
  });

  it('stores atomic strings as ImmutableString, points as bytes, the id only as the key (D3, D4)', async () => {
    const server = new MemoryServer();
    const { client } = joined(server);
    await settle();
    client.change((d) => putShape(d, pen('s1', 7)));
    const raw = (client.doc.shapes as Record<string, Record<string, Record<string, unknown>>>)[
      Object.keys(client.doc.shapes!).find((b) => 's1' in client.doc.shapes![b]!)!
    ]!.s1!;
    expect('id' in raw).toBe(false);
    expect(A.isImmutableString(raw.kind)).toBe(true);
    expect(A.isImmutableString(raw.z)).toBe(true);
    expect(raw.points).toBeInstanceOf(Uint8Array);
    expect(getShape(client.doc, 's1')).toMatchObject({ id: 's1', kind: 'pen', creator: 7 });
  });

  it('reads records of older documents that still carry an id field (the key wins)', () => {
    const doc = A.change(A.init<BoardDoc>(), (d) => {
      d.shapes = { [bucketOf('s2')]: { s2: { id: 'other', kind: 'pen', creator: 1, z: 'a0', x: 0, y: 0 } } };
    });
    expect(allShapes(doc).get('s2')).toMatchObject({ id: 's2', kind: 'pen' });
  });

  it('new ids use the 64-character alphabet, 21 long', () => {
    expect(newShapeId()).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(newShapeId()).not.toBe(newShapeId());
  });
});

describe('catch-up document (S6)', () => {
  it('a client with no document asks for one (fresh), loads it, and its reconnects do not ask again', async () => {
    const server = new MemoryServer();
    const other = joined(server, 8).client;
    await settle();
    for (let i = 0; i < 20; i++) other.change((d) => putShape(d, pen(`s${i}`, 8)));
    await settle();

    const timers = new FakeTimers();
    const client = new BoardClient({ transport: server.transport(7), userId: 7, timers, random: () => 0.5 });
    const changed: Array<boolean> = [];
    client.onDoc((c) => changed.push(c.all));
    client.start();
    await settle();
    expect(server.hellos.at(-1)).toMatchObject({ fresh: true });
    expect(client.getSnapshot()).toMatchObject({ status: 'live', ready: true });
    expect(getShape(client.doc, 's19')).toBeDefined();
    expect(changed).toContain(true); // the whole scene is drawn from the loaded document

    server.closeAll(RT_CLOSE.ROOM_MOVED);
    await settle();
    timers.advance(100);
    await settle();
    expect(client.getSnapshot().status).toBe('live');
    expect(server.hellos.at(-1)?.fresh).toBeUndefined();
  });
});

describe('render snapshot while the engine loads (S9)', () => {
  /** a node with a 20-shape board that sends render snapshots, and a fresh client (not started) */
  async function freshJoin(engine?: Promise<void>) {
    const server = new MemoryServer();
    const other = joined(server, 8).client;
    await settle();
    for (let i = 0; i < 20; i++) other.change((d) => putShape(d, pen(`s${i}`, 8)));
    await settle();
    server.renders = true;
    const timers = new FakeTimers();
    const client = new BoardClient({ transport: server.transport(7), userId: 7, timers, random: () => 0.5, engine });
    return { server, client, timers };
  }

  it('joins before the wasm is ready: WELCOME and the records first, the DOC once the engine is ready and a view painted them', async () => {
    let engineReady!: () => void;
    const { server, client } = await freshJoin(new Promise<void>((r) => (engineReady = r)));
    const previews: number[] = [];
    client.onRender((records) => previews.push(records.length));
    client.start();
    await until(() => previews.length > 0);
    expect(server.hellos.at(-1)).toMatchObject({ fresh: true, render: true });
    expect(client.getSnapshot()).toMatchObject({ status: 'syncing', ready: false });
    expect(client.getSnapshot().welcome).not.toBeNull();
    expect(previews).toEqual([20]);
    expect(client.preview?.find((r) => r.id === 's3')).toMatchObject({ kind: 'pen', creator: 8 });
    expect(client.canEdit()).toBe(false); // a picture of the board, not the board

    engineReady();
    await settle();
    expect(client.getSnapshot().ready).toBe(false); // the DOC waits until the records were painted
    client.previewShown();
    await settle();
    expect(client.getSnapshot()).toMatchObject({ status: 'live', ready: true });
    expect(getShape(client.doc, 's19')).not.toBeNull();
    expect(client.preview).toBeNull();
    expect(client.canEdit()).toBe(true);
  });

  it('with no view to paint them, the DOC loads 2 s after the records', async () => {
    const { client, timers } = await freshJoin();
    client.start();
    await until(() => client.preview !== null);
    expect(client.preview).toHaveLength(20);
    expect(client.getSnapshot().ready).toBe(false);
    timers.advance(2000);
    await settle();
    expect(client.getSnapshot()).toMatchObject({ status: 'live', ready: true });
  });

  it('a reconnect with the document loaded asks for neither the DOC nor its records', async () => {
    const { server, client, timers } = await freshJoin();
    client.start();
    await until(() => client.preview !== null);
    client.previewShown();
    await settle();
    server.closeAll(RT_CLOSE.ROOM_MOVED);
    await settle();
    timers.advance(100);
    await settle();
    expect(client.getSnapshot().status).toBe('live');
    expect(server.hellos.at(-1)).not.toHaveProperty('render');
  });
});

describe('feature frames (chat, lesson)', () => {
  it('those that arrive before any feature listens (the client joins before the page mounts) reach the first listeners', async () => {
    const server = new MemoryServer();
    const { client } = joined(server);
    await settle();
    server.broadcast(encodeJsonFrame(MSG.LESSON_STATE, { n: 1 }));
    server.broadcast(encodeJsonFrame(MSG.LESSON_STATE, { n: 2 }));
    await settle();
    const seen: string[] = [];
    const other: string[] = [];
    client.onFrame((f) => seen.push(new TextDecoder().decode(f.payload)));
    client.onFrame((f) => other.push(new TextDecoder().decode(f.payload))); // registered in the same turn
    await settle();
    expect(seen).toEqual(['{"n":1}', '{"n":2}']);
    expect(other).toEqual(seen);
    server.broadcast(encodeJsonFrame(MSG.LESSON_STATE, { n: 3 }));
    await settle();
    expect(seen).toHaveLength(3); // delivered once, then live
  });
});

describe('reconnect and resend (S2, H2, C)', () => {
  it('on SYNCED after a reconnect re-sends every unsaved change; a node that lost them gets them', async () => {
    const first = new MemoryServer();
    first.autoSave = false;
    let current = first;
    const transport: Transport = { connect: (h) => current.transport(7).connect(h) };
    const timers = new FakeTimers();
    const client = new BoardClient({ transport, userId: 7, timers, random: () => 0.5 });
    client.start();
    await settle();
    const hash = client.change((d) => putShape(d, pen('s1', 7)))!;
    await settle();
    expect(client.getSnapshot().saveState).toBe('saving');

    // the node dies before journaling; the board restarts elsewhere from the genesis only
    const second = new MemoryServer();
    current = second;
    first.closeAll(RT_CLOSE.ROOM_MOVED);
    await settle();
    // K2: cut off with a change unsent: "offline", never "saving"
    expect(client.getSnapshot()).toMatchObject({ status: 'reconnecting', saveState: 'offline' });
    expect(timers.pending[0]).toBeLessThanOrEqual(100); // 4412: at once
    timers.advance(100);
    await settle();
    expect(client.getSnapshot()).toMatchObject({ status: 'live', saveState: 'saved' });
    expect(second.shapeIds()).toEqual(['s1']);
    expect(client.pending.has(hash)).toBe(false);
  });

  it('S2: a change the node applied but never acknowledged is re-sent after SYNCED', async () => {
    const server = new MemoryServer();
    server.autoSave = false;
    const { client, timers } = joined(server);
    await settle();
    const hash = client.change((d) => putShape(d, pen('s1', 7)))!;
    await settle();
    expect(server.received.filter((h) => h === hash)).toHaveLength(1);
    server.closeAll(RT_CLOSE.ROOM_MOVED); // e.g. lease lost before the journal write
    await settle();
    timers.advance(100);
    await settle();
    expect(client.getSnapshot()).toMatchObject({ status: 'live', saveState: 'saving' });
    // the sync exchange did not carry it (the node has it): the CHANGES re-send did
    expect(server.received.filter((h) => h === hash)).toHaveLength(2);
    server.flushSaves();
    await settle();
    expect(client.getSnapshot()).toMatchObject({ saveState: 'saved', pending: 0 });
  });

  it('keeps editing while disconnected and delivers it after the reconnect', async () => {
    const server = new MemoryServer();
    const { client, timers } = joined(server);
    await settle();
    server.closeAll(1006);
    await settle();
    expect(client.getSnapshot().saveState).toBe('reconnecting'); // nothing unsent
    expect(client.change((d) => putShape(d, pen('offline', 7)))).not.toBeNull();
    expect(client.getSnapshot().saveState).toBe('offline');
    timers.advance(10_000);
    await settle();
    expect(server.shapeIds()).toEqual(['offline']);
    expect(client.getSnapshot().saveState).toBe('saved');
  });

  it('backs off exponentially (with jitter) after failures, and resets after a sync', async () => {
    expect([0, 1, 2, 3, 10].map((n) => backoffDelay(n, () => 0.5))).toEqual([250, 500, 1000, 2000, 10_000]);
    expect(backoffDelay(2, () => 0)).toBe(750);
    expect(backoffDelay(2, () => 1)).toBe(1250);
    const server = new MemoryServer();
    server.refuseWith = RT_CLOSE.INTERNAL;
    const { timers } = joined(server);
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      await settle();
      delays.push(timers.pending[0]!);
      timers.advance(timers.pending[0]!);
    }
    expect(delays).toEqual([250, 500, 1000, 2000]);
  });

  it.each([
    [RT_CLOSE.RESTRICTED, 'restricted'],
    [RT_CLOSE.NOT_FOUND, 'notFound'],
    [RT_CLOSE.BOARD_GONE, 'notFound'],
    [RT_CLOSE.READ_ONLY_PLAN, 'readOnlyPlan'],
    [RT_CLOSE.PROTOCOL_VERSION, 'reload'],
    [RT_CLOSE.MALFORMED, 'error'],
    [RT_CLOSE.TOO_LARGE, 'error'],
    [RT_CLOSE.UNAUTHENTICATED, 'unauthenticated'],
  ])('close %i shows the lock screen %s and does not reconnect', async (code, reason) => {
    const server = new MemoryServer();
    server.refuseWith = code;
    const { client, timers } = joined(server);
    await settle();
    expect(client.getSnapshot()).toMatchObject({ status: 'locked', lock: reason });
    expect(timers.pending).toEqual([]);
    expect(client.change((d) => putShape(d, pen('x', 7)))).toBeNull();
  });

  it('A5: a live board whose session ended (4401) locks as "session ended": no reconnect loop, nothing re-sent', async () => {
    const server = new MemoryServer();
    server.autoSave = false;
    const { client, timers } = joined(server);
    await settle();
    client.change((d) => putShape(d, pen('unsaved', 7)));
    await settle();
    const received = server.received.length;
    server.closeAll(RT_CLOSE.UNAUTHENTICATED); // the node's close when the session is revoked
    await settle();
    expect(client.getSnapshot()).toMatchObject({ status: 'locked', lock: 'unauthenticated' });
    expect(timers.pending).toEqual([]);
    timers.advance(60_000);
    await settle();
    expect(client.getSnapshot().status).toBe('locked');
    expect(server.received).toHaveLength(received);
    expect(client.change((d) => putShape(d, pen('after', 7)))).toBeNull();
  });

  it('maps every reconnect code of the table', () => {
    for (const code of [RT_CLOSE.WRONG_NODE, RT_CLOSE.ROOM_MOVED])
      expect(closeAction(code)).toEqual({ kind: 'reconnect', now: true });
    for (const code of [RT_CLOSE.JOIN_TIMEOUT, RT_CLOSE.SLOW_CONSUMER, RT_CLOSE.INTERNAL, 1006, 1001])
      expect(closeAction(code)).toEqual({ kind: 'reconnect', now: false });
    expect(closeAction(RT_CLOSE.BOARD_FULL)).toEqual({ kind: 'readOnly' });
  });

  it('4430 too many guest sockets from one address (SPEC J7): a lock screen, not a reconnect loop', async () => {
    expect(closeAction(RT_CLOSE.GUEST_LIMIT)).toEqual({ kind: 'lock', reason: 'guestLimit' });
    const server = new MemoryServer();
    const { client, timers } = joined(server);
    await settle();
    server.closeAll(RT_CLOSE.GUEST_LIMIT);
    await settle();
    timers.advance(15_000);
    await settle();
    expect(client.getSnapshot()).toMatchObject({ status: 'locked', lock: 'guestLimit' });
  });

  it('4414 board full: reconnects read-only', async () => {
    const server = new MemoryServer();
    const { client, timers } = joined(server);
    await settle();
    server.closeAll(RT_CLOSE.BOARD_FULL);
    await settle();
    timers.advance(1000);
    await settle();
    expect(client.getSnapshot()).toMatchObject({ status: 'live', readOnly: true, readOnlyCause: 'boardFull' });
    expect(client.change((d) => putShape(d, pen('x', 7)))).toBeNull();
  });
});

describe('roles and refused changes (J4, D5–D7)', () => {
  it('a viewer is read-only: its tools cannot change the document', async () => {
    const server = new MemoryServer({ role: 'viewer' });
    const { client } = joined(server);
    await settle();
    expect(client.getSnapshot()).toMatchObject({ ready: true, readOnly: true, readOnlyCause: 'viewer' });
    expect(client.canEdit()).toBe(false);
    expect(client.change((d) => putShape(d, pen('x', 7)))).toBeNull();
  });

  it('plan read-only (readOnlyReason) disables editing too', async () => {
    const server = new MemoryServer({ role: 'viewer', readOnlyReason: 'planLimits' });
    const { client } = joined(server);
    await settle();
    expect(client.getSnapshot()).toMatchObject({ readOnly: true, readOnlyCause: 'plan' });
  });

  it('an ERROR with hashes drops the local document and rejoins: the refused delete is undone', async () => {
    const deletes = (c: A.DecodedChange) => c.ops.some((op) => op.action === 'del');
    const server = new MemoryServer({ refuse: (c) => (deletes(c) ? 'delete_own_only' : null) });
    const { client, timers } = joined(server);
    const errors: RtError[] = [];
    client.onError((e) => errors.push(e));
    await settle();
    client.change((d) => putShape(d, pen('theirs', 7)));
    await settle();
    const refused = client.change((d) => removeShape(d, 'theirs'))!;
    expect(getShape(client.doc, 'theirs')).toBeNull();
    await settle();
    timers.advance(200);
    await settle();
    expect(errors).toEqual([{ code: 'delete_own_only', message: 'refused', hashes: [refused] }]);
    expect(client.getSnapshot()).toMatchObject({ status: 'live', ready: true, saveState: 'saved', pending: 0 });
    expect(getShape(client.doc, 'theirs')).toMatchObject({ id: 'theirs' });
    // and the client goes on editing on the fresh document
    client.change((d) => putShape(d, pen('after', 7)));
    await settle();
    expect(server.shapeIds()).toEqual(['after', 'theirs']);
  });
});

describe('ephemeral channel (E1–E3)', () => {
  it('cursors reach the other peers, tagged with the sender peer id; own entries are ignored', async () => {
    const server = new MemoryServer();
    const a = joined(server, 1).client;
    const b = joined(server, 2).client;
    await settle();
    a.outbox.setCursor({ x: 10, y: 20 });
    await settle();
    const aPeer = a.getSnapshot().welcome!.peerId;
    expect(b.remote.cursors.get(aPeer)).toMatchObject({ x: 10, y: 20 });
    expect(a.remote.cursors.size).toBe(0);
    // the peer leaves: its cursor goes with it
    a.stop();
    await settle();
    expect(b.remote.cursors.size).toBe(0);
  });

  it('a stroke in progress is visible to others before it is committed, then replaced by the shape', async () => {
    const server = new MemoryServer();
    const a = joined(server, 1);
    const b = joined(server, 2).client;
    await settle();
    a.client.outbox.strokeStart('st1', 0xff0000, 4, 0, 0);
    for (let i = 1; i <= 5; i++) {
      a.timers.advance(10);
      a.client.outbox.strokePoint(i, i);
    }
    a.timers.advance(40);
    await settle();
    expect(b.remote.strokes.get('st1')).toMatchObject({ color: 0xff0000, width: 4, ended: false });
    expect(b.remote.strokes.get('st1')!.points).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    a.client.outbox.strokeEnd();
    a.timers.advance(40);
    a.client.change((d) => putShape(d, pen('st1', 1)));
    await settle();
    expect(b.remote.strokes.has('st1')).toBe(false); // the committed shape replaced the preview
    expect(getShape(b.doc, 'st1')).not.toBeNull();
  });
});

describe('live board info (B1)', () => {
  it('snapshot.board comes from WELCOME, then follows BOARD_INFO; unchanged info keeps the object', async () => {
    const server = new MemoryServer({ board: { title: 'Geometry', background: 'graphGrid' } });
    const { client, timers } = joined(server);
    expect(client.getSnapshot().board).toBeNull();
    await settle();
    expect(client.getSnapshot().board).toEqual({ title: 'Geometry', background: 'graphGrid', deleteOwnOnly: false });
    expect(client.getSnapshot().welcome).toMatchObject({ title: 'Geometry', background: 'graphGrid' });

    let notified = 0;
    client.subscribe(() => notified++);
    server.setBoardInfo({ title: 'Geometry 7b' });
    await settle();
    expect(client.getSnapshot().board).toEqual({ title: 'Geometry 7b', background: 'graphGrid', deleteOwnOnly: false });
    server.setBoardInfo({ background: 'blackboard', deleteOwnOnly: true });
    await settle();
    const board = client.getSnapshot().board;
    expect(board).toEqual({ title: 'Geometry 7b', background: 'blackboard', deleteOwnOnly: true });
    expect(notified).toBe(2);
    server.setBoardInfo({});
    await settle();
    expect(notified).toBe(2);
    expect(client.getSnapshot().board).toBe(board);

    // a reconnect's WELCOME with the same info keeps the object
    server.closeAll(RT_CLOSE.ROOM_MOVED);
    await settle();
    timers.advance(200);
    await settle();
    expect(client.getSnapshot().status).toBe('live');
    expect(client.getSnapshot().board).toBe(board);
  });

  it('decodes BOARD_INFO and refuses a malformed one', () => {
    const frame = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
    expect(decodeBoardInfo(frame({ title: 'T', background: 'lines', deleteOwnOnly: false }))).toEqual({
      title: 'T',
      background: 'lines',
      deleteOwnOnly: false,
    });
    expect(() => decodeBoardInfo(frame({ title: 'T', background: 'wallpaper', deleteOwnOnly: false }))).toThrow(
      /board info/,
    );
    expect(() => decodeBoardInfo(frame({ title: 1, background: 'lines', deleteOwnOnly: false }))).toThrow();
    expect(() => decodeBoardInfo(frame({ title: 'T', background: 'lines' }))).toThrow(/deleteOwnOnly/);
  });
});

describe('big edits (L4)', () => {
  it('changeInParts splits an action into changes within the node’s limits; one big change is refused', async () => {
    const server = new MemoryServer();
    const a = joined(server, 1).client;
    const b = joined(server, 2).client;
    await settle();
    const ids = Array.from({ length: 60 }, (_, i) => `m${i}`);
    // 60 new strokes in one change: ~10 operations each, no overwrites: one change is fine
    const made = a.change((d) => {
      for (const id of ids) putShape(d, pen(id, 1));
    });
    expect(changeCost(a.pending.get(made!)!)).toMatchObject({ overwrites: 0 });
    await settle();
    expect(server.shapeIds()).toHaveLength(60);

    const move = (d: BoardDoc, id: string) => {
      const s = d.shapes![bucketOf(id)]![id]! as { x: number; y: number };
      s.x += 10;
      s.y += 10;
    };
    const hashes = a.changeInParts(ids, () => ({ ops: 2, overwrites: 2 }), move);
    const per = RT_LIMITS.maxChangeOverwrites / 2;
    expect(hashes).toHaveLength(Math.ceil(ids.length / per));
    for (const h of hashes) {
      const cost = changeCost(a.pending.get(h)!);
      expect(cost.overwrites).toBeLessThanOrEqual(RT_LIMITS.maxChangeOverwrites);
      expect(cost.ops).toBeLessThanOrEqual(RT_LIMITS.maxChangeOps);
    }
    await settle();
    expect(getShape(b.doc, 'm59')?.x).toBe(15);

    // the same move as one change is over the limit: change_too_big
    const errors: RtError[] = [];
    a.onError((e) => errors.push(e));
    const big = a.change((d) => {
      for (const id of ids) move(d, id);
    });
    expect(changeCost(a.pending.get(big!)!).overwrites).toBe(120);
    await settle();
    expect(errors.map((e) => [e.code, e.hashes])).toEqual([['change_too_big', [big]]]);
    expect(getShape(b.doc, 'm0')?.x).toBe(15);
  });

  it('partsWithinLimits groups by both limits; an item over them gets a part of its own', () => {
    const { maxChangeOps, maxChangeOverwrites } = RT_LIMITS;
    expect(partsWithinLimits([1, 2, 3], () => ({ ops: 1, overwrites: 0 }))).toEqual([[1, 2, 3]]);
    const heavy = partsWithinLimits([1, 2, 3], () => ({ ops: maxChangeOps / 2, overwrites: 0 }));
    expect(heavy).toEqual([[1, 2], [3]]);
    const moves = partsWithinLimits(
      Array.from({ length: maxChangeOverwrites + 1 }, (_, i) => i),
      () => ({ ops: 1, overwrites: 1 }),
    );
    expect(moves.map((p) => p.length)).toEqual([maxChangeOverwrites, 1]);
    expect(
      partsWithinLimits(['huge', 'x'], (i) => ({ ops: i === 'huge' ? maxChangeOps + 1 : 1, overwrites: 0 })),
    ).toEqual([['huge'], ['x']]);
    expect(partsWithinLimits([], () => ({ ops: 1, overwrites: 1 }))).toEqual([]);
  });
});
