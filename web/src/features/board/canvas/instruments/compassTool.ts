/**
 * Compass tool, one pointer throughout (a finger or a mouse):
 * 1. press where the needle goes and drag out to open it (the pencil snaps like line ends;
 *    Shift: whole grid units; the radius is shown in grid units) — a click instead puts the
 *    needle there with the last radius, for constructions that repeat one opening;
 * 2. release, then drag anywhere but on the needle or pencil: the pencil turns with the pointer
 *    around the needle and draws; past a full turn it is a circle; turning back undoes;
 * 3. release commits one `arc` (full circle: 0…2π) in the style's colour, width and pattern.
 * The compass stays open at the new pencil position for another arc; drag its pencil to reopen
 * it, its needle to move it. Escape (or leaving the tool) puts it away.
 */
import type { ArcShape } from '@wb/proto';
import { putShape } from '../../realtime/boardDoc';
import type { Point } from '../camera';
import { CLICK_SLOP } from '../tools/line';
import type { Tool, ToolHost, ToolPointer } from '../tools/types';
import type { InstrumentsLayer } from './instrumentsLayer';
import { accumulateSweep, angleAround, compassArc, hitCompass, hitTolerancePx, type Compass } from './model';

type Drag =
  | { mode: 'open'; start: Compass | null }
  | { mode: 'needle'; start: Compass; offset: Point }
  | { mode: 'sweep'; start: Compass; last: number; id: string };

export class CompassTool implements Tool {
  readonly id = 'compass';
  readonly cursor = 'crosshair';
  readonly edits = true;
  private drag: Drag | null = null;
  /** the last opening, for a click that places the needle */
  private lastRadius = 0;

  constructor(private readonly layer: InstrumentsLayer) {}

  down(p: ToolPointer, host: ToolHost): void {
    if (!host.canEdit()) return;
    const c = this.layer.compass();
    const part = c ? hitCompass(p, c, host.zoom(), hitTolerancePx(p.pointerType)) : null;
    if (c && part === 'pencil') this.drag = { mode: 'open', start: c };
    else if (c && part === 'needle') this.drag = { mode: 'needle', start: c, offset: { x: p.x - c.cx, y: p.y - c.cy } };
    else if (c) {
      const start = { ...c, startAngle: c.startAngle + c.sweep, sweep: 0 };
      this.drag = { mode: 'sweep', start, last: angleAround(p, c), id: host.newId() };
      this.layer.setCompass(start, host);
    } else {
      const needle = host.snap({ x: p.x, y: p.y }, { alt: p.alt });
      this.drag = { mode: 'open', start: null };
      this.layer.setCompass({ cx: needle.x, cy: needle.y, radius: 0, startAngle: 0, sweep: 0 }, host);
    }
  }

  move(p: ToolPointer, host: ToolHost): void {
    const d = this.drag;
    const c = this.layer.compass();
    if (!d || !c) return;
    if (d.mode === 'open') {
      let tip = host.snap({ x: p.x, y: p.y }, { alt: p.alt });
      let radius = Math.hypot(tip.x - c.cx, tip.y - c.cy);
      if (p.shift) {
        radius = Math.round(radius / this.layer.unit()) * this.layer.unit();
        tip = p;
      }
      this.layer.setCompass({ ...c, radius, startAngle: angleAround(tip, c), sweep: 0 }, host);
    } else if (d.mode === 'needle') {
      const needle = host.snap({ x: p.x - d.offset.x, y: p.y - d.offset.y }, { alt: p.alt });
      this.layer.setCompass({ ...c, cx: needle.x, cy: needle.y }, host);
    } else {
      const a = angleAround(p, c);
      const sweep = accumulateSweep(c.sweep, d.last, a);
      d.last = a;
      this.layer.setCompass({ ...c, sweep }, host);
    }
  }

  up(p: ToolPointer, host: ToolHost): void {
    const d = this.drag;
    if (!d) return;
    this.move(p, host);
    this.drag = null;
    const c = this.layer.compass();
    if (!c) return;
    if (d.mode === 'open') {
      if (c.radius * host.zoom() >= CLICK_SLOP) this.lastRadius = c.radius;
      else if (this.lastRadius > 0) this.layer.setCompass({ ...c, radius: this.lastRadius }, host);
      // a click on the pencil leaves it as it was; a first click without an opening puts it away
      else this.layer.setCompass(d.start, host);
    } else if (d.mode === 'sweep') {
      if (Math.abs(c.sweep) * c.radius * host.zoom() >= CLICK_SLOP && c.radius > 0) {
        const shape = arcRecord(d.id, c, host);
        host.commit((doc) => putShape(doc, shape));
      }
      this.layer.setCompass({ ...c, startAngle: c.startAngle + c.sweep, sweep: 0 }, host);
    }
  }

  /**
   * During a gesture (a second finger came down to pinch): the gesture is undone, the compass
   * stays. Otherwise (the tool is being left): the compass is put away.
   */
  cancel(host: ToolHost): void {
    const d = this.drag;
    this.drag = null;
    this.layer.setCompass(d ? d.start : null, host);
  }

  key(e: { key: string }, host: ToolHost): boolean {
    if (e.key !== 'Escape' || (!this.drag && !this.layer.compass())) return false;
    if (this.drag) this.cancel(host);
    else this.layer.setCompass(null, host);
    return true;
  }

  drawOverlay(g: CanvasRenderingContext2D, host: ToolHost): void {
    const d = this.drag;
    const c = this.layer.compass();
    // the arc as it will be stored, in the stroke's own style
    if (d?.mode === 'sweep' && c && c.sweep !== 0) host.drawShape(g, arcRecord(d.id, c, host));
  }
}

/** the committed record: centre at the needle */
export function arcRecord(id: string, c: Compass, host: ToolHost): ArcShape {
  const style = host.style();
  return {
    id,
    kind: 'arc',
    creator: host.userId,
    z: host.topZ(),
    x: c.cx,
    y: c.cy,
    r: c.radius,
    ...compassArc(c),
    strokeColor: style.strokeColor,
    strokeWidth: style.strokeWidth,
    linePattern: style.linePattern,
  };
}
