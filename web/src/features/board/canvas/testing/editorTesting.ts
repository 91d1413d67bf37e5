/// <reference types="node" />
/**
 * TEST-ONLY: what the board editor's specs share — Automerge's wasm, a document after the
 * genesis, pointer events, a filled rectangle and a fake ToolHost over a real document and Scene.
 */
import { readFileSync } from 'node:fs';
import * as A from '@automerge/automerge/slim';
import { BUCKET_NAMES } from '@wb/proto';
import type { GeometricShape, ShapeRecord } from '@wb/proto';
import { getShape, putShape, touchedShapeIds, type BoardDoc } from '../../realtime/boardDoc';
import { EphemeralOutbox } from '../../realtime/ephemeral';
import { FakeTimers } from '../../realtime/testing/fakeTimers';
import { followBindings } from '../editor/bindings';
import { Scene } from '../scene';
import type { ToolHost, ToolPointer, ToolStyle } from '../tools/types';

/** load Automerge's wasm (the slim build needs it before any document): `beforeAll(loadAutomerge)` */
export async function loadAutomerge(): Promise<void> {
  await A.initializeWasm(readFileSync(require.resolve('@automerge/automerge/automerge.wasm')));
}

/** the genesis, inside a change: schema 1 and every bucket, empty */
export function genesis(d: BoardDoc): void {
  d.schema = 1;
  const shapes: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const b of BUCKET_NAMES) shapes[b] = {};
  d.shapes = shapes;
}

/** a document after the genesis (one change), ready for shapes */
export function readyDoc(options?: A.InitOptions<BoardDoc>): A.Doc<BoardDoc> {
  return A.change(A.init<BoardDoc>(options), genesis);
}

/** a pointer event at world x, y (screen = world × zoom) */
export function pt(x: number, y: number, o: Partial<ToolPointer> = {}, zoom = 1): ToolPointer {
  return {
    x,
    y,
    sx: x * zoom,
    sy: y * zoom,
    shift: false,
    alt: false,
    mod: false,
    pressure: 0.5,
    pointerType: 'mouse',
    clicks: 1,
    ...o,
  };
}

/** a filled 100×50 rectangle at x, y; its z key follows its id's first letter */
export const rect = (id: string, x: number, y: number, extra: Partial<GeometricShape> = {}): GeometricShape => ({
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

/** the fake host's drawing style unless a spec gives its own */
export const TEST_STYLE: ToolStyle = {
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
  formulaColor: 0,
  formulaSize: 20,
  formulaAlignment: 'equation',
};

export interface FakeHostOptions {
  /** may this person edit (false: commits are refused) */
  edit?: boolean;
  /** over TEST_STYLE */
  style?: Partial<ToolStyle>;
}

/**
 * A host as boardView is: commits keep bindings and update the scene by touched ids. `state`
 * records the document, the accepted commits and the shapes whose text was opened for editing;
 * `shapes` are in the document (not counted as a commit) before the first tool runs.
 */
export function fakeToolHost(shapes: ShapeRecord[] = [], o: FakeHostOptions = {}) {
  const state = { doc: readyDoc(), commits: 0, edited: [] as string[], opened: [] as string[] };
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
    style: () => ({ ...TEST_STYLE, ...o.style }),
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
    openEditor: (id) => void state.opened.push(id),
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
