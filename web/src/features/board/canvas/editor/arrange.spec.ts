/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/** Arrange commands: z-order keys, lock, groups, duplicate, nudge, delete. */
import * as A from '@automerge/automerge/slim';
import { packPoints } from '@wb/proto';
import type { ConnectorShape, GeometricShape, ShapeRecord, StickyShape } from '@wb/proto';
import { allShapes, getShape, putShape, type BoardDoc } from '../../realtime/boardDoc';
import { shapeBounds } from '../geometry';
import { loadAutomerge, readyDoc } from '../testing/editorTesting';
import * as arrange from './arrange';

beforeAll(loadAutomerge);

const rect = (id: string, z: string, x: number, extra: Partial<GeometricShape> = {}): GeometricShape => ({
  id,
  kind: 'shape',
  shapeType: 'rectangle',
  creator: 7,
  z,
  x,
  y: 0,
  w: 100,
  h: 100,
  ...extra,
});

/** the document's shapes bottom to top with bounds (what arrange reads of the scene) */
function orderOf(
  doc: BoardDoc,
): arrange.ShapeOrder & { topZ(): string | null; get(id: string): { shape: ShapeRecord } | undefined } {
  const list = [...allShapes(doc).values()]
    .sort((a, b) => (a.z < b.z ? -1 : a.z > b.z ? 1 : a.id < b.id ? -1 : 1))
    .map((shape) => ({ shape, bounds: shapeBounds(shape) }));
  return {
    order: () => list,
    topZ: () => list.at(-1)?.shape.z ?? null,
    get: (id) => list.find((it) => it.shape.id === id),
  };
}

/** a board: a (a0) and b (a1) overlap, c (a2) is far away, d (a3) overlaps a and b */
function board(
  shapes: ShapeRecord[] = [rect('a', 'a0', 0), rect('b', 'a1', 50), rect('c', 'a2', 1000), rect('d', 'a3', 20)],
) {
  const state = { doc: readyDoc(), scene: orderOf(readyDoc()) };
  const run = <T>(fn: (d: BoardDoc) => T): T => {
    let out!: T;
    state.doc = A.change(state.doc, (d) => {
      out = fn(d);
    });
    state.scene = orderOf(state.doc);
    return out;
  };
  run((d) => shapes.forEach((s) => putShape(d, s)));
  const order = () => state.scene.order().map((it) => it.shape.id);
  return { state, run, order };
}

describe('arrange', () => {
  it('bring forward / send backward step past the next overlapping shape only', () => {
    const { state, run, order } = board();
    expect(run((d) => arrange.bringForward(d, ['a'], state.scene))).toBe(true);
    // past b (overlaps), not past c (far away)
    expect(order()).toEqual(['b', 'a', 'c', 'd']);
    run((d) => arrange.bringForward(d, ['a'], state.scene));
    expect(order()).toEqual(['b', 'c', 'd', 'a']);
    expect(run((d) => arrange.bringForward(d, ['a'], state.scene))).toBe(false);
    run((d) => arrange.sendBackward(d, ['a'], state.scene));
    expect(order()).toEqual(['b', 'c', 'a', 'd']);
    // c overlaps nothing: send backward does nothing
    expect(run((d) => arrange.sendBackward(d, ['c'], state.scene))).toBe(false);
    run((d) => arrange.sendBackward(d, ['a'], state.scene));
    expect(order()).toEqual(['a', 'b', 'c', 'd']);
  });

  it("to front / to back keep the selection's own order and write only z", () => {
    const { state, run, order } = board();
    run((d) => arrange.bringToFront(d, ['b', 'a'], state.scene));
    expect(order()).toEqual(['c', 'd', 'a', 'b']);
    run((d) => arrange.sendToBack(d, ['d', 'b'], state.scene));
    expect(order()).toEqual(['d', 'b', 'c', 'a']);
    expect(run((d) => arrange.sendToBack(d, ['b', 'd'], state.scene))).toBe(false);
    expect(run((d) => arrange.bringToFront(d, ['a'], state.scene))).toBe(false);
    expect(state.scene.order().every((it) => /^[A-Za-z][0-9A-Za-z]*$/.test(it.shape.z))).toBe(true);
    const heads = A.getHeads(state.doc);
    run((d) => arrange.bringToFront(d, ['c'], state.scene));
    const paths = A.diff(state.doc, heads, A.getHeads(state.doc)).map((p) => p.path.slice(2).join('.'));
    expect(paths).toEqual(['c.z']);
  });

  it('lock/unlock, group/ungroup and expandGroups', () => {
    const { state, run } = board();
    expect(run((d) => arrange.lock(d, ['a', 'b']))).toBe(2);
    expect(getShape(state.doc, 'a')!.locked).toBe(true);
    run((d) => arrange.unlock(d, ['a']));
    expect(getShape(state.doc, 'a')!.locked).toBeUndefined();
    expect(run((d) => arrange.group(d, ['a'], 'g1'))).toBe(false);
    run((d) => arrange.group(d, ['a', 'c'], 'g1'));
    expect(arrange.expandGroups(['c'], state.scene).sort()).toEqual(['a', 'c']);
    expect(arrange.expandGroups(['b'], state.scene)).toEqual(['b']);
    run((d) => arrange.ungroup(d, ['a', 'c']));
    expect(getShape(state.doc, 'a')!.groupId).toBeUndefined();
    expect(arrange.expandGroups(['c'], state.scene)).toEqual(['c']);
  });

  it('nudge moves unlocked shapes; delete keeps locked and refused ones', () => {
    const { state, run } = board([
      rect('a', 'a0', 0),
      rect('b', 'a1', 50, { locked: true }),
      rect('c', 'a2', 300, { creator: 9 }),
    ]);
    expect(run((d) => arrange.nudge(d, ['a', 'b'], 10, -1))).toEqual(['a']);
    expect(getShape(state.doc, 'a')).toMatchObject({ x: 10, y: -1 });
    expect(getShape(state.doc, 'b')).toMatchObject({ x: 50, y: 0 });
    const r = run((d) => arrange.deleteShapes(d, ['a', 'b', 'c'], (_id, s) => s.creator === 7));
    expect(r).toEqual({ deleted: 1, refused: 1, locked: 1, deletedIds: ['a'] });
    expect([...allShapes(state.doc).keys()].sort()).toEqual(['b', 'c']);
  });

  it('a nudge along one axis writes only that coordinate (one op per shape)', () => {
    const { state, run } = board();
    run((d) => arrange.nudge(d, ['a', 'b'], 1, 0));
    const ops = A.decodeChange(A.getLastLocalChange(state.doc)!).ops;
    expect(ops.map((op) => [op.action, op.key])).toEqual([
      ['set', 'x'],
      ['set', 'x'],
    ]);
    expect(getShape(state.doc, 'b')).toMatchObject({ x: 51, y: 0 });
  });

  it('duplicate: +20, new ids on top, groups and bindings among the copies remapped', () => {
    const conn: ConnectorShape = {
      id: 'k',
      kind: 'connector',
      creator: 7,
      z: 'a4',
      x: 0,
      y: 0,
      points: packPoints([100, 50, 300, 50]),
      fromId: 'a',
      toId: 'c',
    };
    const { state, run } = board([
      rect('a', 'a0', 0, { groupId: 'g' }),
      rect('b', 'a1', 200, { groupId: 'g' }),
      rect('c', 'a2', 300),
      conn,
    ]);
    let n = 0;
    const ids = run((d) =>
      arrange.duplicate(d, ['a', 'b', 'k'], (id) => state.scene.get(id)?.shape ?? null, {
        newId: () => `n${++n}`,
        topZ: state.scene.topZ(),
        creator: 42,
      }),
    );
    expect(ids).toEqual(['n1', 'n2', 'n3']);
    const a2 = getShape(state.doc, 'n1')!;
    const b2 = getShape(state.doc, 'n2')!;
    const k2 = getShape(state.doc, 'n3') as ConnectorShape;
    expect(a2).toMatchObject({ x: 20, y: 20, creator: 42, groupId: 'n4' });
    expect(b2.groupId).toBe('n4');
    expect(a2.z > 'a4' && b2.z > a2.z && k2.z > b2.z).toBe(true);
    // a was copied: the copy's end binds to a's copy; c was not: that end is free
    expect(k2).toMatchObject({ fromId: 'n1', toId: null });
  });

  it('restyle applies each field where the kind has it; locked shapes keep theirs', () => {
    const note: StickyShape = {
      id: 's',
      kind: 'sticky',
      creator: 7,
      z: 'a5',
      x: 0,
      y: 0,
      w: 10,
      h: 10,
      text: '',
      color: 1,
    };
    const { state, run } = board([rect('a', 'a0', 0), rect('b', 'a1', 0, { locked: true }), note]);
    const n = run((d) =>
      arrange.restyle(d, ['a', 'b', 's'], { strokeColor: 0xff0000, fillColor: 0x00ff00 }, { stickyColor: 0x123456 }),
    );
    expect(n).toBe(2);
    expect(getShape(state.doc, 'a')).toMatchObject({ strokeColor: 0xff0000, fillColor: 0x00ff00 });
    expect(getShape(state.doc, 'b')!.strokeColor).toBeUndefined();
    expect(getShape(state.doc, 's')).toMatchObject({ color: 0x123456 });
    expect(getShape(state.doc, 's')!.strokeColor).toBeUndefined();
  });

  it("patchShape sets a formula's fields, keeps its LaTeX collaborative and leaves locked shapes alone", () => {
    const formula: ShapeRecord = {
      id: 'f',
      kind: 'formula',
      creator: 7,
      z: 'a6',
      x: 0,
      y: 0,
      latex: 'x^2',
      fontSize: 20,
      color: 0,
      alignment: 'equation',
    };
    const { state, run } = board([formula, rect('b', 'a1', 0, { locked: true })]);
    expect(run((d) => arrange.patchShape(d, 'f', { latex: 'x^2+1', fontSize: 32, kind: 'text', creator: 1 }))).toBe(
      true,
    );
    expect(getShape(state.doc, 'f')).toMatchObject({ kind: 'formula', creator: 7, latex: 'x^2+1', fontSize: 32 });
    expect(run((d) => arrange.patchShape(d, 'f', { fontSize: 32 }))).toBe(false);
    expect(run((d) => arrange.patchShape(d, 'b', { w: 5 }))).toBe(false);
    expect(getShape(state.doc, 'b')).toMatchObject({ w: 100 });
  });

  it('keysBetween tolerates equal and foreign neighbours', () => {
    const k = arrange.keysBetween('a1', 'a2', 3);
    expect(k.every((x) => x > 'a1' && x < 'a2')).toBe(true);
    expect([...k].sort()).toEqual(k);
    expect(arrange.keysBetween('a1', 'a1', 1)[0]! > 'a1').toBe(true);
    expect(arrange.keysBetween('??', 'a0', 1)[0]! < 'a0').toBe(true);
  });
});
