/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/** The connector tool and bound ends following moves, with a fake host over a real document and Scene. */
import { GEOMETRIC_SHAPES, unpackPoints } from '@wb/proto';
import type { ConnectorShape, GeometricShape, ShapeRecord } from '@wb/proto';
import { bindsShape, hitsShape } from '../geometry';
import { makeItem } from '../scene';
import { fakeToolHost, loadAutomerge, pt, rect } from '../testing/editorTesting';
import { ConnectorTool, targetAt } from './connector';
import { SelectTool } from './select';

beforeAll(loadAutomerge);

/** world end points of a connector */
function ends(c: ShapeRecord | null): number[] {
  const k = c as ConnectorShape;
  return Array.from(unpackPoints(k.points)).map((v, i) => v + (i % 2 ? k.y : k.x));
}

describe('ConnectorTool', () => {
  it('binds shape to shape with auto anchors and the style; one commit; ends follow a move', () => {
    const { host, state, shape } = fakeToolHost([rect('a', 0, 0), rect('b', 300, 0)]);
    const tool = new ConnectorTool();
    tool.hover(pt(350, 25), host);
    expect(tool.target).toBe('b');
    tool.down(pt(50, 25), host);
    tool.move(pt(200, 25), host);
    expect(tool.target).toBeNull();
    tool.move(pt(340, 30), host);
    expect(tool.target).toBe('b');
    tool.up(pt(340, 30), host);
    expect(state.commits).toBe(1);
    const c = shape('new1') as ConnectorShape;
    expect(c).toMatchObject({
      kind: 'connector',
      creator: 1,
      fromId: 'a',
      toId: 'b',
      fromAnchor: 'auto',
      toAnchor: 'auto',
      strokeColor: 0x123456,
      strokeWidth: 3,
      linePattern: 'pen',
      arrowEnd: true,
    });
    expect(ends(c)).toEqual([100, 25, 300, 25]);

    // moving b with the select tool: the bound end follows in the same commit
    const select = new SelectTool();
    select.down(pt(350, 25), host);
    select.move(pt(350, 225, { alt: true }), host);
    select.up(pt(350, 225, { alt: true }), host);
    expect(state.commits).toBe(2);
    const moved = ends(shape('new1'));
    expect(moved[2]).toBeCloseTo(300 + 50 / 4, 0);
    expect(moved[3]).toBeCloseTo(200, 0);
  });

  it('free ends in empty space; a click makes nothing; viewers draw nothing', () => {
    const { host, state, shape } = fakeToolHost([rect('a', 0, 0)]);
    const tool = new ConnectorTool();
    tool.down(pt(50, 25), host);
    tool.up(pt(50, 26), host);
    expect(state.commits).toBe(0);
    tool.down(pt(50, 25), host);
    tool.move(pt(50, 300), host);
    tool.up(pt(50, 300), host);
    const c = shape('new2') as ConnectorShape;
    expect(c).toMatchObject({ fromId: 'a', toId: null });
    expect(ends(c)).toEqual([50, 50, 50, 300]);
    tool.down(pt(500, 500), host);
    tool.up(pt(600, 500), host);
    expect(shape('new3')).toMatchObject({ fromId: null, toId: null });
    const viewer = fakeToolHost([], { edit: false });
    tool.down(pt(0, 0), viewer.host);
    tool.up(pt(100, 0), viewer.host);
    expect(viewer.state.commits).toBe(0);
  });
});

describe('binding to outline shapes (issue 26 #4)', () => {
  /** an outline shape: no fill, as the shape tools make it with Fill None */
  const hollow = (id: string, x: number, y: number, extra: Partial<GeometricShape> = {}) =>
    rect(id, x, y, { fill: 'none', fillColor: null, ...extra });

  it('binds from inside one outline rectangle to inside another, and the ends follow a move', () => {
    const { host, state, shape } = fakeToolHost([hollow('a', 0, 0), hollow('b', 300, 0)]);
    const tool = new ConnectorTool();
    // the middles of the rectangles are 25+ units from any outline: bound all the same
    tool.hover(pt(350, 25), host);
    expect(tool.target).toBe('b');
    tool.down(pt(50, 25), host);
    tool.move(pt(350, 25), host);
    tool.up(pt(350, 25), host);
    const c = shape('new1') as ConnectorShape;
    expect(c).toMatchObject({ fromId: 'a', toId: 'b' });
    expect(ends(c)).toEqual([100, 25, 300, 25]);
    // the select tool moves b by its top edge (an outline shape is selected on its outline)
    const select = new SelectTool();
    select.down(pt(350, 0), host);
    select.move(pt(350, 200, { alt: true }), host);
    select.up(pt(350, 200, { alt: true }), host);
    expect(state.commits).toBe(2);
    expect((shape('b') as GeometricShape).y).toBe(200);
    const moved = ends(shape('new1'));
    expect(moved[3]).toBeCloseTo(200, 0);
  });

  it('every geometric kind binds on its outline and inside, fill or not; outside its outline it does not', () => {
    for (const shapeType of GEOMETRIC_SHAPES) {
      const s = hollow('s', 0, 0, { shapeType, w: 200, h: 200 });
      const it = makeItem(s);
      const at = (x: number, y: number) => bindsShape(s, it.points, it.bounds, { x, y }, 2);
      // the centre is inside every kind, far from its outline: an outline shape is not hit there
      expect([shapeType, at(100, 110)]).toEqual([shapeType, true]);
      expect(hitsShape(s, it.points, it.bounds, { x: 100, y: 110 }, 2)).toBe(false);
      const filled = { ...s, fill: 'solid', fillColor: 0xff0000 } as GeometricShape;
      const f = makeItem(filled);
      expect(bindsShape(filled, f.points, f.bounds, { x: 100, y: 110 }, 2)).toBe(true);
      // far outside: never
      expect(at(400, 400)).toBe(false);
      // the box's corner is outside an ellipse, a triangle, a diamond, a star and a hexagon
      if (shapeType !== 'rectangle' && shapeType !== 'arrow') expect([shapeType, at(4, 4)]).toEqual([shapeType, false]);
    }
    // rotated: the rule works in the shape's frame
    const r = hollow('r', 0, 0, { shapeType: 'diamond', w: 200, h: 100, rotation: Math.PI / 2 });
    const ri = makeItem(r);
    expect(bindsShape(r, ri.points, ri.bounds, { x: 100, y: 130 }, 2)).toBe(true);
    expect(bindsShape(r, ri.points, ri.bounds, { x: 20, y: 50 }, 2)).toBe(false);
  });

  it('connectors never bind; nested shapes: the smallest one down to the first solid hit', () => {
    const note: ShapeRecord = {
      id: 'n',
      kind: 'sticky',
      creator: 1,
      z: 'a1',
      x: 100,
      y: 100,
      w: 100,
      h: 100,
      text: '',
      color: 0xfff59d,
    } as ShapeRecord;
    // an empty frame drawn round the note (above it), and an empty circle drawn on the note
    const frame = hollow('f', 0, 0, { w: 400, h: 400, z: 'a2' });
    const circle = hollow('c', 120, 120, { shapeType: 'ellipse', w: 40, h: 40, z: 'a3' });
    const { host } = fakeToolHost([note, frame, circle]);
    expect(targetAt(pt(180, 180), host)?.id).toBe('n'); // on the note, outside the circle
    expect(targetAt(pt(140, 140), host)?.id).toBe('c'); // inside the circle
    expect(targetAt(pt(50, 300), host)?.id).toBe('f'); // inside the frame only
    expect(targetAt(pt(140, 140), host, 'c')?.id).toBe('n');
    expect(targetAt(pt(600, 600), host)).toBeNull();
    const tool = new ConnectorTool();
    tool.down(pt(50, 300), host);
    tool.up(pt(140, 140), host);
    const { shape } = { shape: (id: string) => host.scene.get(id)?.shape ?? null };
    expect(shape('new1')).toMatchObject({ fromId: 'f', toId: 'c' });
    // a press on the connector just made binds to what is under it, never to the connector
    expect(targetAt(pt(95, 220), host)?.id).not.toBe('new1');
  });
});
