/**
 * What the ruler and protractor tools share: the instrument stays on the board; a click places it
 * (or moves it there), a drag on its body moves it, a drag on its rotate handle turns it (Shift:
 * 15° steps), its × handle or Escape closes it. Everything is ephemeral: nothing is committed.
 */
import type { Point } from '../camera';
import { CLICK_SLOP } from '../tools/line';
import type { Tool, ToolHost, ToolId, ToolPointer } from '../tools/types';
import type { InstrumentsLayer } from './instrumentsLayer';
import { hitTolerancePx, snapAngleTo, type InstrumentPart } from './model';

export interface Placed {
  x: number;
  y: number;
  angle: number;
}

/** how one kind of placed instrument is kept, made and hit */
export interface PlacedKind<T extends Placed> {
  get(layer: InstrumentsLayer): T | null;
  set(layer: InstrumentsLayer, v: T | null, host: ToolHost): void;
  /** a new one centred on p, sized for the zoom (grid `unit` in world units) */
  create(p: Point, zoom: number, unit: number): T;
  /** the same one moved so that it is centred on p */
  centredAt(v: T, p: Point): T;
  hit(p: Point, v: T, zoom: number, tolPx: number): InstrumentPart | null;
  /** the point it turns about */
  pivot(v: T): Point;
}

type Drag<T> =
  | { mode: 'move'; start: T; from: Point }
  | { mode: 'rotate'; start: T; offset: number }
  | { mode: 'close'; from: Point }
  /** pressed off the instrument: a click (no drag) places it there */
  | { mode: 'outside'; from: Point; moved: boolean };

export abstract class PlacedInstrumentTool<T extends Placed> implements Tool {
  abstract readonly id: ToolId;
  readonly cursor = 'default';
  readonly edits = true;
  protected drag: Drag<T> | null = null;

  constructor(
    protected readonly layer: InstrumentsLayer,
    protected readonly kind: PlacedKind<T>,
  ) {}

  down(p: ToolPointer, host: ToolHost): void {
    const v = this.kind.get(this.layer);
    const part = v ? this.kind.hit(p, v, host.zoom(), hitTolerancePx(p.pointerType)) : null;
    if (v && part === 'body') this.drag = { mode: 'move', start: { ...v }, from: { x: p.x, y: p.y } };
    else if (v && part === 'rotate') {
      const c = this.kind.pivot(v);
      this.drag = { mode: 'rotate', start: { ...v }, offset: Math.atan2(p.y - c.y, p.x - c.x) - v.angle };
    } else if (part === 'close') this.drag = { mode: 'close', from: { x: p.x, y: p.y } };
    else {
      this.drag = { mode: 'outside', from: { x: p.x, y: p.y }, moved: false };
      this.outsideDown(p, host);
    }
  }

  move(p: ToolPointer, host: ToolHost): void {
    const d = this.drag;
    if (!d) return;
    if (d.mode === 'move') {
      this.kind.set(this.layer, { ...d.start, x: d.start.x + p.x - d.from.x, y: d.start.y + p.y - d.from.y }, host);
    } else if (d.mode === 'rotate') {
      const c = this.kind.pivot(d.start);
      let angle = Math.atan2(p.y - c.y, p.x - c.x) - d.offset;
      if (p.shift) angle = snapAngleTo(angle, 15);
      this.kind.set(this.layer, turned(d.start, c, angle), host);
    } else if (d.mode === 'outside') {
      d.moved ||= Math.hypot(p.x - d.from.x, p.y - d.from.y) * host.zoom() >= CLICK_SLOP;
      if (d.moved) this.outsideDrag(p, host);
    }
  }

  up(p: ToolPointer, host: ToolHost): void {
    const d = this.drag;
    if (!d) return;
    this.move(p, host);
    this.drag = null;
    if (d.mode === 'close') {
      const v = this.kind.get(this.layer);
      // closes only when released still on the ×
      if (v && this.kind.hit(p, v, host.zoom(), hitTolerancePx(p.pointerType)) === 'close') this.close(host);
    } else if (d.mode === 'outside' && !d.moved) {
      const v = this.kind.get(this.layer);
      const at = { x: p.x, y: p.y };
      this.kind.set(
        this.layer,
        v ? this.kind.centredAt(v, at) : this.kind.create(at, host.zoom(), this.layer.unit()),
        host,
      );
    }
  }

  cancel(host: ToolHost): void {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    // the instrument goes back to where the gesture found it
    if (d.mode === 'move' || d.mode === 'rotate') this.kind.set(this.layer, d.start, host);
  }

  key(e: { key: string }, host: ToolHost): boolean {
    if (e.key !== 'Escape') return false;
    if (this.drag) this.cancel(host);
    else if (this.kind.get(this.layer)) this.close(host);
    else return false;
    return true;
  }

  protected close(host: ToolHost): void {
    this.kind.set(this.layer, null, host);
  }

  /** a press off the instrument (before it is known to be a click or a drag) */
  protected outsideDown(_p: ToolPointer, _host: ToolHost): void {}
  /** dragging after a press off the instrument */
  protected outsideDrag(_p: ToolPointer, _host: ToolHost): void {}
}

/** v turned about c to `angle` (its origin goes round c with it) */
function turned<T extends Placed>(v: T, c: Point, angle: number): T {
  const d = angle - v.angle;
  const dx = v.x - c.x;
  const dy = v.y - c.y;
  return {
    ...v,
    x: c.x + dx * Math.cos(d) - dy * Math.sin(d),
    y: c.y + dx * Math.sin(d) + dy * Math.cos(d),
    angle,
  };
}
