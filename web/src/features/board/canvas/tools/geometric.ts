/**
 * Geometric shapes (one tool per GEOMETRIC_SHAPES type): drag a box (Shift = equal sides, Alt =
 * from the centre; the dragged corners are snapped by the host), or click for a 120×120 shape
 * centred there. The new shape is selected and the select tool takes over, so it can be resized
 * or labelled at once.
 */
import type { FillStyle, GeometricShape } from '@wb/proto';
import { GEOMETRIC_SHAPES } from '@wb/proto';
import { putShape } from '../../realtime/boardDoc';
import type { Point } from '../camera';
import { CLICK_SLOP } from './line';
import type { Tool, ToolHost, ToolPointer, ToolStyle } from './types';

export type GeometricType = (typeof GEOMETRIC_SHAPES)[number];

/** size of a shape placed with a plain click (world units) */
export const CLICK_SHAPE_SIZE = 120;

/** the style's fill as record fields: none at all for an outline (smaller records, SPEC D4 default) */
export function fillFields(style: ToolStyle): { fill?: FillStyle; fillColor?: number } {
  return style.fill === 'none' || style.fillColor === null ? {} : { fill: style.fill, fillColor: style.fillColor };
}

/** the box dragged from `a` to `b`: Shift = equal sides, Alt = `a` is the centre */
export function dragBox(
  a: Point,
  b: Point,
  shift: boolean,
  alt: boolean,
): { x: number; y: number; w: number; h: number } {
  let dx = b.x - a.x;
  let dy = b.y - a.y;
  if (shift) {
    const s = Math.max(Math.abs(dx), Math.abs(dy));
    // a drag along one axis still has a direction on the other
    dx = (dx < 0 ? -1 : 1) * s;
    dy = (dy < 0 ? -1 : 1) * s;
  }
  if (alt) return { x: a.x - Math.abs(dx), y: a.y - Math.abs(dy), w: 2 * Math.abs(dx), h: 2 * Math.abs(dy) };
  return { x: Math.min(a.x, a.x + dx), y: Math.min(a.y, a.y + dy), w: Math.abs(dx), h: Math.abs(dy) };
}

export class GeometricTool implements Tool {
  readonly id: GeometricType;
  readonly cursor = 'crosshair';
  readonly edits = true;
  private drag: { id: string; from: Point; screen: Point; to: ToolPointer; moved: boolean } | null = null;

  constructor(shapeType: GeometricType) {
    this.id = shapeType;
  }

  down(p: ToolPointer, host: ToolHost): void {
    if (!host.canEdit()) return;
    // Alt means "from the centre" here, so it does not turn snapping off
    const from = host.snap({ x: p.x, y: p.y });
    this.drag = { id: host.newId(), from, screen: { x: p.sx, y: p.sy }, to: p, moved: false };
    host.redraw();
  }

  move(p: ToolPointer, host: ToolHost): void {
    const d = this.drag;
    if (!d) return;
    d.to = p;
    d.moved ||= Math.hypot(p.sx - d.screen.x, p.sy - d.screen.y) >= CLICK_SLOP;
    host.redraw();
  }

  up(p: ToolPointer, host: ToolHost): void {
    const d = this.drag;
    if (!d) return;
    this.move(p, host);
    this.drag = null;
    const shape = this.record(d.id, this.box(d, host), host);
    if (host.commit((doc) => putShape(doc, shape))) {
      host.setSelection([d.id]);
      host.setTool('select');
    }
    host.redraw();
  }

  cancel(host: ToolHost): void {
    if (!this.drag) return;
    this.drag = null;
    host.redraw();
  }

  drawOverlay(g: CanvasRenderingContext2D, host: ToolHost): void {
    const d = this.drag;
    if (d?.moved) host.drawShape(g, this.record(d.id, this.box(d, host), host));
  }

  private box(d: NonNullable<GeometricTool['drag']>, host: ToolHost): { x: number; y: number; w: number; h: number } {
    if (!d.moved) {
      const s = CLICK_SHAPE_SIZE;
      return { x: d.from.x - s / 2, y: d.from.y - s / 2, w: s, h: s };
    }
    return dragBox(d.from, host.snap({ x: d.to.x, y: d.to.y }), d.to.shift, d.to.alt);
  }

  private record(id: string, box: { x: number; y: number; w: number; h: number }, host: ToolHost): GeometricShape {
    const style = host.style();
    return {
      id,
      kind: 'shape',
      shapeType: this.id,
      creator: host.userId,
      z: host.topZ(),
      x: box.x,
      y: box.y,
      w: box.w,
      h: box.h,
      strokeColor: style.strokeColor,
      strokeWidth: style.strokeWidth,
      linePattern: style.linePattern,
      ...fillFields(style),
    };
  }
}

/** one tool per geometric shape type */
export function createGeometricTools(): Record<GeometricType, GeometricTool> {
  return Object.fromEntries(GEOMETRIC_SHAPES.map((t) => [t, new GeometricTool(t)])) as Record<
    GeometricType,
    GeometricTool
  >;
}
