/**
 * An image (`image`): an uploaded picture (fileId) stretched over its w × h box, loaded through
 * the board's image cache (one decode at a time); a placeholder glyph until it is ready, a
 * crossed frame when it cannot be loaded. Document pages (./documentPage.ts) are drawn the same way.
 */
import type { DocumentPageShape, ImageShape } from '@wb/proto';
import { imageCache, imageUrl } from '../imageCache';
import type { SceneItem } from '../scene';
import { uiColors, type PaintContext } from '../theme';
import { num, storedBoxGeometry } from './shared/geometry';
import { resizeStoredBox } from './shared/resize';
import { rectD, type Prim, type StrokeStyle, type VectorContext } from './shared/vector';
import type { ShapeUtil } from './types';

type Picture = ImageShape | DocumentPageShape;

/** image glyph (a frame with a mountain and a sun) or, when broken, a frame with a cross */
function assetPlaceholder(
  g: CanvasRenderingContext2D,
  x: number,
  y: number,
  w: number,
  h: number,
  broken: boolean,
  ctx: PaintContext,
): void {
  const ui = uiColors(ctx);
  g.fillStyle = ui.placeholder;
  g.fillRect(x, y, w, h);
  const s = Math.min(w, h) * 0.3;
  if (s * ctx.zoom < 6) return;
  const cx = x + w / 2;
  const cy = y + h / 2;
  g.strokeStyle = ui.glyph;
  g.fillStyle = ui.glyph;
  g.lineWidth = s * 0.08;
  g.lineJoin = 'round';
  g.strokeRect(cx - s, cy - s * 0.75, 2 * s, 1.5 * s);
  if (broken) {
    g.beginPath();
    g.moveTo(cx - s * 0.5, cy - s * 0.4);
    g.lineTo(cx + s * 0.5, cy + s * 0.4);
    g.moveTo(cx + s * 0.5, cy - s * 0.4);
    g.lineTo(cx - s * 0.5, cy + s * 0.4);
    g.stroke();
    return;
  }
  g.beginPath();
  g.moveTo(cx - s * 0.85, cy + s * 0.6);
  g.lineTo(cx - s * 0.3, cy - s * 0.1);
  g.lineTo(cx + s * 0.1, cy + s * 0.3);
  g.lineTo(cx + s * 0.4, cy);
  g.lineTo(cx + s * 0.85, cy + s * 0.6);
  g.closePath();
  g.fill();
  g.beginPath();
  g.arc(cx + s * 0.45, cy - s * 0.35, s * 0.15, 0, 2 * Math.PI);
  g.fill();
}

/** paint a picture from `url` (its kind's assetUrl) over its box */
export function paintPicture(g: CanvasRenderingContext2D, item: SceneItem, ctx: PaintContext, url: string): void {
  const shape = item.shape as Picture;
  const { x, y } = shape;
  const w = Math.max(0, shape.w);
  const h = Math.max(0, shape.h);
  const asset = imageCache.get(url, ctx.onAsset);
  if (asset.state === 'ready' && asset.image) g.drawImage(asset.image, x, y, w, h);
  else assetPlaceholder(g, x, y, w, h, asset.state === 'error', ctx);
}

/** a picture's vector drawing: the loaded image (a data: URL by shape id), else its placeholder */
export function picturePrims(item: SceneItem, ctx: VectorContext): Prim[] {
  const shape = item.shape as Picture;
  const w = Math.max(0, num(shape.w));
  const h = Math.max(0, num(shape.h));
  const href = ctx.images?.get(shape.id);
  if (href) return [{ t: 'image', href, x: shape.x, y: shape.y, w, h }];
  const ui = uiColors(ctx.paint);
  const frame: StrokeStyle = { color: ui.glyph, alpha: 1, width: 1, cap: 'butt', join: 'miter', dash: null };
  return [{ t: 'path', d: rectD(shape.x, shape.y, w, h), fill: { color: ui.placeholder, alpha: 1 }, stroke: frame }];
}

export const pictureDotColor = (_shape: Picture, ctx: PaintContext): string => uiColors(ctx).placeholder;

export const imageUtil: ShapeUtil<ImageShape> = {
  kind: 'image',
  geometry: storedBoxGeometry,
  paint: (g, item, ctx) => paintPicture(g, item, ctx, imageUrl((item.shape as ImageShape).fileId)),
  dotColor: pictureDotColor,
  vector: picturePrims,
  assetUrl: (shape) => imageUrl(shape.fileId),
  resize: resizeStoredBox,
  style: { stroke: false, fill: false },
};
