/** The view onto the endless canvas: screen = (world − origin) × zoom. Pure math, no DOM. */
export interface Camera {
  /** world coordinates of the screen's top-left corner */
  x: number;
  y: number;
  zoom: number;
}
export interface Point {
  x: number;
  y: number;
}
export interface Rect {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 20;
export const DEFAULT_CAMERA: Camera = { x: 0, y: 0, zoom: 1 };

export function toWorld(c: Camera, sx: number, sy: number): Point {
  return { x: c.x + sx / c.zoom, y: c.y + sy / c.zoom };
}
export function toScreen(c: Camera, wx: number, wy: number): Point {
  return { x: (wx - c.x) * c.zoom, y: (wy - c.y) * c.zoom };
}
/** pan by a screen distance (drag direction: content follows the pointer) */
export function panBy(c: Camera, dsx: number, dsy: number): Camera {
  return { ...c, x: c.x - dsx / c.zoom, y: c.y - dsy / c.zoom };
}
/** zoom by a factor keeping the world point under the screen point fixed */
export function zoomAt(c: Camera, sx: number, sy: number, factor: number): Camera {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, c.zoom * factor));
  const w = toWorld(c, sx, sy);
  return { zoom, x: w.x - sx / zoom, y: w.y - sy / zoom };
}
export function visibleRect(c: Camera, width: number, height: number): Rect {
  return { minX: c.x, minY: c.y, maxX: c.x + width / c.zoom, maxY: c.y + height / c.zoom };
}
/** the camera that shows `r` in a width × height screen with a margin */
export function fitRect(r: Rect, width: number, height: number, margin = 40): Camera {
  const w = Math.max(1, r.maxX - r.minX);
  const h = Math.max(1, r.maxY - r.minY);
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.min((width - 2 * margin) / w, (height - 2 * margin) / h, 2)));
  return { zoom, x: (r.minX + r.maxX) / 2 - width / 2 / zoom, y: (r.minY + r.maxY) / 2 - height / 2 / zoom };
}
export function intersects(a: Rect, b: Rect): boolean {
  return a.minX <= b.maxX && a.maxX >= b.minX && a.minY <= b.maxY && a.maxY >= b.minY;
}
export function contains(outer: Rect, inner: Rect): boolean {
  return inner.minX >= outer.minX && inner.maxX <= outer.maxX && inner.minY >= outer.minY && inner.maxY <= outer.maxY;
}
export function rectOf(a: Point, b: Point): Rect {
  return { minX: Math.min(a.x, b.x), minY: Math.min(a.y, b.y), maxX: Math.max(a.x, b.x), maxY: Math.max(a.y, b.y) };
}
