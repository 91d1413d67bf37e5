/**
 * Property: a hostile editor and a hostile viewer send random and mutated frames to a room on a
 * board with deleteOwnOnly where other people (the owner and a second editor) have shapes. Checks
 * SPEC D5 (a viewer never changes anything), D6 (nobody else's shape is lost: every one is still
 * there, same kind and creator, a valid record), D7/D8/D10/D11 (every record on the board is valid
 * for its kind), L1/L5 (bad frames close only the sender; the room never throws), P1/P2 (what is
 * applied is exactly what is journaled) and that a well-behaved client keeps being served
 * (S5/P2: its edit is forwarded, saved and acknowledged). A second property sends random frames
 * over the real websocket server (before and after HELLO) and then joins a well-behaved client.
 *
 * Frames: every client frame type with valid, truncated, garbage and oversized payloads; lists
 * with lying counts; Automerge changes built with raw operations (delete or garble fields of one's
 * own or others' shapes, unknown kinds, nested objects, counters, text marks, root edits, shapes in
 * the wrong bucket, deletions), sent as CHANGES, inside SYNC messages, with missing dependencies,
 * or with their bytes flipped or cut.
 *
 * Runs: 60 (room) and 15 (websocket server) by default; FUZZ_RUNS=<n> runs n of each (and
 * FUZZ_SEED=<n> replays one seed).
 */
import fc from 'fast-check';
import {
  bucketOf,
  encodeBytesFrame,
  encodeJsonFrame,
  encodeListFrame,
  REALTIME_ACTOR_HEADER,
  REALTIME_PATH_PREFIX,
  EPHEMERAL_KIND,
  MSG,
  packPoints,
  RT_LIMITS,
  SHAPE_KINDS,
  validateShapeRecord,
} from '@wb/proto';
import type { AccessCheckReply } from '@wb/proto';
import { A, layoutOf } from '../doc/automerge';
import type { Handle } from '../doc/automerge';
import { Room } from './room';
import type { Peer, PeerIdentity } from './room';
import type { RoomManager } from './manager';
import { FakeClock, FakeSocket, freshBoardHandle, MemoryJournal, silentLogger } from '../testing/fakes';
import { addShape, penStroke, TestClient } from '../testing/client';
import type { BoardDoc } from '../testing/client';
import { WebSocket } from 'ws';
import { connectClient } from '../testing/wsClient';
import { signActor } from '../server/actor';
import { startWsServer } from '../server/wsServer';

const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 0;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const runsOr = (n: number): number => (FUZZ_RUNS > 0 ? FUZZ_RUNS : n);
/** generous: a few hundred ms per run on a busy 2-core machine */
const TIMEOUT_MS = FUZZ_RUNS > 0 ? 60_000 + FUZZ_RUNS * 1000 : 120_000;

const OWNER = 1;
const ANN = 6; // another editor with shapes of her own
const BOB = 7; // the hostile editor
const VIC = 8; // the hostile viewer
const WES = 9; // a well-behaved editor
const actorOf = (userId: number): string => userId.toString(16).padStart(32, 'e');
const who = (userId: number, access: PeerIdentity['access']): PeerIdentity => ({
  userId,
  name: `u${userId}`,
  guest: false,
  access,
  readOnlyReason: null,
});

/** the board before the attack: shapes of the owner, Ann and Bob, as the web writes them */
const OTHERS = ['own-pen', 'own-sticky', 'own-shape', 'ann-pen', 'ann-line'];
const BOBS = ['bob-pen'];
function initialHandle(): Handle {
  const handle = freshBoardHandle();
  const base = A.load<BoardDoc>(handle.save());
  const by = (userId: number, fn: (d: BoardDoc) => void): void => {
    const d = A.change(A.clone(base, { actor: actorOf(userId) }), fn);
    handle.applyChanges([A.getLastLocalChange(d)!]);
  };
  const str = (s: string) => new A.ImmutableString(s);
  by(OWNER, (d) => {
    addShape(d, 'own-pen', penStroke('own-pen', OWNER, [0, 0, 5, 5, 9, 1]));
    addShape(d, 'own-sticky', {
      kind: str('sticky'),
      creator: OWNER,
      z: str('a1'),
      x: 10,
      y: 10,
      w: 100,
      h: 100,
      text: 'hello',
      color: 0xffee88,
    });
    addShape(d, 'own-shape', {
      kind: str('shape'),
      creator: OWNER,
      z: str('a2'),
      x: 0,
      y: 0,
      shapeType: str('ellipse'),
      w: 5,
      h: 5,
      fillColor: null,
    });
  });
  by(ANN, (d) => {
    addShape(d, 'ann-pen', penStroke('ann-pen', ANN, [1, 1]));
    addShape(d, 'ann-line', { ...penStroke('ann-line', ANN, [0, 0, 3, 3]), kind: str('line'), arrowEnd: true });
  });
  by(BOB, (d) => addShape(d, 'bob-pen', penStroke('bob-pen', BOB, [2, 2])));
  return handle;
}

/** every shape of the board as validateShapeRecord sees it (what the node stores) */
function records(handle: Handle): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  const layout = layoutOf(handle)!;
  for (const bucket of layout.bucketIds.keys()) {
    for (const id of handle.keys(bucket)) {
      const v = handle.getWithType(bucket, id)!;
      if (v[0] !== 'map') {
        out.set(id, { notAMap: v[0] });
        continue;
      }
      const raw = handle.materialize(v[1] as string) as Record<string, unknown>;
      const rec: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(raw)) {
        rec[k] = A.isImmutableString(x)
          ? x.val
          : typeof x === 'string'
            ? { textLength: x.length }
            : typeof x === 'bigint'
              ? Number(x)
              : x;
      }
      out.set(id, rec);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// generators

type Val = { dt: string; v: unknown } | { nested: 'map' | 'list' | 'text' };
const FIELDS = [
  'kind',
  'creator',
  'z',
  'x',
  'y',
  'points',
  'text',
  'w',
  'h',
  'strokeColor',
  'fillColor',
  'shapeType',
  'rotation',
  'locked',
  'opacity',
  'id',
  'bogus',
  '__proto__',
];
const val: fc.Arbitrary<Val> = fc.oneof(
  fc.double().map((v) => ({ dt: 'f64', v })),
  fc.integer().map((v) => ({ dt: 'int', v })),
  fc.nat().map((v) => ({ dt: 'uint', v })),
  fc.constantFrom(NaN, Infinity, -Infinity, 1e300).map((v) => ({ dt: 'f64', v })),
  fc.string({ maxLength: 8 }).map((v) => ({ dt: 'str', v })),
  fc.constantFrom(...SHAPE_KINDS, 'bogus', '').map((v) => ({ dt: 'str', v })),
  fc.uint8Array({ maxLength: 24 }).map((v) => ({ dt: 'bytes', v })),
  fc
    .array(fc.double({ min: -1e4, max: 1e4, noNaN: true }), { maxLength: 8 })
    .map((a) => ({ dt: 'bytes', v: packPoints(a.length % 2 ? a.slice(1) : a) })),
  fc.constant({ dt: 'null', v: null }),
  fc.boolean().map((v) => ({ dt: 'boolean', v })),
  fc.integer({ min: 0, max: 99 }).map((v) => ({ dt: 'counter', v })),
  fc.integer({ min: 0, max: 99 }).map((v) => ({ dt: 'timestamp', v })),
  fc.constantFrom('map' as const, 'list' as const, 'text' as const).map((nested) => ({ nested })),
);
const ALL = [...OTHERS, ...BOBS];
type Mut =
  | { t: 'delKey'; s: number; key: string }
  | { t: 'setKey'; s: number; key: string; value: Val }
  | { t: 'delShape'; s: number }
  | { t: 'replaceShape'; s: number; fields: [string, Val][] }
  | { t: 'newShape'; id: string; fields: [string, Val][]; wrongBucket: boolean; valid: boolean }
  | { t: 'root'; key: string; value: Val }
  | { t: 'text'; insert: string; del: number; mark: boolean }
  | { t: 'bucketScalar'; id: string }
  | { t: 'move'; s: number; x: number; y: number; color: number };
const shapeIx = fc.nat({ max: ALL.length - 1 });
const fieldsArb = fc.array(fc.tuple(fc.constantFrom(...FIELDS), val), { maxLength: 6 });
const mut: fc.Arbitrary<Mut> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ t: fc.constant('delKey' as const), s: shapeIx, key: fc.constantFrom(...FIELDS) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('setKey' as const),
      s: shapeIx,
      key: fc.constantFrom(...FIELDS),
      value: val,
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('delShape' as const), s: shapeIx }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('replaceShape' as const), s: shapeIx, fields: fieldsArb }) },
  {
    weight: 3,
    arbitrary: fc
      .record({
        t: fc.constant('newShape' as const),
        id: fc.string({ minLength: 1, maxLength: 6 }),
        fields: fieldsArb,
        wrongBucket: fc.boolean(),
        valid: fc.boolean(),
      })
      .map((m) => (m.valid && m.fields.length % 2 === 1 ? { ...m, fields: [], wrongBucket: false } : m)),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('root' as const),
      key: fc.constantFrom('schema', 'shapes', 'x'),
      value: val,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('text' as const),
      insert: fc.string({ maxLength: 5 }),
      del: fc.nat({ max: 3 }),
      mark: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('bucketScalar' as const), id: fc.string({ maxLength: 4 }) }) },
  {
    // what an editor may do to anyone's shape (D6: not a deletion)
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('move' as const),
      s: shapeIx,
      x: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      y: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      color: fc.integer({ min: 0, max: 0xffffff }),
    }),
  },
);

type Frame =
  | {
      t: 'change';
      muts: Mut[];
      via: 'changes' | 'sync' | 'gap';
      damage: null | { cut: number } | { at: number; xor: number };
    }
  | { t: 'raw'; type: number; payload: Uint8Array }
  | { t: 'list'; type: number; items: Uint8Array[]; lie: number | null; cut: number }
  | { t: 'ephemeral'; kind: number; size: number }
  | { t: 'json'; type: number; text: string }
  | { t: 'oversized'; what: 'frame' | 'change' | 'ephemeral' };
const frame: fc.Arbitrary<Frame> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      t: fc.constant('change' as const),
      muts: fc.oneof(
        { weight: 3, arbitrary: mut.map((m) => [m]) },
        { weight: 1, arbitrary: fc.array(mut, { minLength: 2, maxLength: 3 }) },
      ),
      via: fc.constantFrom('changes' as const, 'changes' as const, 'sync' as const, 'gap' as const),
      damage: fc.oneof(
        { weight: 6, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.record({ cut: fc.nat({ max: 200 }) }) },
        { weight: 1, arbitrary: fc.record({ at: fc.nat({ max: 400 }), xor: fc.integer({ min: 1, max: 255 }) }) },
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('raw' as const),
      type: fc.oneof(fc.constantFrom(...Object.values(MSG)), fc.integer({ min: 0, max: 255 })),
      payload: fc.uint8Array({ maxLength: 64 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('list' as const),
      type: fc.constantFrom(MSG.CHANGES, MSG.SYNC, MSG.EPHEMERAL),
      items: fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 4 }),
      lie: fc.option(fc.constantFrom(0, 5, 0xffff, 0xffffffff)),
      cut: fc.nat({ max: 6 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('ephemeral' as const),
      kind: fc.integer({ min: 0, max: 6 }),
      size: fc.oneof(fc.nat({ max: 32 }), fc.constant(RT_LIMITS.maxEphemeralBytes + 1)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('json' as const),
      type: fc.constantFrom(MSG.HELLO, MSG.VISIBILITY),
      text: fc.oneof(fc.json(), fc.constantFrom('{"hidden":true}', '{"hidden":false}', '{"protocol":1}', '{')),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('oversized' as const),
      what: fc.constantFrom('frame' as const, 'change' as const, 'ephemeral' as const),
    }),
  },
);
type Step = { from: 'editor' | 'viewer'; frame: Frame } | { tick: true };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ from: fc.constantFrom('editor' as const, 'viewer' as const), frame }) },
  { weight: 1, arbitrary: fc.constant({ tick: true as const }) },
);

// ---------------------------------------------------------------------------------------------
// building frames

function put(h: Handle, obj: string, key: string, value: Val): void {
  if ('nested' in value) {
    if (value.nested === 'text') h.putObject(obj, key, 'abc');
    else h.putObject(obj, key, value.nested === 'map' ? { a: 1 } : [1]);
  } else h.put(obj, key, value.v as never, value.dt as never);
}

/** a change made of raw operations on a fork of the room's document, as `userId` */
function craftChange(room: Room, userId: number, muts: Mut[], gap: boolean): Uint8Array | null {
  const h = room.handle.fork(actorOf(userId));
  try {
    const layout = layoutOf(h)!;
    const bucketObj = new Map([...layout.bucketIds].map(([obj, name]) => [name, obj]));
    const shapeObj = (id: string): string | null => {
      const b = bucketObj.get(bucketOf(id))!;
      const v = h.getWithType(b, id);
      return v && v[0] === 'map' ? (v[1] as string) : null;
    };
    if (gap) {
      // a change the room will not have: the next one depends on it (S4)
      h.put(shapeObj('bob-pen') ?? layout.shapes, 'x', 1, 'f64');
      h.commit(null, 0);
    }
    for (const m of muts) {
      try {
        switch (m.t) {
          case 'delKey': {
            const o = shapeObj(ALL[m.s]!);
            if (o) h.delete(o, m.key);
            break;
          }
          case 'setKey': {
            const o = shapeObj(ALL[m.s]!);
            if (o) put(h, o, m.key, m.value);
            break;
          }
          case 'delShape':
            h.delete(bucketObj.get(bucketOf(ALL[m.s]!))!, ALL[m.s]!);
            break;
          case 'replaceShape': {
            const o = h.putObject(bucketObj.get(bucketOf(ALL[m.s]!))!, ALL[m.s]!, {});
            for (const [k, v] of m.fields) put(h, o, k, v);
            break;
          }
          case 'newShape': {
            const bucket = m.wrongBucket
              ? bucketObj.get(bucketOf(m.id) === '00' ? '01' : '00')!
              : bucketObj.get(bucketOf(m.id))!;
            const o = h.putObject(bucket, m.id, {});
            if (m.valid) {
              h.put(o, 'kind', 'pen', 'str');
              h.put(o, 'creator', userId, 'int');
              h.put(o, 'z', 'a5', 'str');
              h.put(o, 'x', 1, 'f64');
              h.put(o, 'y', 2, 'f64');
              h.put(o, 'points', packPoints([0, 0, 1, 1]), 'bytes');
            }
            for (const [k, v] of m.fields) put(h, o, k, v);
            break;
          }
          case 'root':
            put(h, m.key === 'x' ? layout.shapes : '_root', m.key, m.value);
            break;
          case 'text': {
            const o = shapeObj('own-sticky');
            const t = o ? h.getWithType(o, 'text') : null;
            if (!t || t[0] !== 'text') break;
            const len = h.length(t[1] as string);
            h.splice(t[1] as string, 0, Math.min(m.del, len), m.insert);
            if (m.mark && h.length(t[1] as string) > 0)
              h.mark(t[1] as string, { start: 0, end: 1, expand: 'none' }, 'bold', true);
            break;
          }
          case 'bucketScalar':
            h.put(bucketObj.get(bucketOf(m.id))!, m.id, 1, 'int');
            break;
          case 'move': {
            const o = shapeObj(ALL[m.s]!);
            if (!o) break;
            h.put(o, 'x', m.x, 'f64');
            h.put(o, 'y', m.y, 'f64');
            h.put(o, 'strokeColor', m.color, 'int');
            break;
          }
        }
      } catch {
        // an operation the raw API refuses (e.g. a key Automerge rejects): skip it
      }
    }
    h.commit(null, 0);
    return h.getLastLocalChange();
  } finally {
    h.free();
  }
}

function bytesOf(f: Frame, room: Room, userId: number): Uint8Array | null {
  switch (f.t) {
    case 'change': {
      let change = craftChange(room, userId, f.muts, f.via === 'gap');
      if (!change) return null;
      if (f.damage && 'cut' in f.damage) change = change.slice(0, Math.min(f.damage.cut, change.length - 1));
      else if (f.damage) {
        change = change.slice();
        change[f.damage.at % change.length] ^= f.damage.xor;
      }
      return f.via === 'sync'
        ? encodeBytesFrame(MSG.SYNC, A.encodeSyncMessage({ heads: [], need: [], have: [], changes: [change] }))
        : encodeListFrame(MSG.CHANGES, [change]);
    }
    case 'raw':
      return Uint8Array.of(f.type, ...f.payload);
    case 'list': {
      const out = encodeListFrame(f.type as never, f.items);
      if (f.lie !== null) new DataView(out.buffer).setUint32(1, f.lie);
      return f.cut > 0 ? out.slice(0, Math.max(1, out.length - f.cut)) : out;
    }
    case 'ephemeral':
      return Uint8Array.of(MSG.EPHEMERAL, f.kind, ...new Uint8Array(f.size));
    case 'json':
      return Uint8Array.of(f.type, ...new TextEncoder().encode(f.text));
    case 'oversized':
      return f.what === 'frame'
        ? new Uint8Array(RT_LIMITS.maxFrameBytes + 1).fill(MSG.CHANGES, 0, 1)
        : f.what === 'change'
          ? encodeListFrame(MSG.CHANGES, [new Uint8Array(RT_LIMITS.maxChangeBytes + 1)])
          : Uint8Array.of(MSG.EPHEMERAL, EPHEMERAL_KIND.CURSOR, ...new Uint8Array(RT_LIMITS.maxEphemeralBytes + 1));
  }
}

// ---------------------------------------------------------------------------------------------
// the room property

async function attackRoom(steps: Step[]): Promise<void> {
  const handle = initialHandle();
  const startHeads = handle.getHeads();
  const journal = new MemoryJournal();
  const room = new Room({
    boardId: 'fuzz',
    ownerId: OWNER,
    deleteOwnOnly: true,
    handle,
    journal,
    clock: new FakeClock(),
    log: silentLogger(),
  });
  const before = records(handle);
  const socketOf = new Map<Peer, FakeSocket>();
  const join = (userId: number, access: PeerIdentity['access']): Peer => {
    const socket = new FakeSocket();
    const p = room.join(socket, who(userId, access));
    socketOf.set(p, socket);
    return p;
  };
  let bob = join(BOB, 'edit');
  let vic = join(VIC, 'view');

  // the well-behaved client, frames delivered synchronously
  const wes = new TestClient(WES);
  const wesSocket = new FakeSocket();
  wesSocket.onSend = (f) => wes.receive(f);
  const wesRef: { peer?: Peer } = {};
  const early: Uint8Array[] = [];
  wes.attach((f) => (wesRef.peer ? room.receive(wesRef.peer, f) : early.push(f)));
  wesRef.peer = room.join(wesSocket, who(WES, 'edit'));
  for (const f of early.slice(1)) room.receive(wesRef.peer, f); // [0] is HELLO (the server layer's)
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 6; i++) {
      room.tick();
      await room.flushPersist();
    }
  };
  await settle();
  expect(wes.inSync).toBe(true);

  for (const s of steps) {
    if ('tick' in s) {
      await settle();
      continue;
    }
    // a closed attacker comes back (L5: its own socket only was closed)
    if (bob.closed) bob = join(BOB, 'edit');
    if (vic.closed) vic = join(VIC, 'view');
    const peer = s.from === 'editor' ? bob : vic;
    const bytes = bytesOf(s.frame, room, s.from === 'editor' ? BOB : VIC);
    if (!bytes) continue;
    const heads = room.handle.getHeads().slice().sort();
    room.receive(peer, bytes); // L5: never throws
    if (s.from === 'viewer') expect(room.handle.getHeads().slice().sort()).toEqual(heads); // D5
    expect(wesSocket.closedWith).toBeNull();
  }
  await settle();

  // D6: nobody else's shape is lost or corrupted
  const after = records(room.handle);
  for (const id of OTHERS) {
    const was = before.get(id)!;
    const now = after.get(id);
    expect([id, now?.kind, now?.creator]).toEqual([id, was.kind, was.creator]);
    expect([id, validateShapeRecord(now)]).toEqual([id, null]);
  }
  // D7/D10: every record on the board is valid for its kind (Bob's own and new ones too)
  for (const [id, rec] of after) expect([id, validateShapeRecord(rec)]).toEqual([id, null]);
  // P1/P2: exactly what was applied is journaled
  const applied = room.handle.getChanges(startHeads).map((c) => A.decodeChange(c).hash);
  expect(new Set(journal.entries.map((e) => e.hash))).toEqual(new Set(applied));

  // the well-behaved client is still served: it has everything, and its edit is saved
  expect(wes.heads()).toEqual(room.handle.getHeads().slice().sort());
  const h = wes.edit((d) => addShape(d, 'wes-1', penStroke('wes-1', WES, [4, 4])))!;
  await settle();
  expect(wes.errors).toEqual([]);
  expect(wes.savedHashes.has(h)).toBe(true);
  expect(room.handle.getChangeByHash(h)).not.toBeNull();
  room.dispose();
}

describe('hostile frames (property)', () => {
  it(
    'D5/D6/D7/D8/D10/D11/L1/L5/P1/P2: random and mutated frames from an editor and a viewer never cost anyone else a shape',
    async () => {
      await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), attackRoom), {
        numRuns: runsOr(60),
        ...(SEED !== undefined ? { seed: SEED } : {}),
      });
    },
    TIMEOUT_MS,
  );

  it(
    'L1/L5/J1: random frames over the real websocket server, before and after HELLO, leave it serving',
    async () => {
      const journal = new MemoryJournal();
      const room = new Room({
        boardId: 'ws-fuzz',
        ownerId: OWNER,
        deleteOwnOnly: true,
        handle: initialHandle(),
        journal,
        clock: { now: () => Date.now() },
        log: silentLogger(),
      });
      const ticker = setInterval(() => {
        room.tick();
        void room.flushPersist();
      }, 10);
      const SECRET = 'property-test-shared-secret-0123456789';
      const reply = (userId: number): AccessCheckReply =>
        ({
          access: userId === VIC ? 'view' : 'edit',
          readOnlyReason: null,
          board: { ownerId: OWNER, deleteOwnOnly: true },
        }) as unknown as AccessCheckReply;
      const server = await startWsServer({
        port: 0,
        host: '127.0.0.1',
        manager: { open: async () => ({ kind: 'open', room: { room } }) } as unknown as RoomManager,
        access: { check: async (_b, actor) => reply(actor.userId) },
        secret: SECRET,
        allowedOrigins: [],
        clock: { now: () => Date.now() },
        log: silentLogger(),
        helloTimeoutMs: 2000,
      });
      const url = `ws://127.0.0.1:${server.port}`;
      const before = records(room.handle);
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.boolean(),
            fc.constantFrom(BOB, VIC),
            fc.array(frame, { minLength: 1, maxLength: 6 }),
            async (hello, userId, frames) => {
              // a raw socket: optionally a HELLO first, then the frames (after HELLO they reach the room)
              const ws = new WebSocket(`${url}${REALTIME_PATH_PREFIX}ws-fuzz`, {
                headers: { [REALTIME_ACTOR_HEADER]: signActor(SECRET, { userId }, Date.now()) },
              });
              const closed = new Promise<void>((r) => ws.on('close', () => r()));
              ws.on('error', () => undefined);
              await new Promise<void>((r) => ws.once('open', () => r()));
              if (hello) ws.send(encodeJsonFrame(MSG.HELLO, { protocol: 1 }));
              for (const f of frames) {
                const bytes = bytesOf(f, room, userId);
                if (bytes && ws.readyState === WebSocket.OPEN) ws.send(bytes);
              }
              await new Promise((r) => setTimeout(r, 20));
              ws.close();
              await closed;
              // a well-behaved client still joins and gets its edit saved
              const wes = new TestClient(WES);
              const w = await connectClient(url, 'ws-fuzz', wes, { secret: SECRET });
              const end = Date.now() + 5000;
              while (!wes.inSync && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
              const h = wes.edit((d) => addShape(d, `w${Date.now()}${Math.random()}`, penStroke('w', WES, [1, 1])))!;
              while (!wes.savedHashes.has(h) && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
              expect(wes.savedHashes.has(h)).toBe(true);
              w.close();
              await w.closed;
            },
          ),
          { numRuns: runsOr(15), ...(SEED !== undefined ? { seed: SEED } : {}) },
        );
        const after = records(room.handle);
        for (const id of OTHERS) {
          expect([id, after.get(id)?.kind, after.get(id)?.creator]).toEqual([
            id,
            before.get(id)!.kind,
            before.get(id)!.creator,
          ]);
        }
        for (const [id, rec] of after) expect([id, validateShapeRecord(rec)]).toEqual([id, null]);
      } finally {
        clearInterval(ticker);
        await server.close();
        room.dispose();
      }
    },
    TIMEOUT_MS,
  );
});
