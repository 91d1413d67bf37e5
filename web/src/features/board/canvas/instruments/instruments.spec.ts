/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/**
 * The instrument tools against a fake host over a real document: the compass commits one valid
 * `arc` per sweep, the ruler and protractor are placed, moved, turned and closed without a
 * commit, the pen draws along a ruler, and the layer sends and expires instrument ephemerals.
 */
import { EPHEMERAL_KIND, validateShapeRecord } from '@wb/proto';
import type { ArcShape, PenShape } from '@wb/proto';
import { unpackPoints } from '@wb/proto';
import { allShapes } from '../../realtime/boardDoc';
import { decodeInstruments, EphemeralOutbox, INSTRUMENT_STALE_MS } from '../../realtime/ephemeral';
import { FakeTimers } from '../../realtime/testing/fakeTimers';
import { fakeToolHost, loadAutomerge, pt, TEST_STYLE } from '../testing/editorTesting';
import { PenTool } from '../tools/pen';
import type { ToolHost } from '../tools/types';
import { CompassTool } from './compassTool';
import { pickStep } from './draw';
import { InstrumentsLayer, KEEPALIVE_MS, SEND_INTERVAL_MS } from './instrumentsLayer';
import { rulerHandles, protractorHandles, TAU } from './model';
import { ProtractorTool } from './protractorTool';
import { RulerTool } from './rulerTool';

beforeAll(loadAutomerge);

const deg = (d: number) => (d * Math.PI) / 180;

/** a fake host whose ephemerals are recorded, with an instruments layer on one fake clock */
function setup(o: { zoom?: number; edit?: boolean } = {}) {
  const timers = new FakeTimers();
  const sent: { kind: number; bytes: Uint8Array; at: number }[] = [];
  const base = fakeToolHost([], { edit: o.edit });
  const layer = new InstrumentsLayer({ background: () => 'graphGrid', timers });
  const host: ToolHost = {
    ...base.host,
    zoom: () => o.zoom ?? 1,
    ephemeral: new EphemeralOutbox((kind, bytes) => sent.push({ kind, bytes, at: timers.now() }), timers),
    instruments: () => layer,
  };
  const arcs = () => [...allShapes(base.state.doc).values()].filter((s): s is ArcShape => s.kind === 'arc');
  const frames = () => sent.filter((s) => s.kind === EPHEMERAL_KIND.INSTRUMENT).map((s) => decodeInstruments(s.bytes));
  return { ...base, host, layer, timers, sent, arcs, frames };
}

/** drag the compass pointer around the needle at (0, 0) through these angles (degrees) at radius r */
function sweep(tool: CompassTool, host: ToolHost, r: number, angles: number[]) {
  const at = (a: number) => pt(r * Math.cos(deg(a)), r * Math.sin(deg(a)));
  tool.down(at(angles[0]!), host);
  for (const a of angles.slice(1)) tool.move(at(a), host);
  tool.up(at(angles[angles.length - 1]!), host);
}

describe('compass', () => {
  it('press sets the needle, drag opens it, a second drag sweeps and commits one arc in the tool style', () => {
    const { host, layer, arcs, state } = setup();
    const compass = new CompassTool(layer);
    compass.down(pt(0, 0), host);
    compass.move(pt(60, 0), host);
    compass.up(pt(100, 0), host);
    expect(layer.compass()).toEqual({ cx: 0, cy: 0, radius: 100, startAngle: 0, sweep: 0 });
    expect(state.commits).toBe(0);
    // the second drag starts anywhere but the needle or pencil: the pencil turns with the pointer
    sweep(compass, host, 50, [10, 40, 70, 100]);
    expect(state.commits).toBe(1);
    const [arc] = arcs();
    expect(validateShapeRecord(arc)).toBeNull();
    expect(arc).toMatchObject({
      kind: 'arc',
      x: 0,
      y: 0,
      r: 100,
      strokeColor: TEST_STYLE.strokeColor,
      strokeWidth: TEST_STYLE.strokeWidth,
      linePattern: TEST_STYLE.linePattern,
      creator: 1,
    });
    expect(arc!.startAngle).toBe(0);
    expect(arc!.endAngle).toBeCloseTo(deg(90), 9);
    // it stays open with the pencil where the arc ended, for the next arc
    expect(layer.compass()!.startAngle).toBeCloseTo(deg(90), 9);
    expect(layer.compass()!.sweep).toBe(0);
  });

  it('sweeping past a full turn commits a circle 0…2π; a reverse sweep an arc with endAngle < startAngle', () => {
    const { host, layer, arcs } = setup();
    const compass = new CompassTool(layer);
    compass.down(pt(0, 0), host);
    compass.up(pt(80, 0), host);
    sweep(compass, host, 40, [0, 90, 180, 270, 350, 30, 60]);
    sweep(compass, host, 40, [60, 30, 0, -30]);
    const [back, circle] = arcs().sort((a, b) => a.endAngle - b.endAngle);
    // a full turn stops the pencil where it started (0°); turning back 90° from there
    expect(back!.startAngle).toBe(0);
    expect(back!.endAngle).toBeCloseTo(deg(-90), 9);
    expect(circle).toMatchObject({ startAngle: 0, endAngle: TAU, r: 80 });
    for (const a of arcs()) expect(validateShapeRecord(a)).toBeNull();
  });

  it('a click keeps the last opening; a sweep too small commits nothing; Escape puts it away', () => {
    const { host, layer, state } = setup();
    const compass = new CompassTool(layer);
    // a first click with no opening yet: no compass
    compass.down(pt(5, 5), host);
    compass.up(pt(5, 5), host);
    expect(layer.compass()).toBeNull();
    compass.down(pt(0, 0), host);
    compass.up(pt(0, 30), host);
    expect(compass.key({ key: 'Escape' }, host)).toBe(true);
    expect(layer.compass()).toBeNull();
    expect(compass.key({ key: 'Escape' }, host)).toBe(false);
    compass.down(pt(500, 500), host);
    compass.up(pt(500, 500), host);
    expect(layer.compass()).toMatchObject({ cx: 500, cy: 500, radius: 30 });
    // a sweep that moves the pencil less than a click's slop on screen
    compass.down(pt(600, 500), host);
    compass.up(pt(600, 501), host);
    expect(state.commits).toBe(0);
    expect(layer.compass()!.sweep).toBe(0);
  });

  it('drag the pencil to reopen, the needle to move; a pinch mid-sweep undoes only the sweep', () => {
    const { host, layer, state } = setup();
    const compass = new CompassTool(layer);
    compass.down(pt(0, 0), host);
    compass.up(pt(100, 0), host);
    compass.down(pt(100, 0), host); // the pencil
    compass.up(pt(0, 60), host);
    expect(layer.compass()!.radius).toBeCloseTo(60, 9);
    compass.down(pt(1, 1), host); // the needle
    compass.up(pt(201, 1), host);
    expect(layer.compass()).toMatchObject({ cx: 200, cy: 0 });
    compass.down(pt(300, 0), host);
    compass.move(pt(200, 100), host);
    compass.cancel(host);
    expect(layer.compass()!.sweep).toBe(0);
    expect(state.commits).toBe(0);
    // leaving the tool (cancel without a gesture) puts the compass away
    compass.cancel(host);
    expect(layer.compass()).toBeNull();
  });

  it('a viewer cannot use it', () => {
    const { host, layer } = setup({ edit: false });
    const compass = new CompassTool(layer);
    compass.down(pt(0, 0), { ...host, canEdit: () => false });
    expect(layer.compass()).toBeNull();
  });
});

describe('ruler and protractor', () => {
  it('click places the ruler (whole grid units), drag moves it, the handle turns it (Shift: 15°), × closes it', () => {
    const { host, layer, state } = setup();
    const ruler = new RulerTool(layer);
    ruler.down(pt(300, 200), host);
    ruler.up(pt(300, 200), host);
    const r = layer.ruler()!;
    expect(r.length).toBe(24 * 20); // 480 screen px at zoom 1 on a 20-unit graph grid
    expect(r.x + r.length / 2).toBe(300);
    expect(r.y).toBe(200);
    // drag the body
    ruler.down(pt(310, 210), host);
    ruler.move(pt(320, 230), host);
    ruler.up(pt(330, 250), host);
    expect(layer.ruler()).toMatchObject({ x: 80, y: 240, angle: 0 });
    // turn by the handle beyond the far end, about the 0 mark, Shift snapping to 15°
    const h = rulerHandles(layer.ruler()!, 1);
    ruler.down(pt(h.rotate.x, h.rotate.y), host);
    ruler.up(pt(80 + 300, 240 + 300, { shift: true }), host);
    expect(layer.ruler()!.angle).toBeCloseTo(deg(45), 9);
    expect(layer.ruler()).toMatchObject({ x: 80, y: 240 });
    // a click elsewhere moves it there, keeping its angle
    ruler.down(pt(0, 0), host);
    ruler.up(pt(0, 0), host);
    expect(layer.ruler()!.angle).toBeCloseTo(deg(45), 9);
    const c = layer.ruler()!;
    expect(c.x + (Math.cos(c.angle) * c.length) / 2).toBeCloseTo(0, 9);
    const close = rulerHandles(c, 1).close;
    ruler.down(pt(close.x, close.y), host);
    ruler.up(pt(close.x, close.y), host);
    expect(layer.ruler()).toBeNull();
    expect(state.commits).toBe(0);
  });

  it('Escape cancels a drag first, then closes; the ruler stays when the tool is left', () => {
    const { host, layer } = setup();
    const ruler = new RulerTool(layer);
    ruler.down(pt(300, 200), host);
    ruler.up(pt(300, 200), host);
    const placed = layer.ruler();
    ruler.down(pt(300, 210), host);
    ruler.move(pt(400, 400), host);
    expect(ruler.key({ key: 'Escape' }, host)).toBe(true);
    expect(layer.ruler()).toEqual(placed);
    ruler.cancel(host); // switching tools
    expect(layer.ruler()).toEqual(placed);
    expect(ruler.key({ key: 'Escape' }, host)).toBe(true);
    expect(layer.ruler()).toBeNull();
    expect(ruler.key({ key: 'Escape' }, host)).toBe(false);
  });

  it('the protractor reads the arm’s angle: hover, or a drag from off it (no hover on touch)', () => {
    const { host, layer } = setup();
    const tool = new ProtractorTool(layer);
    tool.down(pt(0, 0), host);
    tool.up(pt(0, 0), host);
    expect(layer.protractor()).toEqual({ x: 0, y: 0, angle: 0, radius: 200 });
    tool.hover!(pt(300, -300), host);
    expect(layer.protractorArm()).toBeCloseTo(deg(-45), 9);
    // hovering over the body keeps the arm still (so it can be grabbed)
    tool.hover!(pt(0, -100), host);
    expect(layer.protractorArm()).toBeCloseTo(deg(-45), 9);
    tool.down(pt(-300, 10, { pointerType: 'touch' }), host);
    tool.move(pt(-300, -300, { pointerType: 'touch' }), host);
    tool.up(pt(-300, -300, { pointerType: 'touch' }), host);
    expect(layer.protractorArm()).toBeCloseTo(deg(-135), 9);
    expect(layer.protractor()).toMatchObject({ x: 0, y: 0 }); // a drag does not move it
    // turning about the centre keeps the centre
    const h = protractorHandles(layer.protractor()!, 1);
    tool.down(pt(h.rotate.x, h.rotate.y), host);
    tool.up(pt(0, 300), host);
    expect(layer.protractor()).toMatchObject({ x: 0, y: 0 });
    expect(layer.protractor()!.angle).toBeCloseTo(deg(90), 9);
  });
});

describe('pen along the ruler', () => {
  it('a stroke that starts by the edge is drawn straight along it; elsewhere it is free', () => {
    const { host, layer, state } = setup();
    layer.setRuler({ x: 0, y: 100, angle: 0, length: 400 }, host);
    const pen = new PenTool();
    pen.down(pt(20, 95), host);
    pen.move(pt(80, 90), host);
    pen.move(pt(150, 112), host);
    pen.up(pt(200, 104), host);
    pen.down(pt(20, 300), host);
    pen.move(pt(80, 330), host);
    pen.up(pt(90, 360), host);
    expect(state.commits).toBe(2);
    const pens = [...allShapes(state.doc).values()].filter((s): s is PenShape => s.kind === 'pen');
    const along = pens.find((s) => s.y < 200);
    const free = pens.find((s) => s.y >= 200);
    const ys = (s: PenShape) =>
      unpackPoints(s.points)
        .filter((_, i) => i % 2 === 1)
        .map((y) => y + s.y);
    expect(new Set(ys(along!))).toEqual(new Set([100]));
    expect(along!.x).toBe(20);
    expect(new Set(ys(free!)).size).toBeGreaterThan(1);
  });
});

describe('instruments layer', () => {
  it('sends my instruments ≤ 20 Hz while they change, repeats them while shown, says when they are gone', () => {
    const { host, layer, timers, sent, frames } = setup();
    const at = () => sent.filter((s) => s.kind === EPHEMERAL_KIND.INSTRUMENT).map((s) => s.at);
    for (let i = 0; i < 20; i++) {
      layer.setRuler({ x: i, y: 0, angle: 0, length: 200 }, host);
      timers.advance(10);
    }
    timers.advance(SEND_INTERVAL_MS);
    const times = at();
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(SEND_INTERVAL_MS);
    expect(times.length).toBeLessThanOrEqual(5);
    // the latest position went out
    expect(frames().at(-1)![0]).toMatchObject({ type: 'ruler', x: 19 });
    // still: repeated every KEEPALIVE_MS so the others do not expire it
    const before = frames().length;
    timers.advance(KEEPALIVE_MS * 3);
    expect(frames().length).toBe(before + 3);
    layer.setRuler(null, host);
    timers.advance(KEEPALIVE_MS * 3);
    expect(frames().at(-1)).toEqual([]);
    expect(frames().length).toBe(before + 4);
  });

  it('shows a peer’s instruments until INSTRUMENT_STALE_MS after their last message', () => {
    const timers = new FakeTimers();
    let expired = 0;
    const layer = new InstrumentsLayer({ timers, redraw: () => expired++ });
    const item = { type: 'ruler' as const, x: 1, y: 2, angle: 0, size: 100, extra: 0 };
    layer.syncRemote(new Map([[7, { items: [item], at: timers.now() }]]));
    expect([...layer.peers().keys()]).toEqual([7]);
    timers.advance(INSTRUMENT_STALE_MS);
    expect([...layer.peers().keys()]).toEqual([7]);
    timers.advance(10);
    expect(layer.peers().size).toBe(0);
    expect(expired).toBe(1);
    layer.dispose();
  });

  it('draws at zoom 0.25–4 once its drawing code is loaded, with peers, ticks thinning out as the scale shrinks', async () => {
    const { host, layer, timers } = setup();
    layer.setRuler({ x: 0, y: 0, angle: 0.3, length: 400 }, host);
    layer.setProtractor({ x: 0, y: 0, angle: 0, radius: 200 }, 1, host);
    layer.setCompass({ cx: 0, cy: 0, radius: 50, startAngle: 0, sweep: 2 }, host);
    const item = { type: 'compass' as const, x: 1, y: 2, angle: 0, size: 100, extra: 1 };
    layer.syncRemote(new Map([[7, { items: [item], at: timers.now() }]]));
    const texts: string[] = [];
    const g = new Proxy({} as Record<string | symbol, unknown>, {
      get: (t, k) =>
        k in t
          ? t[k]
          : k === 'measureText'
            ? (s: string) => ({ width: s.length * 6 })
            : k === 'fillText'
              ? (s: string) => texts.push(s)
              : () => undefined,
      set: (t, k, v) => ((t[k] = v), true),
    }) as unknown as CanvasRenderingContext2D;
    // nothing shown until the drawing code is there (it loads on first use)
    layer.drawOverlay(g, { zoom: 1, theme: 'dark', peerColor: () => '#ff0000', peerName: () => 'Ada' });
    expect(texts).toEqual([]);
    await layer.loadPainter();
    const counts: number[] = [];
    for (const zoom of [0.25, 1, 4]) {
      texts.length = 0;
      layer.drawOverlay(g, { zoom, theme: 'dark', peerColor: () => '#ff0000', peerName: () => 'Ada' });
      counts.push(texts.length);
      expect(texts).toContain('Ada');
      expect(texts).toContain('20.0 · 343°'); // 400 world = 20 units of the graph grid, at −17°
    }
    expect(counts[0]).toBeLessThan(counts[2]!);
    // ticks: the finest step ≥ 6 px apart
    expect(pickStep([0.1, 0.5, 1, 5], 20 * 4, 6)).toBe(0.1);
    expect(pickStep([0.1, 0.5, 1, 5], 20 * 0.25, 6)).toBe(5);
  });
});
