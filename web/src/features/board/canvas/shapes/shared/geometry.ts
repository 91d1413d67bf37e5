/**
 * The geometry every shape kind builds on (no kind of its own, no registry): a shape's local box
 * and derived geometry (ShapeGeometry, cached per record object: records are immutable, a change
 * makes a new one, so painters, the scene index and hit tests share one computation), stroke
 * metrics, path sampling, and the hit-test maths. The kind modules (../*.ts) import it;
 * canvas/geometry.ts dispatches to them through the registry.
 *
 * Every shape has a local box {x, y, w, h, rotation} in world units: `rotation` (radians) turns
 * the shape about the box centre. Geometry is computed unrotated in the box's frame and points
 * are turned into it (hit tests) or out of it (bounds).
 */
import { unpackPoints } from '@wb/proto';
import type { ShapeRecord } from '@wb/proto';
import type { Point, Rect } from '../../camera';
import { layoutText } from '../../textLayout';

export interface LocalBox {
  x: number;
  y: number;
  w: number;
  h: number;
  rotation: number;
}

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

/** filled with a colour (fill !== 'none' and a fillColor) */
export function isFilled(shape: ShapeRecord): boolean {
  return shape.fill !== 'none' && shape.fillColor !== null && shape.fillColor !== undefined;
}

/** the width the stroke is drawn with: markers are twice, highlighters four times as wide */
export function drawnStrokeWidth(shape: ShapeRecord): number {
  const w = shape.strokeWidth ?? 3;
  if (shape.linePattern === 'marker') return w * 2;
  if (shape.linePattern === 'highlighter') return Math.max(w * 4, 8);
  return w;
}

/** arrowhead length for a stroke width: scales with it, readable when thin */
export function arrowSize(strokeWidth: number): number {
  return Math.max(8, strokeWidth * 3.5);
}

// ---------------------------------------------------------------------------------------------
// Paths

/** number of segments a curve span or an arc is sampled with (hit tests, bounds) */
const CURVE_STEPS = 12;

/**
 * A smooth curve through the points (centripetal-free uniform Catmull-Rom) as cubic bezier control
 * points: for segment i, [c1x, c1y, c2x, c2y, x, y]; painters call bezierCurveTo with them.
 */
export function curveBeziers(points: ArrayLike<number>, closed = false): number[] {
  const n = points.length / 2;
  const out: number[] = [];
  if (n < 2) return out;
  const px = (i: number) => points[2 * (closed ? (i + n) % n : Math.max(0, Math.min(n - 1, i)))]!;
  const py = (i: number) => points[2 * (closed ? (i + n) % n : Math.max(0, Math.min(n - 1, i))) + 1]!;
  const segs = closed ? n : n - 1;
  for (let i = 0; i < segs; i++) {
    const x0 = px(i - 1);
    const y0 = py(i - 1);
    const x1 = px(i);
    const y1 = py(i);
    const x2 = px(i + 1);
    const y2 = py(i + 1);
    const x3 = px(i + 2);
    const y3 = py(i + 2);
    out.push(x1 + (x2 - x0) / 6, y1 + (y2 - y0) / 6, x2 - (x3 - x1) / 6, y2 - (y3 - y1) / 6, x2, y2);
  }
  return out;
}

/** the curve through the points, sampled as a polyline */
export function sampleCurve(points: ArrayLike<number>, closed = false): Float32Array {
  const bz = curveBeziers(points, closed);
  const n = bz.length / 6;
  if (points.length < 4) return Float32Array.from(points as ArrayLike<number>);
  const out = new Float32Array((n * CURVE_STEPS + 1) * 2);
  let x = points[0]!;
  let y = points[1]!;
  out[0] = x;
  out[1] = y;
  let o = 2;
  for (let s = 0; s < n; s++) {
    const [c1x, c1y, c2x, c2y, ex, ey] = bz.slice(s * 6, s * 6 + 6) as [number, number, number, number, number, number];
    for (let k = 1; k <= CURVE_STEPS; k++) {
      const t = k / CURVE_STEPS;
      const u = 1 - t;
      out[o++] = u * u * u * x + 3 * u * u * t * c1x + 3 * u * t * t * c2x + t * t * t * ex;
      out[o++] = u * u * u * y + 3 * u * u * t * c1y + 3 * u * t * t * c2y + t * t * t * ey;
    }
    x = ex;
    y = ey;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Derived geometry (cached per record)

export interface ShapeGeometry {
  box: LocalBox;
  /** the stroked path in shape coordinates (relative to x, y, unrotated), or null for areas */
  path: Float32Array | null;
  /** the path closes (closed polyline / curve) */
  closed: boolean;
  /** the area outline in box coordinates (0…w, 0…h), or null for strokes */
  outline: number[] | null;
  /** half the drawn stroke width plus arrowheads: how far ink reaches beyond the path */
  reach: number;
}

const geometryCache = new WeakMap<object, ShapeGeometry>();

/**
 * The shape's geometry, computed by `compute` (its kind's ShapeUtil.geometry) on the first ask
 * for this record object and kept while the record lives. `compute` is a kind's function, never
 * a closure made per call.
 */
export function cachedGeometry<S extends ShapeRecord>(
  shape: S,
  points: Float32Array | undefined,
  compute: (shape: S, points?: Float32Array) => ShapeGeometry,
): ShapeGeometry {
  const cached = geometryCache.get(shape);
  if (cached) return cached;
  const g = compute(shape, points);
  geometryCache.set(shape, g);
  return g;
}

export function extent(pts: ArrayLike<number>): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i + 1 < pts.length; i += 2) {
    const x = pts[i]!;
    const y = pts[i + 1]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  if (minX === Infinity) return { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  return { minX, minY, maxX, maxY };
}

export const num = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
export const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** a stroked path's geometry: its box is the path's extent (+ x, y); `reach` how far ink goes beyond it */
export function pathGeometry(shape: ShapeRecord, path: Float32Array, closed: boolean, reach: number): ShapeGeometry {
  const e = extent(path);
  const rotation = num(shape.rotation);
  return {
    box: { x: shape.x + e.minX, y: shape.y + e.minY, w: e.maxX - e.minX, h: e.maxY - e.minY, rotation },
    path,
    closed,
    outline: null,
    reach,
  };
}

/** an area's geometry: the box at x, y of `w` × `h` (no outline: the box is the area) */
export function boxGeometry(shape: ShapeRecord, w: number, h: number): ShapeGeometry {
  return {
    box: { x: shape.x, y: shape.y, w, h, rotation: num(shape.rotation) },
    path: null,
    closed: true,
    outline: null,
    reach: 0,
  };
}

/** the geometry of a record with a stored w and h (notes, graphs, images, pages, unknown kinds) */
export function storedBoxGeometry(shape: ShapeRecord): ShapeGeometry {
  const s = shape as { w?: unknown; h?: unknown };
  return boxGeometry(shape, num(s.w), num(s.h));
}

/** the font formula sources are shown in until part 2 typesets them */
export const FORMULA_FONT = 'monospace';

/** formula boxes are not stored: they are as big as their text plus half an em around it */
export function formulaSize(latex: string, fontSize: number): { w: number; h: number } {
  const l = layoutText(latex || ' ', FORMULA_FONT, fontSize, Infinity);
  return { w: Math.max(l.width, fontSize) + fontSize, h: l.height + fontSize * 0.5 };
}

/** world point → the shape's unrotated frame (rotated back about the box centre) */
export function unrotate(box: LocalBox, p: Point): Point {
  if (!box.rotation) return p;
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const c = Math.cos(-box.rotation);
  const s = Math.sin(-box.rotation);
  const dx = p.x - cx;
  const dy = p.y - cy;
  return { x: cx + dx * c - dy * s, y: cy + dx * s + dy * c };
}

// ---------------------------------------------------------------------------------------------
// Hit-test maths

export function distanceToSegment(p: Point, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - ax) * dx + (p.y - ay) * dy) / len2));
  return Math.hypot(p.x - (ax + t * dx), p.y - (ay + t * dy));
}

/** distance from p to a polyline [x0, y0, …] (closing segment when `closed`) */
export function distanceToPolyline(p: Point, pts: ArrayLike<number>, closed: boolean): number {
  const n = pts.length;
  if (n < 2) return Infinity;
  if (n < 4) return Math.hypot(p.x - pts[0]!, p.y - pts[1]!);
  let best = Infinity;
  for (let i = 0; i + 3 < n; i += 2) {
    const d = distanceToSegment(p, pts[i]!, pts[i + 1]!, pts[i + 2]!, pts[i + 3]!);
    if (d < best) best = d;
  }
  if (closed) {
    const d = distanceToSegment(p, pts[n - 2]!, pts[n - 1]!, pts[0]!, pts[1]!);
    if (d < best) best = d;
  }
  return best;
}

/** even-odd point in polygon */
export function pointInPolygon(p: Point, pts: ArrayLike<number>): boolean {
  let inside = false;
  const n = pts.length;
  for (let i = 0, j = n - 2; i + 1 < n; j = i, i += 2) {
    const xi = pts[i]!;
    const yi = pts[i + 1]!;
    const xj = pts[j]!;
    const yj = pts[j + 1]!;
    if (yi > p.y !== yj > p.y && p.x < ((xj - xi) * (p.y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** does segment a→b meet the rectangle? (Liang–Barsky clipping) */
export function segmentHitsRect(ax: number, ay: number, bx: number, by: number, r: Rect): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q >= 0;
    const t = q / p;
    if (p < 0) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
    return true;
  };
  return clip(-dx, ax - r.minX) && clip(dx, r.maxX - ax) && clip(-dy, ay - r.minY) && clip(dy, r.maxY - ay) && t0 <= t1;
}

/** #rrggbb of a 0xRRGGBB colour */
export function cssColor(c: number | null | undefined, fallback = '#000000'): string {
  if (typeof c !== 'number' || !Number.isFinite(c)) return fallback;
  return `#${(c & 0xffffff).toString(16).padStart(6, '0')}`;
}
