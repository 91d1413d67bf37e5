/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/** Geometry, z-order keys, the scene and the tools without a DOM (real Automerge documents). */
import { readFileSync } from 'node:fs';
import * as A from '@automerge/automerge/slim';
import { BUCKET_NAMES, unpackPoints } from '@wb/proto';
import type { PenShape } from '@wb/proto';
import { getShape, putShape, type BoardDoc } from '../realtime/boardDoc';
import { EphemeralOutbox } from '../realtime/ephemeral';
import { FakeTimers } from '../realtime/testing/fakeTimers';
import { panBy, toScreen, toWorld, zoomAt } from './camera';
import { isOrderKey, keyAbove, keyBetween } from './fractionalIndex';
import { Scene } from './scene';
import { PenTool, SelectTool, type ToolHost } from './tools';

beforeAll(async () => {
  await A.initializeWasm(readFileSync(require.resolve('@automerge/automerge/automerge.wasm')));
});

describe('fractional index (z-order)', () => {
  it('keys sort between their neighbours, stay short when appending, and are valid', () => {
    let top: string | null = null;
    const keys: string[] = [];
    for (let i = 0; i < 5000; i++) keys.push((top = keyAbove(top)));
    expect([...keys].sort()).toEqual(keys);
    expect(keys.at(-1)!.length).toBeLessThanOrEqual(4);
    expect(keys.every(isOrderKey)).toBe(true);
    // insertions between random neighbours keep the order
    const list = ['a0', 'a1'];
    let seed = 7;
    for (let i = 0; i < 500; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const at = seed % (list.length + 1);
      const k = keyBetween(list[at - 1] ?? null, list[at] ?? null);
      list.splice(at, 0, k);
    }
    expect([...list].sort()).toEqual(list);
    expect(new Set(list).size).toBe(list.length);
    expect(keyBetween(null, 'a0') < 'a0').toBe(true);
    expect(keyAbove('not a key!')).toBe('a0'); // foreign keys do not break drawing on top
  });
});

describe('camera', () => {
  it('screen ↔ world round-trip; zoom keeps the point under the pointer', () => {
    const c = { x: 100, y: -50, zoom: 2 };
    const w = toWorld(c, 300, 200);
    expect(toScreen(c, w.x, w.y)).toEqual({ x: 300, y: 200 });
    const z = zoomAt(c, 300, 200, 1.5);
    expect(z.zoom).toBe(3);
    const w2 = toWorld(z, 300, 200);
    expect(w2.x).toBeCloseTo(w.x);
    expect(w2.y).toBeCloseTo(w.y);
    expect(panBy(c, 20, 10)).toEqual({ x: 90, y: -55, zoom: 2 });
    expect(zoomAt(c, 0, 0, 1e6).zoom).toBe(20);
  });
});

/** a board document after the genesis, as the client has it */
function readyDoc(): A.Doc<BoardDoc> {
  return A.change(A.init<BoardDoc>(), (d) => {
    d.schema = 1;
    const shapes: Record<string, Record<string, Record<string, unknown>>> = {};
    for (const b of BUCKET_NAMES) shapes[b] = {};
    d.shapes = shapes;
  });
}

function host(doc: { current: A.Doc<BoardDoc> }, scene: Scene, edit = true) {
  const changes: number[] = [];
  let selection = new Set<string>();
  let n = 0;
  const timers = new FakeTimers();
  const h: ToolHost = {
    scene,
    userId: 42,
    zoom: () => 1,
    canEdit: () => edit,
    style: () => ({ strokeColor: 0xff0000, strokeWidth: 4 }),
    commit: (fn) => {
      if (!edit) return false;
      const before = A.getHeads(doc.current);
      doc.current = A.change(doc.current, fn);
      changes.push(1);
      const ids = new Set(A.diff(doc.current, before, A.getHeads(doc.current)).map((p) => String(p.path[2])));
      scene.apply(doc.current, { all: false, ids });
      return true;
    },
    newId: () => `shape-${++n}`,
    selection: () => selection,
    setSelection: (ids) => {
      selection = new Set(ids);
    },
    ephemeral: new EphemeralOutbox(() => undefined, timers),
    redraw: () => undefined,
  };
  return { h, changes };
}

describe('tools: one committed change per user action', () => {
  it('pen: a drag becomes one pen shape with packed relative points, creator and a top z', () => {
    const doc = { current: readyDoc() };
    const scene = new Scene();
    const { h, changes } = host(doc, scene);
    const pen = new PenTool();
    pen.down({ x: 10, y: 20, shift: false }, h);
    for (let i = 1; i <= 10; i++) pen.move({ x: 10 + i * 5, y: 20 + i, shift: false }, h);
    expect(changes).toHaveLength(0);
    expect(pen.drawing).toBe(true);
    pen.up({ x: 70, y: 31, shift: false }, h);
    expect(changes).toHaveLength(1);
    const shape = getShape(doc.current, 'shape-1') as PenShape;
    expect(shape).toMatchObject({
      kind: 'pen',
      creator: 42,
      x: 10,
      y: 20,
      strokeColor: 0xff0000,
      strokeWidth: 4,
      z: 'a0',
    });
    const pts = unpackPoints(shape.points);
    expect([pts[0], pts[1]]).toEqual([0, 0]);
    expect([pts.at(-2), pts.at(-1)]).toEqual([60, 11]);
    expect(scene.size).toBe(1);
    // the next stroke goes on top
    pen.down({ x: 0, y: 0, shift: false }, h);
    pen.up({ x: 5, y: 5, shift: false }, h);
    expect(getShape(doc.current, 'shape-2')!.z > shape.z).toBe(true);
  });

  it('pen does nothing for a viewer', () => {
    const doc = { current: readyDoc() };
    const { h, changes } = host(doc, new Scene(), false);
    const pen = new PenTool();
    pen.down({ x: 0, y: 0, shift: false }, h);
    pen.up({ x: 5, y: 5, shift: false }, h);
    expect(changes).toHaveLength(0);
  });

  it('select: click hits the stroke, drag moves the selection in one change; marquee selects what it contains', () => {
    const doc = { current: readyDoc() };
    const scene = new Scene();
    const { h, changes } = host(doc, scene);
    const line = (id: string, x: number, y: number): PenShape => ({
      id,
      kind: 'pen',
      creator: 1,
      z: keyAbove(scene.topZ()),
      x,
      y,
      strokeWidth: 3,
      points: new Uint8Array(new Float32Array([0, 0, 100, 0]).buffer),
    });
    h.commit((d) => putShape(d, line('l1', 0, 0)));
    h.commit((d) => putShape(d, line('l2', 0, 200)));
    changes.length = 0;
    const select = new SelectTool();
    select.down({ x: 50, y: 1, shift: false }, h);
    expect([...h.selection()]).toEqual(['l1']);
    select.move({ x: 80, y: 41, shift: false }, h);
    expect(scene.offsets.get('l1')).toEqual({ x: 30, y: 40 });
    select.up({ x: 80, y: 41, shift: false }, h);
    expect(changes).toHaveLength(1);
    expect(getShape(doc.current, 'l1')).toMatchObject({ x: 30, y: 40 });
    expect(scene.offsets.size).toBe(0);
    // a click on empty space clears; a marquee around l2 selects it alone
    select.down({ x: -10, y: 150, shift: false }, h);
    expect(h.selection().size).toBe(0);
    select.move({ x: 120, y: 260, shift: false }, h);
    select.up({ x: 120, y: 260, shift: false }, h);
    expect([...h.selection()]).toEqual(['l2']);
    expect(changes).toHaveLength(1);
  });
});
