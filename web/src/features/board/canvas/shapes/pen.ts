/**
 * A freehand stroke (`pen`): packed points, optional pressures (one byte per point). With
 * pressures it is drawn as perfect-freehand's filled outline, without (fixed width, a mouse) as a
 * round-capped line of its width: cheap, and it looks the same.
 */
import { getStroke } from 'perfect-freehand';
import type { PenShape } from '@wb/proto';
import { drawnStrokeWidth, localPoints, pathGeometry } from './shared/geometry';
import { applyPattern, cacheOf, polyPath, strokeInk } from './shared/paint';
import { resizePoints } from './shared/resize';
import { polyD, strokeOf, type Prim } from './shared/vector';
import type { ShapeUtil } from './types';

/** a pen stroke's pressures when there is one per point (and at least two points), else null */
function usablePressures(shape: PenShape, pts: ArrayLike<number>): Uint8Array | null {
  const p = shape.pressures;
  return p instanceof Uint8Array && p.length * 2 >= pts.length && pts.length >= 4 ? p : null;
}

/**
 * A pressure stroke's filled outline (perfect-freehand) as flat world x,y pairs, or null when the
 * stroke has no usable pressures (it is drawn as a line of its width). The board and the vector
 * export both draw this outline, so they cannot drift apart.
 */
export function pressureOutline(shape: PenShape, pts: ArrayLike<number>): number[] | null {
  const pressures = usablePressures(shape, pts);
  if (!pressures) return null;
  const input: number[][] = [];
  for (let i = 0; i + 1 < pts.length; i += 2)
    input.push([pts[i]! + shape.x, pts[i + 1]! + shape.y, pressures[i / 2]! / 255]);
  const outline = getStroke(input, {
    size: drawnStrokeWidth(shape),
    thinning: 0.6,
    smoothing: 0.5,
    streamline: 0.3,
    simulatePressure: false,
    last: true,
  });
  const flat: number[] = [];
  for (const [x, y] of outline) flat.push(x!, y!);
  return flat;
}

export const penUtil: ShapeUtil<PenShape> = {
  kind: 'pen',

  geometry(shape, points) {
    return pathGeometry(shape, points ?? localPoints(shape), false, drawnStrokeWidth(shape) / 2);
  },

  paint(g, item, ctx) {
    const shape = item.shape as PenShape;
    const cache = cacheOf(item);
    const width = drawnStrokeWidth(shape);
    const pts = item.points;
    const color = strokeInk(shape, ctx);
    if (usablePressures(shape, pts)) {
      // pressure-sensitive: perfect-freehand's outline, filled (made once per stroke version)
      cache.path ??= polyPath(pressureOutline(shape, pts)!, 0, 0, true);
      const saved = applyPattern(g, shape, ctx, width);
      g.fillStyle = color;
      g.fill(cache.path);
      if (saved) g.restore();
      return;
    }
    // constant width ("fixed width" or no pressure): a round-capped stroke looks the same and is cheap
    cache.path ??= polyPath(pts, shape.x, shape.y, false);
    const saved = applyPattern(g, shape, ctx, width);
    g.strokeStyle = color;
    g.stroke(cache.path);
    if (saved) g.restore();
  },

  dotColor: strokeInk,

  vector(item, ctx): Prim[] {
    const shape = item.shape as PenShape;
    const pts = item.points;
    const width = drawnStrokeWidth(shape);
    const { stroke, multiply } = strokeOf(shape, ctx, width);
    const outline = pressureOutline(shape, pts);
    if (outline) {
      return [
        {
          t: 'path',
          d: polyD(outline, 0, 0, true),
          fill: { color: stroke.color, alpha: stroke.alpha },
          stroke: null,
          multiply,
        },
      ];
    }
    return [{ t: 'path', d: polyD(pts, shape.x, shape.y, false), fill: null, stroke, multiply }];
  },

  resize: resizePoints,
  style: { stroke: true, fill: false },
};
