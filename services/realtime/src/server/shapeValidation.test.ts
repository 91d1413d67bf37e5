/**
 * SPEC D10/D11/L4/L5 through the real websocket endpoint and a room (no database): for every one of
 * the 13 shape kinds, malformed records (a wrong type, a value out of range, an unknown field, too
 * many points, overlong text; new and changed shapes) are refused with an ERROR frame that names
 * the problem, reach neither the other peer nor the journal; valid records with the editor's
 * fields (fill, groupId, connector arrows and elbow, shape labels) pass.
 */
import { randomBytes } from 'node:crypto';
import { bucketOf, encodeListFrame, MSG, packPoints, RT_LIMITS, SHAPE_KINDS, SHAPE_LIMITS } from '@wb/proto';
import type { AccessCheckReply, RtError, ShapeKind } from '@wb/proto';
import { A } from '../doc/automerge';
import { Room } from '../room/room';
import type { RoomManager } from '../room/manager';
import { freshBoardHandle, MemoryJournal, silentLogger } from '../testing/fakes';
import { addShape, TestClient } from '../testing/client';
import type { BoardDoc } from '../testing/client';
import { connectClient } from '../testing/wsClient';
import type { WsConnection } from '../testing/wsClient';
import { signActor } from './actor';
import { startWsServer } from './wsServer';
import type { RunningWsServer } from './wsServer';
import { eventually } from '@wb/platform/testing';

const SECRET = 'shape-validation-test-shared-secret-0123';
const AUTHOR = 5;

const S = (s: string) => new A.ImmutableString(s);
const pts = (n: number): Uint8Array => packPoints(Array.from({ length: n * 2 }, (_, i) => (i % 7) * 1.5));
/** one valid record of every kind as the web writes it (atomic strings, collaborative text) */
function validRecord(kind: ShapeKind): Record<string, unknown> {
  const base = { kind: S(kind), creator: AUTHOR, z: S('a0'), x: 10, y: 20 };
  switch (kind) {
    case 'pen':
      return { ...base, points: pts(3), strokeColor: 0x112233, strokeWidth: 3 };
    case 'line':
      return { ...base, points: pts(2) };
    case 'arc':
      return { ...base, r: 20, startAngle: 0, endAngle: 3.14 };
    case 'polyline':
    case 'curve':
      return { ...base, points: pts(4), closed: false };
    case 'connector':
      return { ...base, points: pts(2), fromId: S('a'), toId: null };
    case 'shape':
      return { ...base, shapeType: S('ellipse'), w: 100, h: 50 };
    case 'sticky':
      return { ...base, w: 200, h: 200, text: 'hello', color: 0xffee88 };
    case 'text':
      return { ...base, text: 'Hi', font: S('Open Sans'), fontSize: 16, color: 0, w: 300 };
    case 'formula':
      return { ...base, latex: 'x^2', fontSize: 20, color: 0, alignment: S('equation') };
    case 'graph':
      return { ...base, spec: S('{"expressions":[]}'), w: 400, h: 300 };
    case 'image':
      return { ...base, fileId: S('f_1'), w: 640, h: 480 };
    case 'documentPage':
      return { ...base, fileId: S('f_2'), page: 3, w: 595, h: 842 };
  }
}
const POINT_KINDS: ReadonlySet<string> = new Set(['pen', 'line', 'polyline', 'curve', 'connector']);
/** a field of the kind that must be a number (or, for enums and ids, a string) */
const TYPED_FIELD: Record<ShapeKind, [string, unknown, RegExp]> = {
  pen: ['points', 7, /pen\.points: must be packed points \(bytes\), not number/],
  line: ['points', S('0,0,1,1'), /line\.points: must be packed points \(bytes\), not string/],
  arc: ['r', S('20'), /arc\.r: must be a number, not string/],
  polyline: ['closed', 1, /polyline\.closed: must be a boolean, not number/],
  curve: ['strokeWidth', true, /curve\.strokeWidth: must be a number, not boolean/],
  connector: ['fromId', 12, /connector\.fromId: must be a string, not number/],
  shape: ['shapeType', 3, /shape\.shapeType: must be one of rectangle, ellipse/],
  sticky: ['color', S('yellow'), /sticky\.color: must be a number, not string/],
  text: ['fontSize', S('16'), /text\.fontSize: must be a number, not string/],
  formula: ['latex', 2, /formula\.latex: must be a string, not number/],
  graph: ['spec', 1, /graph\.spec: must be a string, not number/],
  image: ['fileId', 9, /image\.fileId: must be a string, not number/],
  documentPage: ['page', S('3'), /documentPage\.page: must be a number, not string/],
};
const OUT_OF_RANGE: Record<ShapeKind, [string, unknown, RegExp]> = {
  pen: ['strokeWidth', 5000, /pen\.strokeWidth: must be a finite number from 0 to 1000/],
  line: ['x', 2e9, /line\.x: must be a finite number from -1000000000 to 1000000000/],
  arc: ['startAngle', 1e5, /arc\.startAngle: must be a finite number/],
  polyline: ['opacity', 2, /polyline\.opacity: must be a finite number from 0 to 1/],
  curve: ['rotation', -1e6, /curve\.rotation/],
  connector: ['strokeColor', 0x1000000, /connector\.strokeColor: must be an integer from 0 to 16777215/],
  shape: ['w', -1, /shape\.w: must be a finite number from 0/],
  sticky: ['h', -5, /sticky\.h/],
  text: ['fontSize', 5000, /text\.fontSize: must be a finite number from 0 to 1000/],
  formula: ['color', -1, /formula\.color/],
  graph: ['h', 2e9, /graph\.h/],
  image: ['fillColor', 0x1000000, /image\.fillColor/],
  documentPage: ['page', 1e6, /documentPage\.page: must be an integer from 0 to 100000/],
};
/** the kind's longest string field: collaborative text is filled across several changes (L4) */
const LONG_TEXT: Record<ShapeKind, { field: string; collaborative: boolean; max: number }> = {
  pen: { field: 'z', collaborative: false, max: SHAPE_LIMITS.maxZLength },
  line: { field: 'groupId', collaborative: false, max: SHAPE_LIMITS.maxIdLength },
  arc: { field: 'z', collaborative: false, max: SHAPE_LIMITS.maxZLength },
  polyline: { field: 'groupId', collaborative: false, max: SHAPE_LIMITS.maxIdLength },
  curve: { field: 'z', collaborative: false, max: SHAPE_LIMITS.maxZLength },
  connector: { field: 'toAnchor', collaborative: false, max: SHAPE_LIMITS.maxShortString },
  shape: { field: 'text', collaborative: true, max: SHAPE_LIMITS.maxText },
  sticky: { field: 'text', collaborative: true, max: SHAPE_LIMITS.maxText },
  text: { field: 'text', collaborative: true, max: SHAPE_LIMITS.maxText },
  formula: { field: 'latex', collaborative: true, max: SHAPE_LIMITS.maxText },
  graph: { field: 'spec', collaborative: false, max: SHAPE_LIMITS.maxSpec },
  image: { field: 'fileId', collaborative: false, max: SHAPE_LIMITS.maxIdLength },
  documentPage: { field: 'fileId', collaborative: false, max: SHAPE_LIMITS.maxIdLength },
};

let server: RunningWsServer;
let room: Room;
let journal: MemoryJournal;
let ticker: NodeJS.Timeout;
let author: TestClient;
let observer: TestClient;
const conns: WsConnection[] = [];
/** every refused hash: none may reach the observer or the journal */
const refusedHashes: string[] = [];
const refusedIds: string[] = [];

beforeAll(async () => {
  journal = new MemoryJournal();
  room = new Room({
    boardId: 'b1',
    ownerId: 1,
    deleteOwnOnly: false,
    handle: freshBoardHandle(),
    journal,
    clock: { now: () => Date.now() },
    log: silentLogger(),
  });
  ticker = setInterval(() => {
    room.tick();
    void room.flushPersist();
  }, 5);
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
          board: { ownerId: 1, deleteOwnOnly: false, title: 'Shapes', background: 'empty' },
        }) as unknown as AccessCheckReply,
    },
    secret: SECRET,
    allowedOrigins: [],
    clock: { now: () => Date.now() },
    log: silentLogger(),
  });
  for (const userId of [AUTHOR, 6]) {
    const client = new TestClient(userId);
    conns.push(
      await connectClient(`ws://127.0.0.1:${server.port}`, 'b1', client, {
        secret: SECRET,
        actorHeader: signActor(SECRET, { userId }, Date.now()),
      }),
    );
    await eventually(() => client.inSync, 5000, 25, 'in sync');
    if (userId === AUTHOR) author = client;
    else observer = client;
  }
});
afterAll(async () => {
  for (const c of conns) c.close();
  clearInterval(ticker);
  await server.close();
  room.dispose();
  // D10/L5: nothing refused reached the other peer or the journal
  expect(refusedHashes.length).toBeGreaterThan(13 * 5);
  const journaled = new Set(journal.entries.map((e) => e.hash));
  for (const h of refusedHashes) expect(journaled.has(h)).toBe(false);
  for (const id of refusedIds) expect(observer.shapeIds()).not.toContain(id);
});

let seq = 0;
/**
 * Send one change made on a copy of the author's document (a fresh actor), so that a refused one
 * never sits in the author's history; resolves with the ERROR it got, or null once the observer
 * has it (accepted).
 */
async function send(fn: (d: BoardDoc) => void, keep = false): Promise<RtError | null> {
  const before = author.errors.length;
  let hash: string;
  if (keep) hash = author.edit(fn)!;
  else {
    const scratch = A.change(A.clone(author.doc, { actor: randomBytes(16).toString('hex') }), fn);
    const bytes = A.getLastLocalChange(scratch)!;
    hash = A.decodeChange(bytes).hash;
    author.sendRaw(encodeListFrame(MSG.CHANGES, [bytes]));
  }
  await eventually(
    () => author.errors.length > before || A.hasHeads(observer.doc, [hash]),
    5000,
    25,
    `an answer to change ${hash.slice(0, 8)}`,
  );
  const error = author.errors[before] ?? null;
  if (error) {
    expect(error.hashes).toEqual([hash]);
    refusedHashes.push(hash);
  }
  return error;
}
/** a new shape with this record: refused, with an invalid_change message matching `why` */
async function refusedNew(record: Record<string, unknown>, why: RegExp): Promise<void> {
  const id = `bad${seq++}`;
  refusedIds.push(id);
  const error = await send((d) => addShape(d, id, record));
  expect(error).toEqual({ code: 'invalid_change', message: expect.stringMatching(why), hashes: expect.any(Array) });
}
const shapeOf = (d: BoardDoc, id: string) => d.shapes[bucketOf(id)][id];

describe.each(SHAPE_KINDS.map((k) => [k]))('D10 through the websocket: %s', (kind) => {
  it('refuses a wrong type, a value out of range, an unknown field, too many points and overlong text', async () => {
    const valid = validRecord(kind);
    const [typedField, typedValue, typedWhy] = TYPED_FIELD[kind];
    await refusedNew({ ...valid, [typedField]: typedValue }, typedWhy);
    const [rangeField, rangeValue, rangeWhy] = OUT_OF_RANGE[kind];
    await refusedNew({ ...valid, [rangeField]: rangeValue }, rangeWhy);
    await refusedNew({ ...valid, evil: 1 }, new RegExp(`^${kind}: unknown field "evil"`));
    // nested objects are never part of a record
    await refusedNew(
      { ...valid, fill: { solid: true } },
      new RegExp(`^${kind}\\.fill: must be one of none, solid, semi`),
    );
    if (POINT_KINDS.has(kind)) {
      const min = kind === 'pen' ? 1 : 2;
      const tooMany = new RegExp(`^${kind}\\.points: must hold ${min}–${SHAPE_LIMITS.maxPoints} points`);
      await refusedNew({ ...valid, points: pts(SHAPE_LIMITS.maxPoints + 1) }, tooMany);
      await refusedNew({ ...valid, points: pts(min - 1) }, new RegExp(`^${kind}\\.points: must hold`));
    } else {
      await refusedNew({ ...valid, points: pts(3) }, new RegExp(`^${kind}: unknown field "points"`));
    }

    const long = LONG_TEXT[kind];
    if (!long.collaborative) {
      const why = new RegExp(`^${kind}\\.${long.field}: must be (1–${long.max}|at most ${long.max}) characters`);
      await refusedNew({ ...valid, [long.field]: S('x'.repeat(long.max + 1)) }, why);
    } else {
      // collaborative text: more than maxChangeOps characters cannot be one change (L4), so the
      // text grows over several; the change that takes it past the limit is refused
      const id = `long-${kind}`;
      expect(await send((d) => addShape(d, id, { ...valid, [long.field]: '' }), true)).toBeNull();
      const chunk = RT_LIMITS.maxChangeOps - 10;
      let length = 0;
      while (length + chunk <= long.max) {
        const at = length;
        expect(await send((d) => A.splice(shapeOf(d, id), [long.field], at, 0, 'y'.repeat(chunk)), true)).toBeNull();
        length += chunk;
      }
      const error = await send((d) =>
        A.splice(shapeOf(d, id), [long.field], length, 0, 'z'.repeat(long.max - length + 1)),
      );
      expect(error).toMatchObject({
        code: 'invalid_change',
        message: `a text may hold at most ${long.max} characters`,
      });
      expect(shapeOf(observer.doc, id)[long.field]).toHaveLength(length);
    }
  });

  it('refuses a change that leaves an existing shape invalid; accepts the editor fields', async () => {
    const id = `ok-${kind}`;
    const fields: Record<string, unknown> = { fill: S('semi'), groupId: S('group-1'), fillColor: 0x3366ff };
    if (kind === 'connector')
      Object.assign(fields, { arrowStart: true, arrowEnd: false, elbow: true, toAnchor: S('left') });
    if (kind === 'line') Object.assign(fields, { arrowStart: false, arrowEnd: true });
    if (kind === 'shape') fields.text = 'a label\non two lines';
    expect(await send((d) => addShape(d, id, { ...validRecord(kind), ...fields }), true)).toBeNull();
    const seen = shapeOf(observer.doc, id);
    expect(String(seen.fill)).toBe('semi');
    expect(String(seen.groupId)).toBe('group-1');
    if (kind === 'connector') expect([seen.arrowStart, seen.arrowEnd, seen.elbow]).toEqual([true, false, true]);
    if (kind === 'shape') expect(String(seen.text)).toBe('a label\non two lines');

    // changes to it: valid ones pass, invalid ones are refused naming the shape and the field
    expect(
      await send((d) => {
        shapeOf(d, id).fill = S('none');
        delete shapeOf(d, id).groupId;
      }, true),
    ).toBeNull();
    const refused = async (change: (s: Record<string, unknown>) => void, why: RegExp) => {
      const error = await send((d) => change(shapeOf(d, id)));
      expect(error).toEqual({ code: 'invalid_change', message: expect.stringMatching(why), hashes: expect.any(Array) });
    };
    await refused((s) => (s.fill = S('hatched')), new RegExp(`^${id}: ${kind}\\.fill: must be one of`));
    await refused((s) => (s.groupId = 42), new RegExp(`^${id}: ${kind}\\.groupId: must be a string, not number`));
    await refused((s) => (s.x = 2.5e9 + 0.5), new RegExp(`^${id}: ${kind}\\.x: must be a finite number`));
    await refused((s) => (s.elbow2 = true), new RegExp(`^${id}: ${kind}: unknown field "elbow2"`));
    await refused((s) => delete s.z, new RegExp(`^${id}: ${kind}\\.z is missing`));
    if (kind === 'connector') await refused((s) => (s.elbow = S('yes')), /connector\.elbow: must be a boolean/);
    if (kind === 'line') await refused((s) => (s.arrowEnd = 1), /line\.arrowEnd: must be a boolean/);
    if (kind === 'pen') await refused((s) => (s.arrowEnd = true), /pen: unknown field "arrowEnd"/);
    expect(String(shapeOf(observer.doc, id).fill)).toBe('none');
    expect(shapeOf(observer.doc, id).groupId).toBeUndefined();
  });
});
