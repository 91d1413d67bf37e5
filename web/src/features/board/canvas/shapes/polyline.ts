/**
 * A polyline (`polyline`): straight segments through packed points, open or closed; a closed one
 * may be filled. Curves (./curve.ts) are drawn the same way along a smooth path through the points.
 */
import type { PolylineShape } from '@wb/proto';
import type { SceneItem } from '../scene';
import type { PaintContext } from '../theme';
import { drawnStrokeWidth, localPoints, pathGeometry } from './shared/geometry';
import { applyPattern, cacheOf, fillStyleOf, polyPath, strokeInk } from './shared/paint';
import { resizePoints } from './shared/resize';
import { fillOf, polyD, strokeOf, type PathData, type Prim, type VectorContext } from './shared/vector';
import type { ShapeUtil } from './types';

/** paint a polyline or curve along the path `pathOf` makes (asked once per record version) */
export function paintClosable(
  g: CanvasRenderingContext2D,
  item: SceneItem,
  ctx: PaintContext,
  pathOf: (item: SceneItem, closed: boolean) => Path2D,
): void {
  const shape = item.shape as PolylineShape;
  const cache = cacheOf(item);
  const closed = !!shape.closed;
  cache.path ??= pathOf(item, closed);
  const fill = closed ? fillStyleOf(shape) : null;
  if (fill) {
    g.fillStyle = fill;
    g.fill(cache.path);
  }
  if ((shape.strokeWidth ?? 3) > 0) {
    const saved = applyPattern(g, shape, ctx, drawnStrokeWidth(shape));
    g.strokeStyle = strokeInk(shape, ctx);
    g.stroke(cache.path);
    if (saved) g.restore();
  }
}

/** a polyline's or curve's vector drawing along `d`: its fill (closed ones), then its stroke */
export function closablePrims(shape: PolylineShape, d: PathData, ctx: VectorContext): Prim[] {
  const fill = shape.closed ? fillOf(shape) : null;
  const out: Prim[] = [];
  if (fill) out.push({ t: 'path', d, fill, stroke: null });
  if ((shape.strokeWidth ?? 3) > 0)
    out.push({ t: 'path', d, fill: null, ...strokeOf(shape, ctx, drawnStrokeWidth(shape)) });
  return out;
}

const straightPath = (item: SceneItem, closed: boolean): Path2D =>
  polyPath(item.points, item.shape.x, item.shape.y, closed);

export const polylineUtil: ShapeUtil<PolylineShape> = {
  kind: 'polyline',
  geometry: (shape, points) =>
    pathGeometry(shape, points ?? localPoints(shape), !!shape.closed, drawnStrokeWidth(shape) / 2),
  paint: (g, item, ctx) => paintClosable(g, item, ctx, straightPath),
  dotColor: strokeInk,
  vector(item, ctx) {
    const shape = item.shape as PolylineShape;
    return closablePrims(shape, polyD(item.points, shape.x, shape.y, !!shape.closed), ctx);
  },
  resize: resizePoints,
  style: { stroke: true, fill: true },
};
