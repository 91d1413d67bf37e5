/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/** The connector tool and bound ends following moves, with a fake host over a real document and Scene. */
import { readFileSync } from 'node:fs';
import * as A from '@automerge/automerge/slim';
import { BUCKET_NAMES } from '@wb/proto';
import { unpackPoints } from '@wb/proto';
import type { ConnectorShape, GeometricShape, ShapeRecord } from '@wb/proto';
import { getShape, putShape, touchedShapeIds, type BoardDoc } from '../../realtime/boardDoc';
import { EphemeralOutbox } from '../../realtime/ephemeral';
import { FakeTimers } from '../../realtime/testing/fakeTimers';
import { followBindings } from '../editor/bindings';
import { Scene } from '../scene';
import { ConnectorTool } from './connector';
import { SelectTool } from './select';
import type { ToolHost, ToolPointer } from './types';

beforeAll(async () => {
  await A.initializeWasm(readFileSync(require.resolve('@automerge/automerge/automerge.wasm')));
});

function readyDoc(): A.Doc<BoardDoc> {
  return A.change(A.init<BoardDoc>(), (d) => {
    d.schema = 1;
    const shapes: Record<string, Record<string, Record<string, unknown>>> = {};
    for (const b of BUCKET_NAMES) shapes[b] = {};
    d.shapes = shapes;
  });
}

const rect = (id: string, x: number, y: number, extra: Partial<GeometricShape> = {}): GeometricShape => ({
  id,
  kind: 'shape',
  shapeType: 'rectangle',
  creator: 1,
  z: 'a' + id.charCodeAt(0).toString(36).slice(-1),
  x,
  y,
  w: 100,
  h: 50,
  strokeWidth: 2,
  // filled: hit inside, not only on the outline
  fillColor: 0xffffff,
  fill: 'solid',
  ...extra,
});

function pt(x: number, y: number, o: Partial<ToolPointer> = {}): ToolPointer {
  return {
    x,
    y,
    shift: false,
    alt: false,
    mod: false,
    pressure: 0.5,
    pointerType: 'mouse',
    sx: x,
    sy: y,
    clicks: 1,
    ...o,
  };
}

/** a host as boardView is: commits keep bindings and update the scene by touched ids */
function fakeHost(shapes: ShapeRecord[], o: { edit?: boolean } = {}) {
  const state = { doc: readyDoc(), commits: 0, edited: [] as string[] };
  const scene = new Scene();
  let selection = new Set<string>();
  let n = 0;
  const change = (fn: (d: BoardDoc) => void) => {
    const before = A.getHeads(state.doc);
    state.doc = A.change(state.doc, (d) => {
      fn(d);
      followBindings(
        d,
        scene.ids(),
        (id) => getShape(d, id),
        (id) => scene.connectorsOf(id),
      );
    });
    scene.apply(state.doc, { all: false, ids: touchedShapeIds(A.diff(state.doc, before, A.getHeads(state.doc))) });
  };
  change((d) => shapes.forEach((s) => putShape(d, s)));
  const host: ToolHost = {
    scene,
    userId: 1,
    zoom: () => 1,
    canEdit: () => o.edit ?? true,
    style: () => ({
      strokeColor: 0x123456,
      strokeWidth: 3,
      linePattern: 'pen',
      fillColor: null,
      fill: 'none',
      textColor: 0,
      textSize: 16,
      textFont: 'Open Sans',
      stickyColor: 0xffee00,
      fixedWidth: false,
      elbow: false,
      arrowStart: false,
      arrowEnd: true,
    }),
    commit: (fn) => {
      if (!(o.edit ?? true)) return false;
      change(fn);
      state.commits++;
      return true;
    },
    newId: () => `new${++n}`,
    topZ: () => 'z0',
    selection: () => selection,
    setSelection: (ids) => void (selection = new Set(ids)),
    ephemeral: new EphemeralOutbox(() => undefined, new FakeTimers()),
    redraw: () => undefined,
    snap: (p) => p,
    editText: (id) => void state.edited.push(id),
    setTool: () => undefined,
    notify: () => undefined,
    mayDelete: () => true,
    viewRect: () => ({ minX: -1000, minY: -1000, maxX: 1000, maxY: 1000 }),
    pan: () => undefined,
    drawShape: () => undefined,
  };
  const shape = (id: string) => getShape(state.doc, id);
  return { host, state, scene, shape };
}

/** world end points of a connector */
function ends(c: ShapeRecord | null): number[] {
  const k = c as ConnectorShape;
  return Array.from(unpackPoints(k.points)).map((v, i) => v + (i % 2 ? k.y : k.x));
}

describe('ConnectorTool', () => {
  it('binds shape to shape with auto anchors and the style; one commit; ends follow a move', () => {
    const { host, state, shape } = fakeHost([rect('a', 0, 0), rect('b', 300, 0)]);
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
    const { host, state, shape } = fakeHost([rect('a', 0, 0)]);
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
    const viewer = fakeHost([], { edit: false });
    tool.down(pt(0, 0), viewer.host);
    tool.up(pt(100, 0), viewer.host);
    expect(viewer.state.commits).toBe(0);
  });
});
