/**
 * Moving, resizing and rotating shape records (the select tool's handles). Pure: every function
 * returns a new plain ShapeRecord that validateShapeRecord accepts; the committed record is
 * written by the caller in one change.
 */
import type { ShapeRecord } from '@wb/proto';
import type { Point, Rect } from './camera';
import { localBox } from './geometry';
import { utilOf } from './shapes/registry';

export function translateShape<S extends ShapeRecord>(shape: S, dx: number, dy: number): S {
  return { ...shape, x: shape.x + dx, y: shape.y + dy };
}

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

  // the kind maps its own fields (points, w/h, r, font size): shapes/*.ts resize
  return utilOf(shape.kind).resize(shape, { box, lx, ly, cx, cy, ncx, ncy }) as S;
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
