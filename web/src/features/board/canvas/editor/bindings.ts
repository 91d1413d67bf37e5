/**
 * Connector bindings (issue 13): a connector's ends sit on the boxes of the shapes it is bound
 * to (fromId / toId) and follow them. The record stores the two end points only (packed, relative
 * to its x, y = the top-left of the two); the painter routes an elbow connector from them
 * (shapes/connector.ts connectorPath), so moving a shape never has to rewrite a route.
 */
import { packPoints } from '@wb/proto';
import type { ConnectorShape, ShapeRecord } from '@wb/proto';
import type { BoardDoc } from '../../realtime/boardDoc';
import type { Point } from '../camera';
import { localBox, localPoints, type LocalBox } from '../geometry';
import { sameValue, setFields } from './undo';

/** half the default points grid (¼ unit): how far a stored end may be from its exact place */
const GRID_SLACK = 0.125 + 1e-9;

export const ANCHORS = ['auto', 'top', 'right', 'bottom', 'left', 'center'] as const;
export type Anchor = (typeof ANCHORS)[number];

/** a shape's box before rotation (geometry.localBox) */
export type ShapeBox = LocalBox;

export const boxCentre = (b: ShapeBox): Point => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });

function rotateAbout(p: Point, c: Point, angle: number): Point {
  if (!angle) return p;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const dx = p.x - c.x;
  const dy = p.y - c.y;
  return { x: c.x + dx * cos - dy * sin, y: c.y + dx * sin + dy * cos };
}

/**
 * The point of a box for an anchor: fixed anchors are the edge midpoints (or the centre); 'auto'
 * is where the line from the centre towards `toward` leaves the box (the edge facing the other end).
 */
export function anchorPoint(box: ShapeBox, anchor: string | undefined, toward: Point): Point {
  const c = boxCentre(box);
  const hw = box.w / 2;
  const hh = box.h / 2;
  let local: Point;
  switch (anchor) {
    case 'top':
      local = { x: c.x, y: c.y - hh };
      break;
    case 'bottom':
      local = { x: c.x, y: c.y + hh };
      break;
    case 'left':
      local = { x: c.x - hw, y: c.y };
      break;
    case 'right':
      local = { x: c.x + hw, y: c.y };
      break;
    case 'center':
      return c;
    default: {
      // the other end in the box's unrotated frame
      const t = rotateAbout(toward, c, -box.rotation);
      const dx = t.x - c.x;
      const dy = t.y - c.y;
      if ((dx === 0 && dy === 0) || (hw === 0 && hh === 0)) return c;
      const sx = dx === 0 ? Infinity : hw / Math.abs(dx);
      const sy = dy === 0 ? Infinity : hh / Math.abs(dy);
      const s = Math.min(sx, sy);
      local = { x: c.x + dx * s, y: c.y + dy * s };
    }
  }
  return rotateAbout(local, c, box.rotation);
}

/** the connector's stored end points in world coordinates (first and last point) */
export function storedEnds(c: ConnectorShape): { start: Point; end: Point } {
  const pts = localPoints(c);
  if (pts.length < 2) return { start: { x: c.x, y: c.y }, end: { x: c.x, y: c.y } };
  const n = pts.length;
  return {
    start: { x: c.x + pts[0]!, y: c.y + pts[1]! },
    end: { x: c.x + pts[n - 2]!, y: c.y + pts[n - 1]! },
  };
}

/**
 * End points of a connector on its bound shapes' boxes (null = that end is free and keeps its
 * stored point). An 'auto' end faces the other end: the other shape's centre when bound, else its point.
 */
export function connectorEndpoints(
  connector: ConnectorShape,
  from: ShapeRecord | null,
  to: ShapeRecord | null,
): { start: Point; end: Point } {
  const stored = storedEnds(connector);
  const fromBox = from ? localBox(from) : null;
  const toBox = to ? localBox(to) : null;
  const fromRef = fromBox ? boxCentre(fromBox) : stored.start;
  const toRef = toBox ? boxCentre(toBox) : stored.end;
  return {
    start: fromBox ? anchorPoint(fromBox, connector.fromAnchor, toRef) : stored.start,
    end: toBox ? anchorPoint(toBox, connector.toAnchor, fromRef) : stored.end,
  };
}

/** x, y and packed points of a connector between two world points (relative to their top-left) */
export function connectorGeometry(start: Point, end: Point): { x: number; y: number; points: Uint8Array } {
  const x = Math.min(start.x, end.x);
  const y = Math.min(start.y, end.y);
  return { x, y, points: packPoints([start.x - x, start.y - y, end.x - x, end.y - y]) };
}

/**
 * Inside a change: every connector bound to a changed shape (or itself changed) gets its ends
 * recomputed from the shapes as they are in this change; an end whose shape is gone becomes
 * unbound and keeps its last point. `read` must see the change's state (e.g. id => getShape(d, id));
 * `connectorsOf` may be the scene's index from before the change (a deleted shape's connectors
 * are still listed there). Returns the connectors it rewrote (for the undo record).
 */
export function followBindings(
  d: BoardDoc,
  changedIds: Iterable<string>,
  read: (id: string) => ShapeRecord | null,
  connectorsOf: (id: string) => readonly string[],
): string[] {
  const todo = new Set<string>();
  for (const id of changedIds) {
    for (const cid of connectorsOf(id)) todo.add(cid);
    if (read(id)?.kind === 'connector') todo.add(id);
  }
  const rewritten: string[] = [];
  for (const cid of todo) {
    const c = read(cid);
    if (!c || c.kind !== 'connector') continue;
    const from = c.fromId ? read(c.fromId) : null;
    const to = c.toId ? read(c.toId) : null;
    const { start, end } = connectorEndpoints(c, from, to);
    const fromId = from ? c.fromId : null;
    const toId = to ? c.toId : null;
    // ends within the points grid's rounding of where they are: no change (no churn, no ops)
    const was = storedEnds(c);
    const near = (p: Point, q: Point) => Math.abs(p.x - q.x) <= GRID_SLACK && Math.abs(p.y - q.y) <= GRID_SLACK;
    if (fromId === c.fromId && toId === c.toId && near(start, was.start) && near(end, was.end)) continue;
    const next: ConnectorShape = { ...c, ...connectorGeometry(start, end), fromId, toId };
    const fields = (['x', 'y', 'points', 'fromId', 'toId'] as const).filter((k) => !sameValue(c[k], next[k]));
    if (!fields.length) continue;
    setFields(d, cid, next, fields);
    rewritten.push(cid);
  }
  return rewritten;
}
