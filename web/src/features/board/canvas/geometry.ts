/**
 * Shape geometry for rendering and hit-testing, outside React (testable without a DOM): the
 * per-shape operations, each asking the shape's kind module (shapes/registry.ts) for what differs
 * by kind. The maths every kind shares is in shapes/shared/geometry.ts (re-exported here for the
 * editor's callers); kind modules import that, never this module.
 *
 * Every shape has a local box {x, y, w, h, rotation} in world units: `rotation` (radians) turns
 * the shape about the box centre. Geometry is computed unrotated in the box's frame and points
 * are turned into it (hit tests) or out of it (bounds). Derived geometry is cached per record
 * object (records are immutable: a change makes a new one), so painters, the scene index and hit
 * tests share one computation.
 */
import type { ShapeRecord } from '@wb/proto';
import type { Point, Rect } from './camera';
import { utilOf } from './shapes/registry';
import {
  cachedGeometry,
  distanceToPolyline,
  isFilled,
  pointInPolygon,
  segmentHitsRect,
  unrotate,
  type LocalBox,
  type ShapeGeometry,
} from './shapes/shared/geometry';

export {
  arrowSize,
  cssColor,
  curveBeziers,
  distanceToPolyline,
  distanceToSegment,
  drawnStrokeWidth,
  FORMULA_FONT,
  formulaSize,
  isFilled,
  localPoints,
  pointInPolygon,
  sampleCurve,
  segmentHitsRect,
  unrotate,
  type LocalBox,
  type ShapeGeometry,
} from './shapes/shared/geometry';

const geometryOfKind = (shape: ShapeRecord, points?: Float32Array): ShapeGeometry =>
  utilOf(shape.kind).geometry(shape, points);

/** the shape's box, path or outline and ink reach (its kind's geometry, cached per record) */
export function shapeGeometry(shape: ShapeRecord, points?: Float32Array): ShapeGeometry {
  return cachedGeometry(shape, points, geometryOfKind);
}

/** The unrotated box in world units (point kinds: the points' extent + x, y). */
export function localBox(shape: ShapeRecord, points?: Float32Array): LocalBox {
  return shapeGeometry(shape, points).box;
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

/** its inside counts, not only its outline (filled; a geometric shape's label) */
function solid(shape: ShapeRecord): boolean {
  const util = utilOf(shape.kind);
  return util.solid ? util.solid(shape) : isFilled(shape);
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
    if (g.closed && (area || solid(shape)) && pointInPolygon(local, g.path)) return true;
    return distanceToPolyline(local, g.path, g.closed) <= tolerance + g.reach;
  }
  const { box } = g;
  const lx = q.x - box.x;
  const ly = q.y - box.y;
  if (g.outline) {
    const local = { x: lx, y: ly };
    if ((area || solid(shape)) && insideOutline(shape, local, box, g.outline)) return true;
    return distanceToPolyline(local, g.outline, true) <= tolerance + g.reach;
  }
  return lx >= -tolerance && ly >= -tolerance && lx <= box.w + tolerance && ly <= box.h + tolerance;
}

/**
 * Does a connector end at world point p bind to the shape? Every kind but connectors (they follow,
 * they do not lead: ShapeUtil.bindable), on its outline or anywhere inside it, whatever its fill (issue 26 #4: an
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
  return utilOf(shape.kind).bindable !== false && hitsShape(shape, points, bounds, p, tolerance, true);
}

/** is `p` (box coordinates) inside the outline: its kind's test (an exact ellipse), else the polygon */
function insideOutline(shape: ShapeRecord, p: Point, box: LocalBox, outline: number[]): boolean {
  const util = utilOf(shape.kind);
  return util.insideOutline ? util.insideOutline(shape, p, box) : pointInPolygon(p, outline);
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
    return g.closed && solid(shape) && pointInPolygon({ x: rect.minX, y: rect.minY }, poly);
  }
  for (let i = 0, j = n - 2; i + 1 < n; j = i, i += 2)
    if (segmentHitsRect(poly[j]!, poly[j + 1]!, poly[i]!, poly[i + 1]!, rect)) return true;
  // the rectangle lies wholly inside the area: only solid areas count (as for hitsShape)
  if (g.outline && !solid(shape)) return false;
  return pointInPolygon({ x: (rect.minX + rect.maxX) / 2, y: (rect.minY + rect.maxY) / 2 }, poly);
}
