/** Shape geometry for rendering and hit-testing, outside React (conventions: testable without a DOM). */
import { unpackPoints } from '@wb/proto';
import type { ShapeRecord } from '@wb/proto';
import type { Point, Rect } from './camera';

/** points of a pointy shape relative to its x, y (empty for other kinds) */
export function localPoints(shape: ShapeRecord): Float32Array {
  if ('points' in shape && shape.points instanceof Uint8Array) {
    try {
      return unpackPoints(shape.points);
    } catch {
      return new Float32Array(0);
    }
  }
  return new Float32Array(0);
}

/** world bounds, stroke width included */
export function shapeBounds(shape: ShapeRecord, points: Float32Array): Rect {
  const pad = (shape.strokeWidth ?? 0) / 2 + 1;
  if (points.length >= 2) {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i + 1 < points.length; i += 2) {
      const x = points[i]!;
      const y = points[i + 1]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    return {
      minX: shape.x + minX - pad,
      minY: shape.y + minY - pad,
      maxX: shape.x + maxX + pad,
      maxY: shape.y + maxY + pad,
    };
  }
  const w = 'w' in shape && typeof shape.w === 'number' ? shape.w : 0;
  const h = 'h' in shape && typeof shape.h === 'number' ? shape.h : 0;
  return {
    minX: shape.x - pad,
    minY: shape.y - pad,
    maxX: shape.x + Math.max(w, 1) + pad,
    maxY: shape.y + Math.max(h, 1) + pad,
  };
}

export function distanceToSegment(p: Point, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - ax) * dx + (p.y - ay) * dy) / len2));
  return Math.hypot(p.x - (ax + t * dx), p.y - (ay + t * dy));
}

/** is world point p on the shape (within `tolerance` world units)? */
export function hitsShape(
  shape: ShapeRecord,
  points: Float32Array,
  bounds: Rect,
  p: Point,
  tolerance: number,
): boolean {
  if (p.x < bounds.minX - tolerance || p.x > bounds.maxX + tolerance) return false;
  if (p.y < bounds.minY - tolerance || p.y > bounds.maxY + tolerance) return false;
  if (points.length < 2) return true; // boxes: the bounds are the shape
  const reach = tolerance + (shape.strokeWidth ?? 0) / 2;
  const local = { x: p.x - shape.x, y: p.y - shape.y };
  if (points.length === 2) return Math.hypot(local.x - points[0]!, local.y - points[1]!) <= reach;
  for (let i = 0; i + 3 < points.length; i += 2)
    if (distanceToSegment(local, points[i]!, points[i + 1]!, points[i + 2]!, points[i + 3]!) <= reach) return true;
  return false;
}

/** #rrggbb of a 0xRRGGBB colour */
export function cssColor(c: number | null | undefined, fallback = '#000000'): string {
  if (typeof c !== 'number' || !Number.isFinite(c)) return fallback;
  return `#${(c & 0xffffff).toString(16).padStart(6, '0')}`;
}
