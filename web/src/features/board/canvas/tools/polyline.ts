/**
 * Polyline and curve (one class, `kind` option): every click adds a (snapped) point, the next
 * segment follows the pointer, double-click or Enter ends it (≥ 2 points), clicking the first
 * point again closes it, Backspace takes the last point back and Escape drops it all. A curve is
 * stored as its points (kind 'curve'): the painter draws the smooth curve through them.
 */
import type { PolylineShape } from '@wb/proto';
import { putShape } from '../../realtime/boardDoc';
import type { Point } from '../camera';
import { fillFields } from './geometric';
import { segmentEnd } from './line';
import { packWorldPoints } from './pen';
import type { Tool, ToolHost, ToolPointer } from './types';

/** how near the first point (screen px) a click closes the path */
const CLOSE_RADIUS = 8;

export class PolylineTool implements Tool {
  readonly id: 'polyline' | 'curve';
  readonly cursor = 'crosshair';
  readonly edits = true;
  private path: { id: string; points: Point[] } | null = null;
  /** where the next point would go (hover preview) */
  private next: Point | null = null;

  constructor(opts: { kind: 'polyline' | 'curve' }) {
    this.id = opts.kind;
  }

  /** the points placed so far (world coordinates) */
  get points(): readonly Point[] {
    return this.path?.points ?? [];
  }

  down(p: ToolPointer, host: ToolHost): void {
    if (!host.canEdit()) return;
    // the first click of a double-click already placed the point: the second one only ends
    if (p.clicks >= 2 && this.path) {
      this.finish(host, false);
      return;
    }
    if (!this.path) {
      this.path = { id: host.newId(), points: [host.snap({ x: p.x, y: p.y }, { alt: p.alt })] };
      this.next = null;
      host.redraw();
      return;
    }
    if (this.nearFirst(p, host)) {
      this.finish(host, true);
      return;
    }
    const pts = this.path.points;
    const q = segmentEnd(pts[pts.length - 1]!, p, host);
    const last = pts[pts.length - 1]!;
    if (q.x !== last.x || q.y !== last.y) pts.push(q);
    this.next = null;
    host.redraw();
  }

  move(p: ToolPointer, host: ToolHost): void {
    this.hover(p, host);
  }

  up(): void {
    // points are placed on press; releasing does nothing
  }

  hover(p: ToolPointer, host: ToolHost): void {
    if (!this.path) return;
    const pts = this.path.points;
    this.next = this.nearFirst(p, host) ? { ...pts[0]! } : segmentEnd(pts[pts.length - 1]!, p, host);
    host.redraw();
  }

  key(e: { key: string; shift: boolean; mod: boolean }, host: ToolHost): boolean {
    if (!this.path) return false;
    switch (e.key) {
      case 'Enter':
        this.finish(host, false);
        return true;
      case 'Escape':
        this.cancel(host);
        return true;
      case 'Backspace':
        this.path.points.pop();
        if (this.path.points.length === 0) this.path = null;
        host.redraw();
        return true;
      default:
        return false;
    }
  }

  cancel(host: ToolHost): void {
    if (!this.path) return;
    this.path = null;
    this.next = null;
    host.redraw();
  }

  drawOverlay(g: CanvasRenderingContext2D, host: ToolHost): void {
    if (!this.path) return;
    const pts = [...this.path.points];
    const closing = this.next !== null && pts.length >= 3 && samePoint(this.next, pts[0]!);
    if (this.next && !closing) pts.push(this.next);
    if (pts.length >= 2) host.drawShape(g, this.record(this.path.id, pts, closing, host));
    // the first point: where a click closes the path
    const z = host.zoom();
    g.save();
    g.beginPath();
    g.arc(pts[0]!.x, pts[0]!.y, (closing ? CLOSE_RADIUS : 4) / z, 0, Math.PI * 2);
    g.lineWidth = 1.5 / z;
    g.strokeStyle = '#2563eb';
    g.stroke();
    g.restore();
  }

  /** ends the path: one shape when it has at least two points, else nothing */
  private finish(host: ToolHost, closed: boolean): void {
    const path = this.path;
    this.path = null;
    this.next = null;
    if (path && path.points.length >= 2) {
      const shape = this.record(path.id, path.points, closed, host);
      host.commit((d) => putShape(d, shape));
    }
    host.redraw();
  }

  private nearFirst(p: Point, host: ToolHost): boolean {
    const pts = this.path?.points;
    if (!pts || pts.length < 3) return false;
    return Math.hypot(p.x - pts[0]!.x, p.y - pts[0]!.y) * host.zoom() <= CLOSE_RADIUS;
  }

  private record(id: string, points: readonly Point[], closed: boolean, host: ToolHost): PolylineShape {
    const style = host.style();
    const packed = packWorldPoints(
      points.flatMap((q) => [q.x, q.y]),
      host.zoom(),
    );
    return {
      id,
      kind: this.id,
      creator: host.userId,
      z: host.topZ(),
      x: packed.x,
      y: packed.y,
      strokeColor: style.strokeColor,
      strokeWidth: style.strokeWidth,
      linePattern: style.linePattern,
      points: packed.points,
      // a closed path is an area: it takes the style's fill like the geometric shapes
      ...(closed ? { closed: true, ...fillFields(style) } : {}),
    };
  }
}

const samePoint = (a: Point, b: Point) => a.x === b.x && a.y === b.y;
