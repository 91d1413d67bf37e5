/**
 * A curve (`curve`): stored as the points clicked (a polyline record of kind 'curve'), drawn as a
 * smooth curve through them (curveBeziers: uniform Catmull-Rom as cubic beziers), open or closed,
 * filled like a polyline (./polyline.ts). Hit tests and bounds use the sampled curve.
 */
import type { PolylineShape } from '@wb/proto';
import type { SceneItem } from '../scene';
import { closablePrims, paintClosable } from './polyline';
import { curveBeziers, drawnStrokeWidth, localPoints, pathGeometry, sampleCurve } from './shared/geometry';
import { newPath, polyPath, strokeInk } from './shared/paint';
import { resizePoints } from './shared/resize';
import { CLOSE, CURVE, MOVE, polyD, type PathData } from './shared/vector';
import type { ShapeUtil } from './types';

const smoothPath = (item: SceneItem, closed: boolean): Path2D => {
  const { x, y } = item.shape;
  const pts = item.points;
  if (pts.length < 4) return polyPath(pts, x, y, closed);
  const p = newPath();
  p.moveTo(pts[0]! + x, pts[1]! + y);
  const bz = curveBeziers(pts, closed);
  for (let i = 0; i + 5 < bz.length; i += 6)
    p.bezierCurveTo(bz[i]! + x, bz[i + 1]! + y, bz[i + 2]! + x, bz[i + 3]! + y, bz[i + 4]! + x, bz[i + 5]! + y);
  if (closed) p.closePath();
  return p;
};

export const curveUtil: ShapeUtil<PolylineShape> = {
  kind: 'curve',
  geometry(shape, points) {
    const closed = !!shape.closed;
    return pathGeometry(shape, sampleCurve(points ?? localPoints(shape), closed), closed, drawnStrokeWidth(shape) / 2);
  },
  paint: (g, item, ctx) => paintClosable(g, item, ctx, smoothPath),
  dotColor: strokeInk,
  vector(item, ctx) {
    const shape = item.shape as PolylineShape;
    const pts = item.points;
    const closed = !!shape.closed;
    if (pts.length < 4) return closablePrims(shape, polyD(pts, shape.x, shape.y, closed), ctx);
    const d: PathData = [MOVE, pts[0]! + shape.x, pts[1]! + shape.y];
    const bz = curveBeziers(pts, closed);
    for (let i = 0; i + 5 < bz.length; i += 6)
      d.push(
        CURVE,
        bz[i]! + shape.x,
        bz[i + 1]! + shape.y,
        bz[i + 2]! + shape.x,
        bz[i + 3]! + shape.y,
        bz[i + 4]! + shape.x,
        bz[i + 5]! + shape.y,
      );
    if (closed) d.push(CLOSE);
    return closablePrims(shape, d, ctx);
  },
  resize: resizePoints,
  style: { stroke: true, fill: true },
};
