/**
 * A connector (`connector`): a line whose ends may be bound to shapes (fromId / toId, anchors;
 * editor/bindings.ts keeps them on their shapes' boxes). The record stores its two end points;
 * an elbow connector is routed from them (connectorPath), so moving a shape never rewrites a
 * route. Drawn as a line (./line.ts). Connectors follow shapes and never lead: nothing binds to one.
 */
import type { ConnectorShape } from '@wb/proto';
import type { SceneItem } from '../scene';
import { arrowLineGeometry, arrowLinePrims, paintArrowLine } from './line';
import { localPoints } from './shared/geometry';
import { strokeInk } from './shared/paint';
import { resizePoints } from './shared/resize';
import type { ShapeUtil } from './types';

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

const routeOf = (item: SceneItem): number[] => {
  const shape = item.shape as ConnectorShape;
  return connectorPath(item.points, !!shape.elbow, shape.fromAnchor);
};

export const connectorUtil: ShapeUtil<ConnectorShape> = {
  kind: 'connector',
  geometry: (shape, points) =>
    arrowLineGeometry(
      shape,
      Float32Array.from(connectorPath(points ?? localPoints(shape), !!shape.elbow, shape.fromAnchor)),
    ),
  bindable: false,
  paint: (g, item, ctx) => paintArrowLine(g, item, ctx, routeOf),
  dotColor: strokeInk,
  vector: (item, ctx) => arrowLinePrims(item.shape as ConnectorShape, routeOf(item), ctx),
  resize: resizePoints,
  style: { stroke: true, fill: false },
};
