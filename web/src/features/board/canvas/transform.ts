/**
 * Moving, resizing and rotating shape records (the select tool's handles). Pure: every function
 * returns a new plain ShapeRecord that validateShapeRecord accepts; the committed record is
 * written by the caller in one change.
 */
import { packPoints, POINTS_GRID_EXP } from '@wb/proto';
import type { ShapeRecord } from '@wb/proto';
import type { Point, Rect } from './camera';
import { localBox, localPoints } from './geometry';

const MAX_FONT = 1000;
const MIN_FONT = 1;

export function translateShape<S extends ShapeRecord>(shape: S, dx: number, dy: number): S {
  return { ...shape, x: shape.x + dx, y: shape.y + dy };
}

/** the grid a record's points were packed on (compact form), so a resize keeps their precision */
function gridExpOf(points: Uint8Array): number {
  if (points.length % 8 !== 0 && points[0]! <= POINTS_GRID_EXP.max) return points[0]!;
  return POINTS_GRID_EXP.default;
}

function scalePoints(points: Uint8Array, sx: number, sy: number): Uint8Array {
  const pts = localPoints({ points } as ShapeRecord);
  const out = new Float64Array(pts.length);
  for (let i = 0; i + 1 < pts.length; i += 2) {
    out[i] = pts[i]! * sx;
    out[i + 1] = pts[i + 1]! * sy;
  }
  return packPoints(out, gridExpOf(points));
}

/** one scale for shapes that keep their proportions: the factor that changed most */
function dominant(sx: number, sy: number): number {
  return Math.abs(sx - 1) >= Math.abs(sy - 1) ? sx : sy;
}

const clampFont = (v: number) => Math.min(MAX_FONT, Math.max(MIN_FONT, v));

/**
 * Map a shape from the selection box `from` to `to`. Its box centre follows the mapping; its
 * size scales along its own axes (a rotated shape's axes take the matching share of the x and y
 * scale). Point kinds get their points repacked; text scales its font with the height and wraps
 * to the new width; sticky notes, formulas and arcs keep their proportions. An inverted box is
 * clamped (no mirroring).
 */
export function resizeShape<S extends ShapeRecord>(shape: S, from: Rect, to: Rect): S {
  const fw = from.maxX - from.minX;
  const fh = from.maxY - from.minY;
  const sx = fw > 0 ? Math.max(0, (to.maxX - to.minX) / fw) : 1;
  const sy = fh > 0 ? Math.max(0, (to.maxY - to.minY) / fh) : 1;
  const mapX = (x: number) => (fw > 0 ? to.minX + (x - from.minX) * sx : x + (to.minX - from.minX));
  const mapY = (y: number) => (fh > 0 ? to.minY + (y - from.minY) * sy : y + (to.minY - from.minY));

  const box = localBox(shape);
  const rot = typeof shape.rotation === 'number' ? shape.rotation : 0;
  const c = Math.abs(Math.cos(rot));
  const s = Math.abs(Math.sin(rot));
  // the scale along the shape's own axes
  const lx = rot ? Math.hypot(sx * c, sy * s) : sx;
  const ly = rot ? Math.hypot(sx * s, sy * c) : sy;
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const ncx = mapX(cx);
  const ncy = mapY(cy);

  const r = shape as ShapeRecord;
  switch (r.kind) {
    case 'pen':
    case 'line':
    case 'polyline':
    case 'curve':
    case 'connector': {
      // box centre relative to the shape's origin scales with the points
      const bcx = cx - r.x;
      const bcy = cy - r.y;
      return { ...shape, x: ncx - bcx * lx, y: ncy - bcy * ly, points: scalePoints(r.points, lx, ly) };
    }
    case 'arc': {
      const k = dominant(lx, ly);
      return { ...shape, x: ncx - (cx - r.x) * k, y: ncy - (cy - r.y) * k, r: r.r * k };
    }
    case 'text': {
      const w = r.w * lx;
      const h = box.h * ly;
      return { ...shape, x: ncx - w / 2, y: ncy - h / 2, w, fontSize: clampFont(r.fontSize * ly) };
    }
    case 'formula': {
      const fontSize = clampFont(r.fontSize * dominant(lx, ly));
      // the rendered size (w/h, when stored) grows with the font; the box follows the clamped size
      const k = fontSize / r.fontSize;
      const sized = typeof r.w === 'number' && typeof r.h === 'number' ? { w: r.w * k, h: r.h * k } : {};
      return { ...shape, ...sized, x: ncx - (box.w * k) / 2, y: ncy - (box.h * k) / 2, fontSize };
    }
    case 'sticky': {
      const k = dominant(lx, ly);
      const w = r.w * k;
      const h = r.h * k;
      return { ...shape, x: ncx - w / 2, y: ncy - h / 2, w, h };
    }
    default: {
      const w = box.w * lx;
      const h = box.h * ly;
      return { ...shape, x: ncx - w / 2, y: ncy - h / 2, w, h };
    }
  }
}

/** an angle in (−π, π] */
export function normalizeAngle(a: number): number {
  const t = 2 * Math.PI;
  let v = a % t;
  if (v <= -Math.PI) v += t;
  else if (v > Math.PI) v -= t;
  return v;
}

/** Turn a shape by `angle` radians about `centre`: rotation += angle, its box centre moves along. */
export function rotateShape<S extends ShapeRecord>(shape: S, centre: Point, angle: number): S {
  const box = localBox(shape);
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const dx = cx - centre.x;
  const dy = cy - centre.y;
  const ncx = centre.x + dx * cos - dy * sin;
  const ncy = centre.y + dx * sin + dy * cos;
  const rotation = normalizeAngle((typeof shape.rotation === 'number' ? shape.rotation : 0) + angle);
  return { ...shape, x: shape.x + (ncx - cx), y: shape.y + (ncy - cy), rotation };
}
