/**
 * Shape geometry for rendering and hit-testing, outside React (testable without a DOM).
 *
 * Every shape has a local box {x, y, w, h, rotation} in world units: `rotation` (radians) turns
 * the shape about the box centre. Geometry is computed unrotated in the box's frame and points
 * are turned into it (hit tests) or out of it (bounds). Derived geometry is cached per record
 * object (records are immutable: a change makes a new one), so painters, the scene index and hit
 * tests share one computation.
 */
import { unpackPoints } from '@wb/proto';
import type { ShapeRecord } from '@wb/proto';
import type { Point, Rect } from './camera';
import { layoutText } from './textLayout';

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

const STROKE_KINDS = new Set(['pen', 'line', 'arc', 'polyline', 'curve', 'connector']);
/** kinds drawn as a path (hit near the path), the rest are areas */
export function isStrokeKind(shape: ShapeRecord): boolean {
  return STROKE_KINDS.has(shape.kind);
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

/** arc points relative to the centre (x, y); the sweep goes from startAngle to endAngle */
export function arcPoints(r: number, startAngle: number, endAngle: number): Float32Array {
  let sweep = endAngle - startAngle;
  if (Math.abs(sweep) > 2 * Math.PI) sweep = Math.sign(sweep) * 2 * Math.PI;
  const steps = Math.max(2, Math.ceil((Math.abs(sweep) / (2 * Math.PI)) * 64));
  const out = new Float32Array((steps + 1) * 2);
  for (let i = 0; i <= steps; i++) {
    const a = startAngle + (sweep * i) / steps;
    out[2 * i] = Math.cos(a) * r;
    out[2 * i + 1] = Math.sin(a) * r;
  }
  return out;
}

/** which way an elbow connector leaves its start: by the anchor when known, else the longer axis */
function elbowHorizontal(dx: number, dy: number, fromAnchor?: string): boolean {
  if (fromAnchor === 'left' || fromAnchor === 'right') return true;
  if (fromAnchor === 'top' || fromAnchor === 'bottom') return false;
  return Math.abs(dx) >= Math.abs(dy);
}

/**
 * A connector's route in the points' coordinates: straight through the points, or (elbow) an
 * orthogonal route with at most two bends from the first to the last point. The connector tool
 * and the painter both use it, so what is drawn is what was previewed.
 */
export function connectorPath(points: ArrayLike<number>, elbow: boolean, fromAnchor?: string): number[] {
  const n = points.length;
  if (n < 4) return Array.from(points);
  if (!elbow) return Array.from(points);
  const x0 = points[0]!;
  const y0 = points[1]!;
  const x1 = points[n - 2]!;
  const y1 = points[n - 1]!;
  if (x0 === x1 || y0 === y1) return [x0, y0, x1, y1];
  if (elbowHorizontal(x1 - x0, y1 - y0, fromAnchor)) {
    const mx = (x0 + x1) / 2;
    return [x0, y0, mx, y0, mx, y1, x1, y1];
  }
  const my = (y0 + y1) / 2;
  return [x0, y0, x0, my, x1, my, x1, y1];
}

/**
 * The outline of a geometric shape in its box (0…w, 0…h) as [x0, y0, x1, y1, …] (closed: the
 * last point connects to the first). Ellipses are sampled; painters use it for the polygons.
 */
export function shapeOutline(shapeType: string, w: number, h: number): number[] {
  switch (shapeType) {
    case 'ellipse': {
      const out: number[] = [];
      const n = 64;
      for (let i = 0; i < n; i++) {
        const a = (i / n) * 2 * Math.PI;
        out.push(w / 2 + (Math.cos(a) * w) / 2, h / 2 + (Math.sin(a) * h) / 2);
      }
      return out;
    }
    case 'triangle':
      return [w / 2, 0, w, h, 0, h];
    case 'diamond':
      return [w / 2, 0, w, h / 2, w / 2, h, 0, h / 2];
    case 'star': {
      const out: number[] = [];
      const inner = 0.4;
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        const k = i % 2 === 0 ? 1 : inner;
        out.push(w / 2 + (Math.cos(a) * w * k) / 2, h / 2 + (Math.sin(a) * h * k) / 2);
      }
      return out;
    }
    case 'hexagon':
      return [w / 4, 0, (3 * w) / 4, 0, w, h / 2, (3 * w) / 4, h, w / 4, h, 0, h / 2];
    case 'arrow': {
      // a block arrow pointing right: shaft half as high as the box, head at most as long as it is high
      const head = Math.min(w * 0.5, h);
      const hx = w - head;
      return [0, h / 4, hx, h / 4, hx, 0, w, h / 2, hx, h, hx, (3 * h) / 4, 0, (3 * h) / 4];
    }
    default:
      return [0, 0, w, 0, w, h, 0, h];
  }
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

function extent(pts: ArrayLike<number>): { minX: number; minY: number; maxX: number; maxY: number } {
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

const num = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** the font formula sources are shown in until part 2 typesets them */
export const FORMULA_FONT = 'monospace';

/** formula boxes are not stored: they are as big as their text plus half an em around it */
export function formulaSize(latex: string, fontSize: number): { w: number; h: number } {
  const l = layoutText(latex || ' ', FORMULA_FONT, fontSize, Infinity);
  return { w: Math.max(l.width, fontSize) + fontSize, h: l.height + fontSize * 0.5 };
}

export function shapeGeometry(shape: ShapeRecord, points?: Float32Array): ShapeGeometry {
  const cached = geometryCache.get(shape);
  if (cached) return cached;
  const rotation = num(shape.rotation);
  let g: ShapeGeometry;
  const sw = drawnStrokeWidth(shape);
  switch (shape.kind) {
    case 'pen':
    case 'line':
    case 'polyline':
    case 'curve':
    case 'connector': {
      const pts = points ?? localPoints(shape);
      let path: Float32Array = pts;
      let closed = false;
      if (shape.kind === 'curve') {
        closed = !!shape.closed;
        path = sampleCurve(pts, closed);
      } else if (shape.kind === 'polyline') closed = !!shape.closed;
      else if (shape.kind === 'connector')
        path = Float32Array.from(connectorPath(pts, !!shape.elbow, shape.fromAnchor));
      const e = extent(path);
      const arrows =
        (shape.kind === 'line' || shape.kind === 'connector') && (shape.arrowStart || shape.arrowEnd)
          ? arrowSize(sw) * 0.6
          : 0;
      g = {
        box: { x: shape.x + e.minX, y: shape.y + e.minY, w: e.maxX - e.minX, h: e.maxY - e.minY, rotation },
        path,
        closed,
        outline: null,
        reach: Math.max(sw / 2, arrows),
      };
      break;
    }
    case 'arc': {
      const path = arcPoints(num(shape.r), num(shape.startAngle), num(shape.endAngle));
      const e = extent(path);
      g = {
        box: { x: shape.x + e.minX, y: shape.y + e.minY, w: e.maxX - e.minX, h: e.maxY - e.minY, rotation },
        path,
        closed: false,
        outline: null,
        reach: sw / 2,
      };
      break;
    }
    case 'shape': {
      const w = num(shape.w);
      const h = num(shape.h);
      g = {
        box: { x: shape.x, y: shape.y, w, h, rotation },
        path: null,
        closed: true,
        outline: shapeOutline(shape.shapeType, w, h),
        reach: (shape.strokeWidth ?? 2) / 2,
      };
      break;
    }
    case 'text': {
      const w = num(shape.w);
      const fontSize = num(shape.fontSize, 16);
      const h = Math.max(
        fontSize * 1.25,
        layoutText(str(shape.text), str(shape.font) || 'sans-serif', fontSize, w || Infinity).height,
      );
      g = { box: { x: shape.x, y: shape.y, w, h, rotation }, path: null, closed: true, outline: null, reach: 0 };
      break;
    }
    case 'formula': {
      // typeset formulas store their rendered size; older records are sized from their source
      const { w, h } =
        typeof shape.w === 'number' && typeof shape.h === 'number'
          ? { w: num(shape.w), h: num(shape.h) }
          : formulaSize(str(shape.latex), num(shape.fontSize, 20));
      g = { box: { x: shape.x, y: shape.y, w, h, rotation }, path: null, closed: true, outline: null, reach: 0 };
      break;
    }
    default: {
      const s = shape as { w?: unknown; h?: unknown };
      g = {
        box: { x: shape.x, y: shape.y, w: num(s.w), h: num(s.h), rotation },
        path: null,
        closed: true,
        outline: null,
        reach: 0,
      };
    }
  }
  geometryCache.set(shape, g);
  return g;
}

/** The unrotated box in world units (point kinds: the points' extent + x, y). */
export function localBox(shape: ShapeRecord, points?: Float32Array): LocalBox {
  return shapeGeometry(shape, points).box;
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

/** world bounds including rotation and stroke width (+1 for antialiasing) */
export function shapeBounds(shape: ShapeRecord, points?: Float32Array): Rect {
  const g = shapeGeometry(shape, points);
  const { box } = g;
  const pad = g.reach + 1;
  if (!box.rotation)
    return { minX: box.x - pad, minY: box.y - pad, maxX: box.x + box.w + pad, maxY: box.y + box.h + pad };
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const c = Math.abs(Math.cos(box.rotation));
  const s = Math.abs(Math.sin(box.rotation));
  // half extents of the rotated (padded) box
  const hw = box.w / 2 + pad;
  const hh = box.h / 2 + pad;
  const ex = hw * c + hh * s;
  const ey = hw * s + hh * c;
  return { minX: cx - ex, minY: cy - ey, maxX: cx + ex, maxY: cy + ey };
}

/** the shape's corners (or path / outline) in world coordinates as [x0, y0, …] */
export function worldPolygon(shape: ShapeRecord, points?: Float32Array): Float32Array {
  const g = shapeGeometry(shape, points);
  const { box } = g;
  let local: ArrayLike<number>;
  let ox: number;
  let oy: number;
  if (g.path) {
    local = g.path;
    ox = shape.x;
    oy = shape.y;
  } else {
    local = g.outline ?? [0, 0, box.w, 0, box.w, box.h, 0, box.h];
    ox = box.x;
    oy = box.y;
  }
  const out = new Float32Array(local.length);
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const c = Math.cos(box.rotation);
  const s = Math.sin(box.rotation);
  for (let i = 0; i + 1 < local.length; i += 2) {
    const dx = local[i]! + ox - cx;
    const dy = local[i + 1]! + oy - cy;
    out[i] = box.rotation ? cx + dx * c - dy * s : dx + cx;
    out[i + 1] = box.rotation ? cy + dx * s + dy * c : dy + cy;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Hit testing

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

function hasLabel(shape: ShapeRecord): boolean {
  return shape.kind === 'shape' && str(shape.text).trim() !== '';
}

/**
 * Is world point p on the shape (within `tolerance` world units)? Strokes: near the path (half
 * the drawn width added); closed shapes: inside when filled or labelled, else near the outline;
 * boxes (sticky, text, formula, graph, image, document page): inside the box. `area`: a closed
 * shape's inside counts whatever its fill (what a connector binds to: bindsShape).
 */
export function hitsShape(
  shape: ShapeRecord,
  points: Float32Array,
  bounds: Rect,
  p: Point,
  tolerance: number,
  area = false,
): boolean {
  if (p.x < bounds.minX - tolerance || p.x > bounds.maxX + tolerance) return false;
  if (p.y < bounds.minY - tolerance || p.y > bounds.maxY + tolerance) return false;
  const g = shapeGeometry(shape, points);
  const q = unrotate(g.box, p);
  if (g.path) {
    const local = { x: q.x - shape.x, y: q.y - shape.y };
    if (g.closed && (area || isFilled(shape)) && pointInPolygon(local, g.path)) return true;
    return distanceToPolyline(local, g.path, g.closed) <= tolerance + g.reach;
  }
  const { box } = g;
  const lx = q.x - box.x;
  const ly = q.y - box.y;
  if (g.outline) {
    const local = { x: lx, y: ly };
    if ((area || isFilled(shape) || hasLabel(shape)) && insideOutline(shape, local, box)) return true;
    return distanceToPolyline(local, g.outline, true) <= tolerance + g.reach;
  }
  return lx >= -tolerance && ly >= -tolerance && lx <= box.w + tolerance && ly <= box.h + tolerance;
}

/**
 * Does a connector end at world point p bind to the shape? Every kind but connectors (they follow,
 * they do not lead), on its outline or anywhere inside it, whatever its fill (issue 26 #4: an
 * outline rectangle binds as a filled one does, as in tldraw and Excalidraw); open strokes near
 * their path.
 */
export function bindsShape(
  shape: ShapeRecord,
  points: Float32Array,
  bounds: Rect,
  p: Point,
  tolerance: number,
): boolean {
  return shape.kind !== 'connector' && hitsShape(shape, points, bounds, p, tolerance, true);
}

function insideOutline(shape: ShapeRecord, p: Point, box: LocalBox): boolean {
  if (shape.kind === 'shape' && shape.shapeType === 'ellipse') {
    const rx = box.w / 2;
    const ry = box.h / 2;
    if (rx <= 0 || ry <= 0) return false;
    const dx = (p.x - rx) / rx;
    const dy = (p.y - ry) / ry;
    return dx * dx + dy * dy <= 1;
  }
  return pointInPolygon(p, shapeGeometry(shape).outline!);
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

/**
 * Does the shape touch the world rectangle? Strokes: some part of the path (widened by half the
 * drawn width) is in it; areas: the (rotated) outline or box overlaps it. Used by the eraser and
 * the touching marquee.
 */
export function shapeTouchesRect(shape: ShapeRecord, points: Float32Array, bounds: Rect, rect: Rect): boolean {
  if (bounds.minX > rect.maxX || bounds.maxX < rect.minX || bounds.minY > rect.maxY || bounds.maxY < rect.minY)
    return false;
  if (bounds.minX >= rect.minX && bounds.maxX <= rect.maxX && bounds.minY >= rect.minY && bounds.maxY <= rect.maxY)
    return true;
  const g = shapeGeometry(shape, points);
  const poly = worldPolygon(shape, points);
  const n = poly.length;
  if (g.path) {
    const r = {
      minX: rect.minX - g.reach,
      minY: rect.minY - g.reach,
      maxX: rect.maxX + g.reach,
      maxY: rect.maxY + g.reach,
    };
    if (n < 4) return n === 2 && poly[0]! >= r.minX && poly[0]! <= r.maxX && poly[1]! >= r.minY && poly[1]! <= r.maxY;
    for (let i = 0; i + 3 < n; i += 2)
      if (segmentHitsRect(poly[i]!, poly[i + 1]!, poly[i + 2]!, poly[i + 3]!, r)) return true;
    if (g.closed && segmentHitsRect(poly[n - 2]!, poly[n - 1]!, poly[0]!, poly[1]!, r)) return true;
    // a filled closed path around the rectangle
    return g.closed && isFilled(shape) && pointInPolygon({ x: rect.minX, y: rect.minY }, poly);
  }
  for (let i = 0, j = n - 2; i + 1 < n; j = i, i += 2)
    if (segmentHitsRect(poly[j]!, poly[j + 1]!, poly[i]!, poly[i + 1]!, rect)) return true;
  // the rectangle lies wholly inside the area: only solid areas count (as for hitsShape)
  if (g.outline && !isFilled(shape) && !hasLabel(shape)) return false;
  return pointInPolygon({ x: (rect.minX + rect.maxX) / 2, y: (rect.minY + rect.maxY) / 2 }, poly);
}

/** #rrggbb of a 0xRRGGBB colour */
export function cssColor(c: number | null | undefined, fallback = '#000000'): string {
  if (typeof c !== 'number' || !Number.isFinite(c)) return fallback;
  return `#${(c & 0xffffff).toString(16).padStart(6, '0')}`;
}
