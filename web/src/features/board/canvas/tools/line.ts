/**
 * Straight line: drag from start to end (endpoints snapped by the host; Shift keeps the angle on
 * 15° steps), one `line` shape on pointer up with the style's arrowheads.
 */
import type { LineShape } from '@wb/proto';
import { putShape } from '../../realtime/boardDoc';
import type { Point } from '../camera';
import { packWorldPoints } from './pen';
import type { Tool, ToolHost, ToolPointer } from './types';

/** `to` turned about `from` onto the nearest multiple of `stepDeg`, keeping its distance */
export function snapAngle(from: Point, to: Point, stepDeg = 15): Point {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const len = Math.hypot(dx, dy);
  if (len === 0) return { x: to.x, y: to.y };
  const step = (stepDeg * Math.PI) / 180;
  const a = Math.round(Math.atan2(dy, dx) / step) * step;
  // exact zeros on the axes (cos(π/2) is 6e-17), so a horizontal line stays exactly horizontal
  const c = Math.abs(Math.cos(a)) < 1e-12 ? 0 : Math.cos(a);
  const s = Math.abs(Math.sin(a)) < 1e-12 ? 0 : Math.sin(a);
  return { x: from.x + len * c, y: from.y + len * s };
}

/**
 * The end point of a segment from `from`: Shift snaps the angle (then grid snapping would undo
 * it, so it is skipped), otherwise the host snaps it (Alt turns snapping off).
 */
export function segmentEnd(from: Point, p: ToolPointer, host: ToolHost): Point {
  return p.shift ? snapAngle(from, p) : host.snap({ x: p.x, y: p.y }, { alt: p.alt });
}

/** a press that moved less than this (screen px) is a click, not a drag */
export const CLICK_SLOP = 3;

export class LineTool implements Tool {
  readonly id = 'line';
  readonly cursor = 'crosshair';
  readonly edits = true;
  private drag: { id: string; from: Point; to: Point } | null = null;

  down(p: ToolPointer, host: ToolHost): void {
    if (!host.canEdit()) return;
    const from = host.snap({ x: p.x, y: p.y }, { alt: p.alt });
    this.drag = { id: host.newId(), from, to: from };
    host.redraw();
  }

  move(p: ToolPointer, host: ToolHost): void {
    if (!this.drag) return;
    this.drag.to = segmentEnd(this.drag.from, p, host);
    host.redraw();
  }

  up(p: ToolPointer, host: ToolHost): void {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    d.to = segmentEnd(d.from, p, host);
    // a click (no length) makes no line
    if (Math.hypot(d.to.x - d.from.x, d.to.y - d.from.y) * host.zoom() >= CLICK_SLOP) {
      const shape = lineRecord(d.id, d.from, d.to, host);
      host.commit((doc) => putShape(doc, shape));
    }
    host.redraw();
  }

  cancel(host: ToolHost): void {
    if (!this.drag) return;
    this.drag = null;
    host.redraw();
  }

  drawOverlay(g: CanvasRenderingContext2D, host: ToolHost): void {
    const d = this.drag;
    if (d && (d.to.x !== d.from.x || d.to.y !== d.from.y)) host.drawShape(g, lineRecord(d.id, d.from, d.to, host));
  }
}

function lineRecord(id: string, from: Point, to: Point, host: ToolHost): LineShape {
  const style = host.style();
  const packed = packWorldPoints([from.x, from.y, to.x, to.y], host.zoom());
  return {
    id,
    kind: 'line',
    creator: host.userId,
    z: host.topZ(),
    x: packed.x,
    y: packed.y,
    strokeColor: style.strokeColor,
    strokeWidth: style.strokeWidth,
    linePattern: style.linePattern,
    points: packed.points,
    ...(style.arrowStart ? { arrowStart: true } : {}),
    ...(style.arrowEnd ? { arrowEnd: true } : {}),
  };
}
