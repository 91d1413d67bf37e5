/**
 * Snapping (issue 13), pure: a moving box or point snaps to the background grid and to other
 * shapes' edges and centres within a tolerance (6 screen px in world units), and the caller draws
 * the alignment guides. Shape alignment wins over the grid at equal distance (it is what people
 * aim for when they see a guide); the grid draws no guide (it is visible already).
 */
import type { Point, Rect } from '../camera';

export interface SnapContext {
  /** grid spacing in world units, or null (no grid snapping) */
  grid: number | null;
  /** other shapes' bounds near the box (scene.intersecting on an expanded rect, moving shapes excluded) */
  candidates: readonly Rect[];
  /** world units (6 screen px / zoom) */
  tolerance: number;
}

/** axis 'x': a vertical line at x = at from y = from to y = to; axis 'y': a horizontal one */
export interface Guide {
  axis: 'x' | 'y';
  at: number;
  from: number;
  to: number;
}

export interface SnapResult {
  dx: number;
  dy: number;
  guides: Guide[];
}

/** screen px within which things snap */
export const SNAP_PX = 6;

const EPS = 1e-6;

interface AxisSnap {
  delta: number;
  /** the shape line snapped to (null: the grid) */
  line: number | null;
}

/** the best delta on one axis for the box lines `mine` (or null when nothing is in reach) */
function snapAxis(
  mine: readonly number[],
  others: readonly number[],
  grid: number | null,
  tol: number,
): AxisSnap | null {
  let best: AxisSnap | null = null;
  let bestDist = Infinity;
  for (const m of mine)
    for (const o of others) {
      const dist = Math.abs(o - m);
      if (dist <= tol && dist < bestDist - EPS) {
        best = { delta: o - m, line: o };
        bestDist = dist;
      }
    }
  if (grid && grid > 0)
    for (const m of mine) {
      const g = Math.round(m / grid) * grid;
      const dist = Math.abs(g - m);
      // strictly nearer than a shape line: shapes win ties
      if (dist <= tol && dist < bestDist - EPS) {
        best = { delta: g - m, line: null };
        bestDist = dist;
      }
    }
  return best;
}

const xLines = (r: Rect) => [r.minX, (r.minX + r.maxX) / 2, r.maxX];
const yLines = (r: Rect) => [r.minY, (r.minY + r.maxY) / 2, r.maxY];

export function snapBox(box: Rect, ctx: SnapContext): SnapResult {
  const otherX: number[] = [];
  const otherY: number[] = [];
  for (const c of ctx.candidates) {
    otherX.push(...xLines(c));
    otherY.push(...yLines(c));
  }
  const sx = snapAxis(xLines(box), otherX, ctx.grid, ctx.tolerance);
  const sy = snapAxis(yLines(box), otherY, ctx.grid, ctx.tolerance);
  const dx = sx?.delta ?? 0;
  const dy = sy?.delta ?? 0;
  const moved: Rect = { minX: box.minX + dx, minY: box.minY + dy, maxX: box.maxX + dx, maxY: box.maxY + dy };
  return {
    dx,
    dy,
    guides: guidesFor(moved, ctx.candidates, sx !== null && sx.line !== null, sy !== null && sy.line !== null),
  };
}

/** a point snapped like a zero-size box; `point` is where it lands */
export function snapPoint(p: Point, ctx: SnapContext): SnapResult & { point: Point } {
  const r = snapBox({ minX: p.x, minY: p.y, maxX: p.x, maxY: p.y }, ctx);
  return { ...r, point: { x: p.x + r.dx, y: p.y + r.dy } };
}

/** every line of the snapped box that meets a candidate's line, spanning both (one guide per line) */
function guidesFor(box: Rect, candidates: readonly Rect[], onX: boolean, onY: boolean): Guide[] {
  const guides: Guide[] = [];
  const add = (axis: 'x' | 'y', at: number, from: number, to: number) => {
    const g = guides.find((it) => it.axis === axis && Math.abs(it.at - at) < EPS);
    if (g) {
      g.from = Math.min(g.from, from);
      g.to = Math.max(g.to, to);
    } else guides.push({ axis, at, from, to });
  };
  for (const c of candidates) {
    if (onX)
      for (const m of xLines(box))
        if (xLines(c).some((o) => Math.abs(o - m) < EPS))
          add('x', m, Math.min(box.minY, c.minY), Math.max(box.maxY, c.maxY));
    if (onY)
      for (const m of yLines(box))
        if (yLines(c).some((o) => Math.abs(o - m) < EPS))
          add('y', m, Math.min(box.minX, c.minX), Math.max(box.maxX, c.maxX));
  }
  return guides;
}

/** the rect to query candidates in: the box grown by the tolerance and a margin for guides */
export function snapQueryRect(box: Rect, tolerance: number, reach = 2000): Rect {
  const m = tolerance + reach;
  return { minX: box.minX - m, minY: box.minY - m, maxX: box.maxX + m, maxY: box.maxY + m };
}

/** draw guides in world coordinates (1 screen px wide) */
export function drawGuides(g: CanvasRenderingContext2D, guides: readonly Guide[], zoom: number): void {
  if (!guides.length) return;
  g.save();
  g.strokeStyle = '#e11d74';
  g.lineWidth = 1 / zoom;
  g.setLineDash([]);
  g.beginPath();
  for (const it of guides) {
    if (it.axis === 'x') {
      g.moveTo(it.at, it.from);
      g.lineTo(it.at, it.to);
    } else {
      g.moveTo(it.from, it.at);
      g.lineTo(it.to, it.at);
    }
  }
  g.stroke();
  g.restore();
}
