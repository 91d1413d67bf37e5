/**
 * A straight line (`line`): packed points (two, or more from older records), optional arrowheads
 * at either end. Connectors (./connector.ts) are lines routed between shapes and share the
 * drawing here: the arrowheads are filled triangles and the line is pulled back under them.
 */
import type { LineShape, ShapeRecord } from '@wb/proto';
import type { SceneItem } from '../scene';
import type { PaintContext } from '../theme';
import { arrowSize, drawnStrokeWidth, localPoints, pathGeometry, type ShapeGeometry } from './shared/geometry';
import { applyPattern, arrowHeads, cacheOf, polyPath, strokeInk, trimmedForHeads } from './shared/paint';
import { resizePoints } from './shared/resize';
import { arrowHeadsD, polyD, strokeOf, type Prim, type VectorContext } from './shared/vector';
import type { ShapeUtil } from './types';

/** a line or connector: its stroke, ends and arrowheads */
type ArrowLine = Extract<ShapeRecord, { kind: 'line' | 'connector' }>;
/** the route a line-like shape is drawn along, in its points' coordinates */
type RouteOf = (item: SceneItem) => ArrayLike<number>;

/** a line-like shape's geometry along `path`: arrowheads reach beyond half the stroke width */
export function arrowLineGeometry(shape: ArrowLine, path: Float32Array): ShapeGeometry {
  const sw = drawnStrokeWidth(shape);
  const arrows = shape.arrowStart || shape.arrowEnd ? arrowSize(sw) * 0.6 : 0;
  return pathGeometry(shape, path, false, Math.max(sw / 2, arrows));
}

/** paint a line-like shape along `routeOf(item)` (asked only when its paths are made) */
export function paintArrowLine(
  g: CanvasRenderingContext2D,
  item: SceneItem,
  ctx: PaintContext,
  routeOf: RouteOf,
): void {
  const shape = item.shape as ArrowLine;
  const cache = cacheOf(item);
  const width = drawnStrokeWidth(shape);
  const start = !!shape.arrowStart;
  const end = !!shape.arrowEnd;
  if (!cache.path) {
    const route = routeOf(item);
    const size = arrowSize(width);
    cache.path = polyPath(
      start || end ? trimmedForHeads(route, start, end, size * 0.7) : route,
      shape.x,
      shape.y,
      false,
    );
    if (start || end) cache.heads = arrowHeads(route, shape.x, shape.y, start, end, size);
  }
  const color = strokeInk(shape, ctx);
  const saved = applyPattern(g, shape, ctx, width);
  g.strokeStyle = color;
  g.stroke(cache.path);
  if (saved) g.restore();
  if (cache.heads) {
    g.fillStyle = color;
    g.fill(cache.heads);
  }
}

/** a line-like shape's vector drawing along `route` */
export function arrowLinePrims(shape: ArrowLine, route: ArrayLike<number>, ctx: VectorContext): Prim[] {
  const width = drawnStrokeWidth(shape);
  const start = !!shape.arrowStart;
  const end = !!shape.arrowEnd;
  const size = arrowSize(width);
  const { stroke, multiply } = strokeOf(shape, ctx, width);
  const line = start || end ? trimmedForHeads(route, start, end, size * 0.7) : route;
  const out: Prim[] = [{ t: 'path', d: polyD(line, shape.x, shape.y, false), fill: null, stroke, multiply }];
  if (start || end)
    out.push({
      t: 'path',
      d: arrowHeadsD(route, shape.x, shape.y, start, end, size),
      fill: { color: stroke.color, alpha: 1 },
      stroke: null,
    });
  return out;
}

const pointsOf: RouteOf = (item) => item.points;

export const lineUtil: ShapeUtil<LineShape> = {
  kind: 'line',
  geometry: (shape, points) => arrowLineGeometry(shape, points ?? localPoints(shape)),
  paint: (g, item, ctx) => paintArrowLine(g, item, ctx, pointsOf),
  dotColor: strokeInk,
  vector: (item, ctx) => arrowLinePrims(item.shape as LineShape, item.points, ctx),
  resize: resizePoints,
  style: { stroke: true, fill: false },
};
