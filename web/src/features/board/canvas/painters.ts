/**
 * Drawing shapes on a Canvas2D context (world transform already set): each kind's module paints
 * its own (shapes/registry.ts); here is what is the same for all: tiny shapes as one dot, the
 * rotation and opacity around a kind's painter, and records not yet in the scene (tool previews).
 * Paths are built in world coordinates and cached on the scene item, so a frame is mostly
 * stroke/fill calls; state is saved only for the shapes that change it (rotation, opacity,
 * dashes, clips). The helpers the kinds paint with are in shapes/shared/paint.ts.
 */
import type { ShapeRecord } from '@wb/proto';
import { shapeGeometry } from './geometry';
import { makeItem, type SceneItem } from './scene';
import { utilOf } from './shapes/registry';
import { LOD_SHAPE_PX } from './shapes/shared/paint';
import { DEFAULT_PAINT_CONTEXT } from './theme';
import type { PaintContext } from './theme';

export type { PaintContext } from './theme';
export { inkColor } from './theme';
export { drawStroke, LOD_SHAPE_PX, LOD_TEXT_PX, type Painter } from './shapes/shared/paint';

/** a shape under LOD_SHAPE_PX on screen: one fillRect of its bounds (at least a hairline) */
export function paintDot(g: CanvasRenderingContext2D, item: SceneItem, ctx: PaintContext): void {
  const b = item.bounds;
  const min = 1 / Math.max(ctx.zoom, 1e-6);
  g.fillStyle = utilOf(item.shape.kind).dotColor(item.shape, ctx);
  g.fillRect(b.minX, b.minY, Math.max(min, b.maxX - b.minX), Math.max(min, b.maxY - b.minY));
}

export function isDot(item: SceneItem, zoom: number): boolean {
  const b = item.bounds;
  return Math.max(b.maxX - b.minX, b.maxY - b.minY) * zoom < LOD_SHAPE_PX;
}

/** draw a scene item (world transform set) */
export function paintItem(
  g: CanvasRenderingContext2D,
  item: SceneItem,
  ctx: PaintContext = DEFAULT_PAINT_CONTEXT,
): void {
  if (isDot(item, ctx.zoom)) {
    paintDot(g, item, ctx);
    return;
  }
  const shape = item.shape;
  const util = utilOf(shape.kind);
  const rotation = typeof shape.rotation === 'number' ? shape.rotation : 0;
  const alpha = typeof shape.opacity === 'number' ? shape.opacity : 1;
  if (!rotation && alpha === 1) {
    util.paint(g, item, ctx);
    return;
  }
  g.save();
  if (alpha !== 1) g.globalAlpha *= Math.max(0, Math.min(1, alpha));
  if (rotation) {
    const { box } = shapeGeometry(shape, item.points);
    const cx = box.x + box.w / 2;
    const cy = box.y + box.h / 2;
    g.translate(cx, cy);
    g.rotate(rotation);
    g.translate(-cx, -cy);
  }
  util.paint(g, item, ctx);
  g.restore();
}

// previews are redrawn at pointer rate with the same record object: keep their paths
const previewItems = new WeakMap<ShapeRecord, SceneItem>();

/** draw a record that is not (yet) in the scene: tool previews, live resize/rotate */
export function paintShape(
  g: CanvasRenderingContext2D,
  shape: ShapeRecord,
  ctx: PaintContext = DEFAULT_PAINT_CONTEXT,
): void {
  let item = previewItems.get(shape);
  if (!item) previewItems.set(shape, (item = makeItem(shape)));
  paintItem(g, item, ctx);
}
