/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/**
 * The creation tools against a fake host over a real Automerge document and Scene: every gesture
 * is one commit of records validateShapeRecord accepts, with the fields the style and the gesture
 * say.
 */
import * as A from '@automerge/automerge/slim';
import { decodeCursor, EPHEMERAL_KIND, packPoints, unpackPoints, validateShapeRecord } from '@wb/proto';
import type { ShapeRecord } from '@wb/proto';
import { allShapes, getShape, putShape } from '../../realtime/boardDoc';
import { decodeLaser, EphemeralOutbox } from '../../realtime/ephemeral';
import { FakeTimers } from '../../realtime/testing/fakeTimers';
import type { Point } from '../camera';
import { keyAbove } from '../fractionalIndex';
import { LASER_FADE_MS, LaserTrails, LOCAL_LASER } from '../laserTrail';
import { Scene } from '../scene';
import { loadAutomerge, pt, readyDoc } from '../testing/editorTesting';
import { setShapeText } from '../textOps';
import { createTools } from './index';
import { snapAngle } from './line';
import { PolylineTool } from './polyline';
import type { TextEditorLike } from './text';
import { TextTool } from './text';
import type { Tool, ToolHost, ToolId, ToolStyle } from './types';

beforeAll(loadAutomerge);

const STYLE: ToolStyle = {
  strokeColor: 0x112233,
  strokeWidth: 4,
  linePattern: 'dashed',
  fillColor: 0xffcc00,
  fill: 'solid',
  textColor: 0x333333,
  textSize: 20,
  textFont: 'Open Sans',
  stickyColor: 0xfff59d,
  fixedWidth: false,
  elbow: false,
  arrowStart: false,
  arrowEnd: true,
  formulaColor: 0,
  formulaSize: 20,
  formulaAlignment: 'equation',
};

interface Options {
  zoom?: number;
  style?: Partial<ToolStyle>;
  /** snap to a grid of this size (0 = no snapping) */
  grid?: number;
  mayDelete?: (s: ShapeRecord) => boolean;
}

/** a ToolHost over a real document; records what the tools asked of it */
function makeHost(opts: Options = {}) {
  const doc = { current: readyDoc() };
  const scene = new Scene();
  const timers = new FakeTimers();
  const sent: { kind: number; bytes: Uint8Array }[] = [];
  const log = {
    commits: 0,
    drawn: [] as ShapeRecord[],
    editText: [] as string[],
    opened: [] as string[],
    tools: [] as ToolId[],
    notes: [] as { kind: string; code: string; values?: Record<string, unknown> }[],
    pans: [] as [number, number][],
    snapped: [] as Point[],
  };
  let selection = new Set<string>();
  let n = 0;
  const grid = opts.grid ?? 0;
  const host: ToolHost = {
    scene,
    userId: 42,
    zoom: () => opts.zoom ?? 1,
    canEdit: () => true,
    style: () => ({ ...STYLE, ...opts.style }),
    commit: (fn) => {
      const before = A.getHeads(doc.current);
      doc.current = A.change(doc.current, fn);
      log.commits++;
      const ids = new Set(A.diff(doc.current, before, A.getHeads(doc.current)).map((p) => String(p.path[2])));
      scene.apply(doc.current, { all: false, ids });
      return true;
    },
    newId: () => `shape-${++n}`,
    topZ: () => keyAbove(scene.topZ()),
    selection: () => selection,
    setSelection: (ids) => {
      selection = new Set(ids);
    },
    ephemeral: new EphemeralOutbox((kind, bytes) => sent.push({ kind, bytes }), timers),
    redraw: () => undefined,
    snap: (p, o) => {
      log.snapped.push(p);
      if (!grid || o?.alt) return { x: p.x, y: p.y };
      return { x: Math.round(p.x / grid) * grid, y: Math.round(p.y / grid) * grid };
    },
    editText: (id) => log.editText.push(id),
    openEditor: (id) => log.opened.push(id),
    setTool: (id) => log.tools.push(id),
    notify: (kind, code, values) => log.notes.push({ kind, code, values }),
    mayDelete: opts.mayDelete ?? (() => true),
    viewRect: () => ({ minX: 0, minY: 0, maxX: 1000, maxY: 800 }),
    pan: (dx, dy) => log.pans.push([dx, dy]),
    drawShape: (_g, s) => log.drawn.push(s),
  };
  /** put shapes straight into the document (not through a tool) */
  const seed = (...shapes: ShapeRecord[]) => {
    doc.current = A.change(doc.current, (d) => shapes.forEach((s) => putShape(d, s)));
    scene.apply(doc.current, { all: true });
  };
  const shapes = () => [...allShapes(doc.current).values()];
  return { host, doc, scene, timers, sent, log, seed, shapes };
}

const fakeG = {} as CanvasRenderingContext2D;

/** every shape in the document is valid, made by user 42 */
function expectValid(shapes: ShapeRecord[]) {
  for (const s of shapes) {
    expect(validateShapeRecord(s)).toBeNull();
    expect(s.creator).toBe(42);
  }
}

const tools = () => createTools();

describe('createTools', () => {
  it('has every tool but those the view adds (select, connector, instruments), each under its own id', () => {
    const all = tools();
    expect(Object.keys(all).sort()).toEqual(
      [
        'hand',
        'pen',
        'eraser',
        'line',
        'polyline',
        'curve',
        'rectangle',
        'ellipse',
        'triangle',
        'diamond',
        'star',
        'hexagon',
        'arrow',
        'sticky',
        'text',
        'formula',
        'graph',
        'laser',
      ].sort(),
    );
    for (const [id, tool] of Object.entries(all)) expect((tool as Tool).id).toBe(id);
    expect(all.hand.edits).toBe(false);
    expect(all.laser.edits).toBe(false);
    expect(all.pen.edits).toBe(true);
  });
});

describe('pen', () => {
  it('a mouse drag: one valid pen shape, relative packed points, no pressures, stroke ephemerals', () => {
    const { host, log, shapes, sent, timers } = makeHost();
    const pen = tools().pen;
    pen.down(pt(10, 20), host);
    for (let i = 1; i <= 10; i++) pen.move(pt(10 + i * 5, 20 + i), host);
    pen.move(pt(60.2, 30.1), host); // sub-pixel: skipped
    pen.drawOverlay!(fakeG, host);
    expect(log.drawn.at(-1)).toMatchObject({ kind: 'pen', id: 'shape-1' });
    expect(validateShapeRecord(log.drawn.at(-1))).toBeNull();
    expect(log.commits).toBe(0);
    pen.up(pt(70, 31), host);
    expect(log.commits).toBe(1);
    const [s] = shapes();
    expectValid(shapes());
    expect(s).toMatchObject({
      kind: 'pen',
      x: 10,
      y: 20,
      strokeColor: 0x112233,
      strokeWidth: 4,
      linePattern: 'dashed',
      z: 'a0',
    });
    expect(s).not.toHaveProperty('pressures');
    const pts = unpackPoints((s as { points: Uint8Array }).points);
    expect(pts.length).toBe(24);
    expect([pts[0], pts[1], pts.at(-2), pts.at(-1)]).toEqual([0, 0, 60, 11]);
    timers.advance(100);
    expect(sent.some((m) => m.kind === EPHEMERAL_KIND.STROKE)).toBe(true);
  });

  it('a stylus stores one pressure byte per point; fixed width stores none', () => {
    const a = makeHost();
    const pen = tools().pen;
    pen.down(pt(0, 0, { pointerType: 'pen', pressure: 0 }), a.host);
    pen.move(pt(5, 0, { pointerType: 'pen', pressure: 0.5 }), a.host);
    pen.up(pt(10, 0, { pointerType: 'pen', pressure: 1 }), a.host);
    const [s] = a.shapes() as unknown as [{ pressures: Uint8Array }];
    expectValid(a.shapes());
    expect([...s.pressures]).toEqual([0, 128, 255]);

    const b = makeHost({ style: { fixedWidth: true } });
    pen.down(pt(0, 0, { pointerType: 'pen', pressure: 0.2 }), b.host);
    pen.up(pt(10, 0, { pointerType: 'pen', pressure: 0.9 }), b.host);
    expect(b.shapes()[0]).not.toHaveProperty('pressures');
  });

  it('cancel ends the live stroke without a commit', () => {
    const { host, log } = makeHost();
    const pen = tools().pen;
    pen.down(pt(0, 0), host);
    pen.move(pt(9, 9), host);
    pen.cancel(host);
    pen.up(pt(20, 20), host);
    expect(log.commits).toBe(0);
  });
});

describe('line', () => {
  it('a drag: one valid line with the style and arrows; endpoints snapped; a click makes nothing', () => {
    const { host, log, shapes } = makeHost({ grid: 10, style: { arrowStart: true } });
    const line = tools().line;
    line.down(pt(11, 19), host);
    line.move(pt(50, 50), host);
    line.drawOverlay!(fakeG, host);
    expect(log.drawn.at(-1)).toMatchObject({ kind: 'line' });
    line.up(pt(102, 48), host);
    expect(log.commits).toBe(1);
    expectValid(shapes());
    const s = shapes()[0]!;
    expect(s).toMatchObject({ kind: 'line', x: 10, y: 20, arrowStart: true, arrowEnd: true, linePattern: 'dashed' });
    expect([...unpackPoints((s as { points: Uint8Array }).points)]).toEqual([0, 0, 90, 30]);

    line.down(pt(300, 300), host);
    line.up(pt(301, 300), host);
    expect(log.commits).toBe(1);
  });

  it('Shift snaps the angle to 15° steps, keeping the length', () => {
    const { host, shapes } = makeHost();
    const line = tools().line;
    line.down(pt(0, 0), host);
    line.up(pt(100, 31, { shift: true }), host); // 17.2° → 15°
    const p = unpackPoints((shapes()[0] as { points: Uint8Array }).points);
    const len = Math.hypot(100, 31);
    // packed on a quarter-unit grid
    expect(Math.abs(p[2]! - len * Math.cos(Math.PI / 12))).toBeLessThanOrEqual(0.125);
    expect(Math.abs(p[3]! - len * Math.sin(Math.PI / 12))).toBeLessThanOrEqual(0.125);
    expect(snapAngle({ x: 0, y: 0 }, { x: 50, y: 3 })).toEqual({ x: Math.hypot(50, 3), y: 0 });
    expect(snapAngle({ x: 0, y: 0 }, { x: -2, y: 40 })).toEqual({ x: 0, y: Math.hypot(2, 40) });
    const d = snapAngle({ x: 10, y: 10 }, { x: 40, y: -22 });
    expect(Math.atan2(d.y - 10, d.x - 10)).toBeCloseTo(-Math.PI / 4);
  });
});

describe('polyline and curve', () => {
  it('clicks add points, Enter ends: one shape; hover previews the next segment', () => {
    const { host, log, shapes } = makeHost();
    const poly = tools().polyline;
    poly.down(pt(0, 0), host);
    poly.up(pt(0, 0), host);
    poly.down(pt(100, 0), host);
    poly.hover!(pt(100, 80), host);
    poly.drawOverlay!({ save() {}, restore() {}, beginPath() {}, arc() {}, stroke() {} } as never, host);
    expect([...unpackPoints((log.drawn.at(-1) as { points: Uint8Array }).points)]).toEqual([0, 0, 100, 0, 100, 80]);
    poly.down(pt(100, 100), host);
    expect(log.commits).toBe(0);
    expect(poly.key!({ key: 'Enter', shift: false, mod: false }, host)).toBe(true);
    expect(log.commits).toBe(1);
    expectValid(shapes());
    const s = shapes()[0]!;
    expect(s).toMatchObject({ kind: 'polyline', x: 0, y: 0, linePattern: 'dashed' });
    expect(s).not.toHaveProperty('closed');
    expect([...unpackPoints((s as { points: Uint8Array }).points)]).toEqual([0, 0, 100, 0, 100, 100]);
    // Enter with nothing drawn is not the tool's
    expect(poly.key!({ key: 'Enter', shift: false, mod: false }, host)).toBe(false);
  });

  it('a double-click ends it without an extra point; curve stores kind curve', () => {
    const { host, log, shapes } = makeHost();
    const curve = new PolylineTool({ kind: 'curve' });
    curve.down(pt(0, 0), host);
    curve.down(pt(50, 40), host);
    curve.down(pt(100, 0), host);
    curve.down(pt(100, 0, { clicks: 2 }), host);
    expect(log.commits).toBe(1);
    expectValid(shapes());
    const s = shapes()[0]!;
    expect(s.kind).toBe('curve');
    expect(unpackPoints((s as { points: Uint8Array }).points).length).toBe(6);
  });

  it('Backspace takes the last point back, Escape drops everything', () => {
    const { host, log, shapes } = makeHost();
    const poly = tools().polyline as PolylineTool;
    poly.down(pt(0, 0), host);
    poly.down(pt(10, 0), host);
    poly.down(pt(20, 30), host);
    expect(poly.key!({ key: 'Backspace', shift: false, mod: false }, host)).toBe(true);
    expect(poly.points).toEqual([
      { x: 0, y: 0 },
      { x: 10, y: 0 },
    ]);
    expect(poly.key!({ key: 'Escape', shift: false, mod: false }, host)).toBe(true);
    expect(poly.points).toEqual([]);
    expect(poly.key!({ key: 'Enter', shift: false, mod: false }, host)).toBe(false);
    expect(log.commits).toBe(0);
    // one point only: Enter ends without a shape
    poly.down(pt(0, 0), host);
    poly.key!({ key: 'Enter', shift: false, mod: false }, host);
    expect(log.commits).toBe(0);
    expect(shapes()).toHaveLength(0);
  });

  it('clicking the first point again closes it (with the fill)', () => {
    const { host, shapes } = makeHost();
    const poly = tools().polyline;
    poly.down(pt(0, 0), host);
    poly.down(pt(100, 0), host);
    poly.down(pt(100, 100), host);
    poly.down(pt(3, 2), host);
    expectValid(shapes());
    const s = shapes()[0]!;
    expect(s).toMatchObject({ kind: 'polyline', closed: true, fill: 'solid', fillColor: 0xffcc00 });
    expect(unpackPoints((s as { points: Uint8Array }).points).length).toBe(6);
  });
});

describe('geometric shapes', () => {
  it('every type: a drag is one valid shape, selected, and the select tool takes over', () => {
    const { host, log, shapes } = makeHost();
    const all = tools();
    const types = ['rectangle', 'ellipse', 'triangle', 'diamond', 'star', 'hexagon', 'arrow'] as const;
    for (const [i, t] of types.entries()) {
      all[t].down(pt(0, i * 100), host);
      all[t].move(pt(40, i * 100 + 20), host);
      all[t].drawOverlay!(fakeG, host);
      expect(log.drawn.at(-1)).toMatchObject({ kind: 'shape', shapeType: t });
      all[t].up(pt(80, i * 100 + 50), host);
      expect(log.commits).toBe(i + 1);
      expect(host.selection()).toEqual(new Set([`shape-${i + 1}`]));
      expect(log.tools.at(-1)).toBe('select');
      expect(getShapeById(shapes(), `shape-${i + 1}`)).toMatchObject({
        kind: 'shape',
        shapeType: t,
        x: 0,
        y: i * 100,
        w: 80,
        h: 50,
        strokeColor: 0x112233,
        strokeWidth: 4,
        linePattern: 'dashed',
        fill: 'solid',
        fillColor: 0xffcc00,
      });
    }
    expectValid(shapes());
  });

  it('Shift = equal sides, Alt = from the centre, a click = 120×120 centred, fill none = no fill fields', () => {
    const { host, shapes } = makeHost({ style: { fill: 'none' } });
    const rect = tools().rectangle;
    rect.down(pt(100, 100), host);
    rect.up(pt(40, 130, { shift: true }), host);
    rect.down(pt(500, 500), host);
    rect.up(pt(530, 520, { alt: true }), host);
    rect.down(pt(900, 900), host);
    rect.up(pt(901, 900), host);
    expectValid(shapes());
    const [a, b, c] = ['shape-1', 'shape-2', 'shape-3'].map((id) => getShapeById(shapes(), id));
    expect(a).toMatchObject({ x: 40, y: 100, w: 60, h: 60 });
    expect(b).toMatchObject({ x: 470, y: 480, w: 60, h: 40 });
    expect(c).toMatchObject({ x: 840, y: 840, w: 120, h: 120 });
    expect(a).not.toHaveProperty('fill');
    expect(a).not.toHaveProperty('fillColor');
  });
});

describe('sticky', () => {
  it('a click: one 200×200 note centred there, selected, select tool, editing at once', () => {
    const { host, log, shapes } = makeHost();
    const sticky = tools().sticky;
    sticky.down(pt(300, 300), host);
    sticky.up(pt(300, 300), host);
    expect(log.commits).toBe(1);
    expectValid(shapes());
    expect(shapes()[0]).toMatchObject({ kind: 'sticky', x: 200, y: 200, w: 200, h: 200, text: '', color: 0xfff59d });
    expect(host.selection()).toEqual(new Set(['shape-1']));
    expect(log.tools).toEqual(['select']);
    expect(log.editText).toEqual(['shape-1']);
  });
});

/** a TextEditor stand-in: remembers the open call, the test decides what was typed */
function fakeEditor() {
  const e = {
    isOpen: false,
    last: null as Parameters<TextEditorLike['open']>[0] | null,
    typed: '',
    open(o: Parameters<TextEditorLike['open']>[0]) {
      e.isOpen = true;
      e.last = o;
      e.typed = o.text;
    },
    close() {
      if (!e.isOpen) return;
      e.isOpen = false;
      if (e.typed !== e.last!.text) e.last!.onCommit(e.typed);
      else e.last!.onCancel();
    },
  };
  return e;
}

describe('text', () => {
  it('a click opens the editor on a draft; committing creates ONE text shape with the text', () => {
    const { host, log, shapes } = makeHost({ zoom: 2 });
    const editor = fakeEditor();
    const text = new TextTool(() => editor);
    text.down(pt(100, 50, {}, 2), host);
    text.up(pt(100, 50, {}, 2), host);
    expect(editor.isOpen).toBe(true);
    expect(log.commits).toBe(0);
    // 320 screen px wide, the style's size at this zoom
    expect(editor.last).toMatchObject({ text: '', zoom: 2, font: 'Open Sans', fontSize: 10, color: '#333333' });
    expect(editor.last!.screenRect).toMatchObject({ x: 200, width: 320 });
    editor.typed = 'Hello\nworld';
    editor.close();
    expect(log.commits).toBe(1);
    expectValid(shapes());
    expect(shapes()[0]).toMatchObject({
      kind: 'text',
      text: 'Hello\nworld',
      font: 'Open Sans',
      fontSize: 10,
      color: 0x333333,
      w: 160,
      x: 100,
    });
    expect(host.selection()).toEqual(new Set(['shape-1']));
    expect(log.tools).toEqual(['select']);
  });

  it('nothing typed (or only spaces) creates nothing', () => {
    const { host, log } = makeHost();
    const editor = fakeEditor();
    const text = new TextTool(() => editor);
    text.down(pt(0, 0), host);
    text.up(pt(0, 0), host);
    editor.close();
    text.down(pt(0, 0), host);
    text.up(pt(0, 0), host);
    editor.typed = '   \n ';
    editor.close();
    expect(log.commits).toBe(0);
  });

  it('the click that ends an edit starts no new one; a tool switch keeps what was typed', () => {
    const { host, log, shapes } = makeHost();
    const editor = fakeEditor();
    const text = new TextTool(() => editor);
    text.down(pt(0, 0), host);
    text.up(pt(0, 0), host);
    editor.typed = 'one';
    text.down(pt(500, 500), host);
    text.up(pt(500, 500), host);
    expect(editor.isOpen).toBe(false);
    expect(log.commits).toBe(1);
    text.down(pt(0, 300), host);
    text.up(pt(0, 300), host);
    editor.typed = 'two';
    text.cancel(host);
    expect(log.commits).toBe(2);
    expect(
      shapes()
        .map((s) => (s as { text: string }).text)
        .sort(),
    ).toEqual(['one', 'two']);
    // cancelled by a tool switch: the host is switching already
    expect(log.tools).toEqual(['select']);
  });

  it('clicking an existing text shape edits it in place', () => {
    const { host, log, seed } = makeHost();
    seed({
      id: 't1',
      kind: 'text',
      creator: 1,
      z: 'a0',
      x: 0,
      y: 0,
      w: 200,
      text: 'hi',
      font: 'Open Sans',
      fontSize: 20,
      color: 0,
    });
    const editor = fakeEditor();
    const text = new TextTool(() => editor);
    text.down(pt(10, 5), host);
    text.up(pt(10, 5), host);
    expect(log.editText).toEqual(['t1']);
    expect(editor.isOpen).toBe(false);
    expect(log.commits).toBe(0);
  });
});

describe('eraser', () => {
  const stroke = (id: string, x: number, y: number, creator = 42, extra: Partial<ShapeRecord> = {}): ShapeRecord =>
    ({
      id,
      kind: 'line',
      creator,
      z: `a${id.length}`,
      x,
      y,
      strokeWidth: 2,
      points: packPoints([0, 0, 0, 20]),
      ...extra,
    }) as ShapeRecord;

  it('removes what the path touched in one change, fading it meanwhile; skips refused and locked', () => {
    const { host, log, seed, shapes, scene } = makeHost({ mayDelete: (s) => s.creator === 42 });
    // four vertical strokes at x = 10, 30, 50, 70; the path is a horizontal swipe in two samples
    seed(
      stroke('mine', 10, 0),
      stroke('theirs', 30, 0, 7),
      stroke('locked', 50, 0, 42, { locked: true }),
      stroke('far', 70, 100),
    );
    host.setSelection(['mine']);
    const eraser = tools().eraser;
    eraser.down(pt(0, 10), host);
    // one sample far to the right: the shapes between the two samples are still touched
    eraser.move(pt(80, 10), host);
    eraser.drawOverlay!(
      { save() {}, restore() {}, beginPath() {}, moveTo() {}, lineTo() {}, stroke() {} } as never,
      host,
    );
    // faded: left out of the scene, drawn translucent on the overlay
    expect(log.drawn.map((s) => [s.id, s.opacity])).toEqual([['mine', 0.25]]);
    expect([...scene.hidden]).toEqual(['mine']);
    expect(log.commits).toBe(0);
    eraser.up(pt(80, 10), host);
    expect(scene.hidden.size).toBe(0);
    expect(log.commits).toBe(1);
    expect(
      shapes()
        .map((s) => s.id)
        .sort(),
    ).toEqual(['far', 'locked', 'theirs']);
    expect(log.notes).toEqual([{ kind: 'warning', code: 'deleteOthers', values: { count: 1 } }]);
    expect(host.selection().size).toBe(0);
  });

  it('touching nothing commits nothing; a cancelled drag shows everything again', () => {
    const { host, log, seed, scene } = makeHost();
    seed(stroke('a', 10, 0));
    const eraser = tools().eraser;
    eraser.down(pt(500, 500), host);
    eraser.up(pt(520, 500), host);
    eraser.down(pt(0, 10), host);
    eraser.move(pt(20, 10), host);
    expect(scene.hidden.has('a')).toBe(true);
    eraser.cancel(host);
    expect(scene.hidden.size).toBe(0);
    expect(log.commits).toBe(0);
    expect(log.notes).toEqual([]);
  });
});

describe('hand', () => {
  it('pans by the screen distance, never commits; grab/grabbing', () => {
    const { host, log } = makeHost({ zoom: 2 });
    const hand = tools().hand;
    expect(hand.cursor).toBe('grab');
    hand.down(pt(10, 10, {}, 2), host);
    expect(hand.cursor).toBe('grabbing');
    hand.move(pt(15, 12, {}, 2), host);
    hand.up(pt(15, 20, {}, 2), host);
    expect(log.pans).toEqual([
      [10, 4],
      [0, 16],
    ]);
    expect(hand.cursor).toBe('grab');
    expect(log.commits).toBe(0);
  });
});

describe('laser', () => {
  it('sends laser ephemerals while pointing, off on up, never commits; feeds the local trail', () => {
    const { host, log, sent, timers } = makeHost();
    let now = 5000;
    const trails = new LaserTrails({ now: () => now });
    const laser = createTools({ laserTrails: trails }).laser;
    laser.hover!(pt(1, 1), host);
    timers.advance(40);
    laser.down(pt(10, 10), host);
    laser.move(pt(20, 10), host);
    timers.advance(40);
    laser.up(pt(20, 10), host);
    timers.advance(40);
    const lasers = sent.filter((m) => m.kind === EPHEMERAL_KIND.LASER).map((m) => decodeLaser(m.bytes));
    // ≤ 30 Hz, latest wins: the first point of each interval goes at once, the rest is coalesced
    expect(lasers).toEqual([{ x: 1, y: 1 }, { x: 10, y: 10 }, { x: 20, y: 10 }, null]);
    expect(log.commits).toBe(0);
    expect(trails.points(LOCAL_LASER).map((p) => [p.x, p.y])).toEqual([
      [1, 1],
      [10, 10],
      [20, 10],
    ]);
    expect(trails.points(LOCAL_LASER).at(-1)!.end).toBe(true);
    expect(trails.hasActive(now)).toBe(true);
    now += LASER_FADE_MS + 1;
    expect(trails.hasActive(now)).toBe(false);
    // the cursor kind is untouched by the laser
    expect(sent.some((m) => m.kind === EPHEMERAL_KIND.CURSOR && decodeCursor(m.bytes))).toBe(false);
  });
});

describe('LaserTrails', () => {
  it('draws fading segments per peer, skips ended joins and repeated points, and stops when faded', () => {
    const calls: string[] = [];
    const g = new Proxy(
      {},
      {
        get: (_t, k) =>
          typeof k === 'string' &&
          ['save', 'restore', 'beginPath', 'moveTo', 'lineTo', 'stroke', 'arc', 'fill'].includes(k)
            ? () => calls.push(k)
            : undefined,
        set: (_t, k, v) => {
          if (k === 'globalAlpha') calls.push(`alpha ${(v as number).toFixed(1)}`);
          if (k === 'strokeStyle') calls.push(`colour ${v as string}`);
          return true;
        },
      },
    ) as CanvasRenderingContext2D;
    const t = new LaserTrails({ now: () => 0 });
    t.add(3, { x: 0, y: 0 }, 0);
    t.add(3, { x: 10, y: 0 }, 500);
    t.add(3, { x: 10, y: 0 }, 900); // the same point again: nothing new
    t.end(3);
    t.add(3, { x: 50, y: 50 }, 1000); // a new trail: no line from (10, 0)
    t.draw(g, 1000, 1, (peer) => `peer${peer}`);
    expect(calls.filter((c) => c === 'stroke')).toHaveLength(1);
    expect(calls).toContain('colour peer3');
    expect(calls).toContain('alpha 0.5');
    expect(calls.filter((c) => c === 'fill')).toHaveLength(1);
    expect(t.hasActive(1500)).toBe(true);
    expect(t.hasActive(2001)).toBe(false);
  });
});

describe('setShapeText', () => {
  it('edits per character: two people typing in the same text both keep their characters', () => {
    const base = A.change(readyDoc(), (d) =>
      putShape(d, {
        id: 's1',
        kind: 'sticky',
        creator: 1,
        z: 'a0',
        x: 0,
        y: 0,
        w: 200,
        h: 200,
        text: 'hello world',
        color: 0,
      }),
    );
    const a = A.change(A.clone(base), (d) => setShapeText(d, 's1', 'hello brave world'));
    const b = A.change(A.clone(base), (d) => setShapeText(d, 's1', 'hello world!'));
    const merged = A.merge(a, b);
    expect((getShape(merged, 's1') as { text: string }).text).toBe('hello brave world!');
    // a missing shape is reported; a missing field is created
    let found = true;
    A.change(base, (d) => {
      found = setShapeText(d, 'nope', 'x');
    });
    expect(found).toBe(false);
    const e = A.change(
      A.change(readyDoc(), (d) =>
        putShape(d, { id: 'g1', kind: 'shape', shapeType: 'rectangle', creator: 1, z: 'a0', x: 0, y: 0, w: 10, h: 10 }),
      ),
      (d) => setShapeText(d, 'g1', 'label'),
    );
    expect((getShape(e, 'g1') as { text?: string }).text).toBe('label');
    expect(validateShapeRecord(getShape(e, 'g1'))).toBeNull();
  });
});

function getShapeById(shapes: ShapeRecord[], id: string): ShapeRecord | undefined {
  return shapes.find((s) => s.id === id);
}
