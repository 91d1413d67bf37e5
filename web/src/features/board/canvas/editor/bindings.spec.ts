/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/** Connector bindings: ends on the bound shapes' boxes; move/resize/delete → follow or unbind. */
import * as A from '@automerge/automerge/slim';
import { packPoints, unpackPoints } from '@wb/proto';
import type { ConnectorShape, GeometricShape, ShapeRecord } from '@wb/proto';
import { getShape, moveShape, putShape, removeShape, type BoardDoc } from '../../realtime/boardDoc';
import { loadAutomerge, readyDoc } from '../testing/editorTesting';
import { anchorPoint, connectorEndpoints, followBindings } from './bindings';
import { setFields } from './undo';

beforeAll(loadAutomerge);

const box = (id: string, x: number, y: number, w = 100, h = 100): GeometricShape => ({
  id,
  kind: 'shape',
  shapeType: 'rectangle',
  creator: 1,
  z: 'a0',
  x,
  y,
  w,
  h,
});
const connector = (fromId: string | null, toId: string | null, points = [0, 0, 10, 10]): ConnectorShape => ({
  id: 'c',
  kind: 'connector',
  creator: 1,
  z: 'a1',
  x: 0,
  y: 0,
  points: packPoints(points),
  fromId,
  toId,
  fromAnchor: 'auto',
  toAnchor: 'auto',
});

function ends(c: ShapeRecord): number[] {
  return Array.from(unpackPoints((c as ConnectorShape).points)).map((v, i) => v + (i % 2 ? c.y : c.x));
}

describe('connector bindings', () => {
  it('auto anchors face the other shape; fixed anchors are edge midpoints; rotation is honoured', () => {
    const a = box('a', 0, 0);
    const b = box('b', 300, 0);
    expect(connectorEndpoints(connector('a', 'b'), a, b)).toEqual({ start: { x: 100, y: 50 }, end: { x: 300, y: 50 } });
    const below = box('b', 0, 300);
    expect(connectorEndpoints(connector('a', 'b'), a, below)).toEqual({
      start: { x: 50, y: 100 },
      end: { x: 50, y: 300 },
    });
    // a free end keeps its stored point; the bound end faces it
    const free = connectorEndpoints(connector('a', null, [0, 0, 50, -200]), a, null);
    expect(free.end).toEqual({ x: 50, y: -200 });
    expect(free.start).toEqual({ x: 50, y: 0 });
    const box0 = { x: 0, y: 0, w: 100, h: 50, rotation: 0 };
    expect(anchorPoint(box0, 'top', { x: 0, y: 0 })).toEqual({ x: 50, y: 0 });
    expect(anchorPoint(box0, 'left', { x: 0, y: 0 })).toEqual({ x: 0, y: 25 });
    expect(anchorPoint(box0, 'center', { x: 0, y: 0 })).toEqual({ x: 50, y: 25 });
    const turned = anchorPoint({ ...box0, rotation: Math.PI / 2 }, 'right', { x: 0, y: 0 });
    expect(turned.x).toBeCloseTo(50);
    expect(turned.y).toBeCloseTo(75);
  });

  it('bound ends follow a moved and a resized shape; a deleted shape unbinds its end', () => {
    let doc = readyDoc();
    doc = A.change(doc, (d) => {
      putShape(d, box('a', 0, 0));
      putShape(d, box('b', 300, 0));
      putShape(d, connector('a', 'b'));
      followBindings(
        d,
        ['c'],
        (id) => getShape(d, id),
        () => [],
      );
    });
    expect(ends(getShape(doc, 'c')!)).toEqual([100, 50, 300, 50]);
    const connectorsOf = (id: string) => (id === 'a' || id === 'b' ? ['c'] : []);
    const run = (fn: (d: BoardDoc) => void, changed: string[]) =>
      (doc = A.change(doc, (d) => {
        fn(d);
        followBindings(d, changed, (id) => getShape(d, id), connectorsOf);
      }));

    run((d) => void moveShape(d, 'b', 0, 200), ['b']);
    const moved = ends(getShape(doc, 'c')!);
    // the line from a's centre (50,50) to b's centre (350,250): leaves a through its right edge
    expect(moved[0]).toBeCloseTo(100);
    expect(moved[1]).toBeCloseTo(50 + 200 / 6, 0);
    // and enters b through its left edge
    expect(moved[2]).toBeCloseTo(300);
    expect(moved[3]).toBeCloseTo(250 - 200 / 6, 0);

    run((d) => setFields(d, 'b', { ...box('b', 300, 200), h: 400 }, ['h']), ['b']);
    expect(ends(getShape(doc, 'c')!)[2]).toBeCloseTo(300, 0);

    const before = ends(getShape(doc, 'c')!);
    run((d) => void removeShape(d, 'b'), ['b']);
    const c = getShape(doc, 'c') as ConnectorShape;
    expect(c.toId).toBeNull();
    expect(c.fromId).toBe('a');
    // the free end stays where it was (within the points grid, ¼ unit)
    expect(Math.abs(ends(c)[2]! - before[2]!)).toBeLessThanOrEqual(0.125);
    expect(Math.abs(ends(c)[3]! - before[3]!)).toBeLessThanOrEqual(0.125);
    // unchanged connectors are not rewritten
    const heads = A.getHeads(doc);
    run(() => undefined, ['a']);
    expect(A.diff(doc, heads, A.getHeads(doc))).toEqual([]);
  });
});
