/**
 * What the kinds' `resize` share (transform.ts resizeShape works out the mapping once): points
 * repacked on their own grid, stored boxes scaled along the shape's axes, one scale for shapes
 * that keep their proportions, font sizes within the schema's limits.
 */
import { packPoints, POINTS_GRID_EXP } from '@wb/proto';
import type { ShapeRecord } from '@wb/proto';
import type { ResizeMapping } from '../types';
import { localPoints } from './geometry';

const MAX_FONT = 1000;
const MIN_FONT = 1;

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
export function dominant(sx: number, sy: number): number {
  return Math.abs(sx - 1) >= Math.abs(sy - 1) ? sx : sy;
}

export const clampFont = (v: number): number => Math.min(MAX_FONT, Math.max(MIN_FONT, v));

/** a point kind: its points scale, the box centre relative to its origin scales with them */
export function resizePoints<S extends ShapeRecord & { points: Uint8Array }>(shape: S, m: ResizeMapping): S {
  const bcx = m.cx - shape.x;
  const bcy = m.cy - shape.y;
  return {
    ...shape,
    x: m.ncx - bcx * m.lx,
    y: m.ncy - bcy * m.ly,
    points: scalePoints(shape.points, m.lx, m.ly),
  };
}

/** a kind with a stored w and h: the box scales along the shape's axes about its new centre */
export function resizeStoredBox<S extends ShapeRecord>(shape: S, m: ResizeMapping): S {
  const w = m.box.w * m.lx;
  const h = m.box.h * m.ly;
  return { ...shape, x: m.ncx - w / 2, y: m.ncy - h / 2, w, h };
}
