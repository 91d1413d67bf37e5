/**
 * Geometry instruments as pure state and math (no canvas): where a ruler, protractor or compass
 * is, which of its parts a point hits, the ruler edge a pen snaps to, the protractor's reading,
 * the compass's accumulated sweep and lengths in grid units. World coordinates throughout; sizes
 * that must stay the same on screen (handles, snap distance) are screen px divided by the zoom.
 */
import type { BoardBackground } from '@wb/proto';
import { ADAPTIVE_BASE, DOT_BASE, GRAPH_MINOR, RULED, SQUARE } from '../background';
import type { Point } from '../camera';

/**
 * A ruler: its measuring edge runs from (x, y) — the 0 mark — along `angle` (radians) for
 * `length` world units; the body lies on the edge's left-hand normal side (below it at angle 0).
 */
export interface Ruler {
  x: number;
  y: number;
  angle: number;
  length: number;
}
/** A protractor: the middle of its baseline, the baseline's direction and the radius of the half disc. */
export interface Protractor {
  x: number;
  y: number;
  angle: number;
  radius: number;
}
/**
 * A compass: the needle (cx, cy), opened to `radius`; the pencil stood at `startAngle` when the
 * sweep began and has turned `sweep` radians since (negative: the other way round).
 */
export interface Compass {
  cx: number;
  cy: number;
  radius: number;
  startAngle: number;
  sweep: number;
}

export const TAU = Math.PI * 2;
/** the ruler's body is this fraction of its length wide */
export const RULER_WIDTH_RATIO = 1 / 8;
/** the pen snaps to a ruler edge it starts this close to (screen px) */
export const RULER_SNAP_PX = 16;
/** handles: centre this far beyond the instrument's end, radius (screen px) */
export const HANDLE_OFFSET_PX = 22;
export const HANDLE_RADIUS_PX = 9;
/** a press this close to a handle grabs it (screen px; fingers get more) */
export const hitTolerancePx = (pointerType: string): number => (pointerType === 'touch' ? 20 : 10);

/**
 * One grid unit in world units: the board background's base grid spacing (its spacing at zoom 1
 * before any adaptive halving or doubling), so a unit is the same on every screen and zoom; plain
 * backgrounds use the adaptive grid's base.
 */
export function gridUnit(background: BoardBackground): number {
  switch (background) {
    case 'graphGrid':
      return GRAPH_MINOR;
    case 'dotGrid':
      return DOT_BASE;
    case 'squares':
      return SQUARE;
    case 'lines':
      return RULED;
    default:
      return ADAPTIVE_BASE;
  }
}

/** world length → grid units rounded to one decimal */
export const toUnits = (world: number, unit: number): number => Math.round((world / unit) * 10) / 10;
/** "3.5" (one decimal, always shown) */
export const formatUnits = (world: number, unit: number): string => toUnits(world, unit).toFixed(1);

const dir = (angle: number): Point => ({ x: Math.cos(angle), y: Math.sin(angle) });
/** p in the frame of an origin and direction: `along` the direction, `across` its left-hand normal */
function local(p: Point, o: Point, angle: number): { along: number; across: number } {
  const u = dir(angle);
  const dx = p.x - o.x;
  const dy = p.y - o.y;
  return { along: dx * u.x + dy * u.y, across: -dx * u.y + dy * u.x };
}
/** the world point at `along`, `across` in that frame */
function world(o: Point, angle: number, along: number, across: number): Point {
  const u = dir(angle);
  return { x: o.x + along * u.x - across * u.y, y: o.y + along * u.y + across * u.x };
}

// ---------------------------------------------------------------------------------------------
// Ruler

export const rulerWidth = (r: Ruler): number => r.length * RULER_WIDTH_RATIO;
/** a point of the ruler's frame: `along` its edge from the 0 mark, `across` into the body */
export const rulerPoint = (r: Ruler, along: number, across: number): Point => world(r, r.angle, along, across);

export interface Handles {
  rotate: Point;
  close: Point;
}
/** rotate handle beyond the far end, close (×) beyond the 0 end, both mid-body */
export function rulerHandles(r: Ruler, zoom: number): Handles {
  const off = HANDLE_OFFSET_PX / zoom;
  const mid = rulerWidth(r) / 2;
  return { rotate: rulerPoint(r, r.length + off, mid), close: rulerPoint(r, -off, mid) };
}

export type InstrumentPart = 'rotate' | 'close' | 'body';

/** which part of the ruler p is on (handles first: they sit outside the body), or null */
export function hitRuler(p: Point, r: Ruler, zoom: number, tolPx = 10): InstrumentPart | null {
  const h = rulerHandles(r, zoom);
  const reach = (HANDLE_RADIUS_PX + tolPx) / zoom;
  if (dist(p, h.rotate) <= reach) return 'rotate';
  if (dist(p, h.close) <= reach) return 'close';
  const { along, across } = local(p, r, r.angle);
  const tol = tolPx / zoom;
  return along >= -tol && along <= r.length + tol && across >= -tol && across <= rulerWidth(r) + tol ? 'body' : null;
}

/** Which long edge of the ruler: 0 the measuring edge through (x, y), 1 the far one. */
export type RulerEdge = 0 | 1;

/**
 * The nearest point on the ruler edge nearest to p when p is within `snapPx` screen px of it and
 * beside the ruler (not beyond its ends); null otherwise. What the pen snaps to.
 */
export function projectToRulerEdge(
  p: Point,
  r: Ruler,
  zoom: number,
  snapPx = RULER_SNAP_PX,
): (Point & { edge: RulerEdge }) | null {
  const { along, across } = local(p, r, r.angle);
  if (along < 0 || along > r.length) return null;
  const w = rulerWidth(r);
  const edge: RulerEdge = Math.abs(across) <= Math.abs(across - w) ? 0 : 1;
  if (Math.abs(across - (edge === 0 ? 0 : w)) * zoom > snapPx) return null;
  return { ...projectToEdge(p, r, edge), edge };
}

/** p moved straight onto `edge` (clamped to the ruler's length): where a pen along it draws */
export function projectToEdge(p: Point, r: Ruler, edge: RulerEdge): Point {
  const { along } = local(p, r, r.angle);
  return rulerPoint(r, Math.min(r.length, Math.max(0, along)), edge === 0 ? 0 : rulerWidth(r));
}

/** the distance along the ruler of p's projection (world units): a reading on its scale */
export const rulerReading = (p: Point, r: Ruler): number => local(p, r, r.angle).along;

// ---------------------------------------------------------------------------------------------
// Protractor

/** rotate handle beyond the baseline's right end, close (×) beyond its left end */
export function protractorHandles(q: Protractor, zoom: number): Handles {
  const off = q.radius + HANDLE_OFFSET_PX / zoom;
  return { rotate: world(q, q.angle, off, 0), close: world(q, q.angle, -off, 0) };
}

/** the half disc lies on the baseline's right-hand normal side (above it at angle 0) */
export function hitProtractor(p: Point, q: Protractor, zoom: number, tolPx = 10): InstrumentPart | null {
  const h = protractorHandles(q, zoom);
  const reach = (HANDLE_RADIUS_PX + tolPx) / zoom;
  if (dist(p, h.rotate) <= reach) return 'rotate';
  if (dist(p, h.close) <= reach) return 'close';
  const tol = tolPx / zoom;
  const { across } = local(p, q, q.angle);
  return dist(p, q) <= q.radius + tol && across <= tol ? 'body' : null;
}

/**
 * The angle (degrees, 0–180) at the protractor's centre from its baseline's 0° end to p, as its
 * scale reads it: points below the baseline read their mirror image. 0 at the centre itself.
 */
export function protractorReading(p: Point, q: Protractor): number {
  const { along, across } = local(p, q, q.angle);
  if (along === 0 && across === 0) return 0;
  return (Math.atan2(Math.abs(across), along) * 180) / Math.PI;
}

// ---------------------------------------------------------------------------------------------
// Compass

/** where the pencil is now */
export const compassPencil = (c: Compass): Point => ({
  x: c.cx + c.radius * Math.cos(c.startAngle + c.sweep),
  y: c.cy + c.radius * Math.sin(c.startAngle + c.sweep),
});

export type CompassPart = 'needle' | 'pencil';

/** the needle or the pencil leg's tip (the pencil wins when both are under p: a tiny compass opens) */
export function hitCompass(p: Point, c: Compass, zoom: number, tolPx = 10): CompassPart | null {
  const reach = (HANDLE_RADIUS_PX + tolPx) / zoom;
  if (dist(p, compassPencil(c)) <= reach) return 'pencil';
  if (dist(p, { x: c.cx, y: c.cy }) <= reach) return 'needle';
  return null;
}

/** the angle of p around the needle (radians, −π…π) */
export const angleAround = (p: Point, c: Pick<Compass, 'cx' | 'cy'>): number => Math.atan2(p.y - c.cy, p.x - c.cx);

/**
 * The sweep after the pointer turned from angle `from` to `to` around the needle: the shortest
 * turn between them is added, so going on past a half turn keeps counting and turning back
 * undoes. Clamped to ±2π — a full turn is a circle and stays one.
 */
export function accumulateSweep(sweep: number, from: number, to: number): number {
  let d = to - from;
  while (d > Math.PI) d -= TAU;
  while (d <= -Math.PI) d += TAU;
  return Math.max(-TAU, Math.min(TAU, sweep + d));
}

export const isFullCircle = (sweep: number): boolean => Math.abs(sweep) >= TAU - 1e-9;

/**
 * The arc a sweep draws as the `arc` record's angles: a full circle is 0…2π; otherwise from the
 * start to start + sweep (endAngle < startAngle for a sweep the other way, which the painter
 * draws anticlockwise).
 */
export function compassArc(c: Compass): { startAngle: number; endAngle: number } {
  if (isFullCircle(c.sweep)) return { startAngle: 0, endAngle: TAU };
  // a start in 0…2π keeps the stored angles small and readable
  let start = c.startAngle % TAU;
  if (start < 0) start += TAU;
  return { startAngle: start, endAngle: start + c.sweep };
}

/** degrees 0…360 of a turn, for labels */
export const degrees = (rad: number): number => (rad * 180) / Math.PI;

/** the nearest multiple of `stepDeg` (Shift while rotating) */
export function snapAngleTo(angle: number, stepDeg = 15): number {
  const step = (stepDeg * Math.PI) / 180;
  return Math.round(angle / step) * step;
}

export const dist = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);
