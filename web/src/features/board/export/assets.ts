/**
 * Images and document pages for an export: every one in the region is loaded through the
 * board's image cache (one decode at a time, as on screen) and waited for, so the export shows
 * the pictures instead of placeholders. Vector exports embed them as data: URLs.
 */
import { imageCache, type Asset } from '../canvas/imageCache';
import { paintItem } from '../canvas/painters';
import type { SceneItem } from '../canvas/scene';
import { utilOf } from '../canvas/shapes/registry';
import type { PaintContext } from '../canvas/theme';
import type { Slicer } from './slices';

/** the picture a shape is drawn from (images, document pages: ShapeUtil.assetUrl), or null */
const urlOf = (item: SceneItem): string | null => utilOf(item.shape.kind).assetUrl?.(item.shape) ?? null;

function settled(url: string): Promise<Asset> {
  return new Promise((resolve) => {
    const asset = imageCache.get(url, () => resolve(imageCache.get(url)));
    if (asset.state !== 'loading') resolve(asset);
  });
}

/** waits until every image of `items` is decoded or failed; returns the ready ones by shape id */
export async function loadImages(items: readonly SceneItem[], slicer: Slicer): Promise<Map<string, HTMLImageElement>> {
  const out = new Map<string, HTMLImageElement>();
  for (const it of items) {
    const url = urlOf(it);
    if (!url) continue;
    const asset = await settled(url);
    slicer.check();
    if (asset.state === 'ready' && asset.image) out.set(it.shape.id, asset.image);
  }
  return out;
}

/** how long an export waits for formulas and graphs to be typeset before it paints what it has */
export const TYPESET_WAIT_MS = 20_000;

/**
 * Formulas and graphs are typeset on first ask (MathJax, function-plot), so a bitmap export could
 * catch placeholders. Paint them once into a 1×1 canvas as the export will (same zoom and theme,
 * so the same cache entries are asked for) and repeat after each one settles, until a pass finds
 * none still loading or the wait runs out.
 */
export async function typesetFirst(items: readonly SceneItem[], paint: PaintContext, slicer: Slicer): Promise<void> {
  const lazy = items.filter((it) => utilOf(it.shape.kind).typeset);
  if (!lazy.length) return;
  const g = Object.assign(document.createElement('canvas'), { width: 1, height: 1 }).getContext('2d');
  if (!g) return;
  const until = performance.now() + TYPESET_WAIT_MS;
  while (performance.now() < until) {
    let pending = 0;
    let wake = () => {};
    const settled = new Promise<void>((resolve) => (wake = resolve));
    const ctx: PaintContext = { ...paint, onAsset: () => wake(), onPending: () => pending++ };
    for (const it of lazy) paintItem(g, it, ctx);
    if (pending === 0) return;
    await Promise.race([settled, new Promise((r) => setTimeout(r, Math.max(0, until - performance.now())))]);
    slicer.check();
  }
}

export type ImageType = 'image/png' | 'image/jpeg';

/** an image re-encoded as a data: URL, the encoding asynchronous (off the main thread in Chromium) */
async function encode(img: HTMLImageElement, type: ImageType): Promise<string | null> {
  const w = img.naturalWidth;
  const h = img.naturalHeight;
  if (!w || !h) return null;
  const offscreen = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(w, h) : null;
  const canvas = offscreen ?? Object.assign(document.createElement('canvas'), { width: w, height: h });
  const g = canvas.getContext('2d') as CanvasRenderingContext2D | null;
  if (!g) return null;
  // JPEG has no transparency: flatten onto white paper rather than black
  if (type === 'image/jpeg') {
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, w, h);
  }
  g.drawImage(img, 0, 0);
  const blob = offscreen
    ? await offscreen.convertToBlob({ type, quality: 0.92 })
    : await new Promise<Blob | null>((resolve) => (canvas as HTMLCanvasElement).toBlob(resolve, type, 0.92));
  if (!blob) return null;
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : null);
    reader.onerror = () => resolve(null);
    reader.readAsDataURL(blob);
  });
}

/**
 * The ready images as data: URLs by shape id (each picture encoded once): PNG for SVG (keeps
 * transparency), JPEG for PDF (jsPDF embeds JPEG as it is, but decodes and re-packs PNG in script).
 */
export async function imageDataUrls(
  images: ReadonlyMap<string, HTMLImageElement>,
  type: ImageType,
  slicer: Slicer,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const byImage = new Map<HTMLImageElement, string | null>();
  for (const [id, img] of images) {
    let url = byImage.get(img);
    if (url === undefined) {
      try {
        url = await encode(img, type);
      } catch {
        url = null; // a tainted or undecodable picture: its placeholder is drawn
      }
      byImage.set(img, url);
      slicer.check();
    }
    if (url) out.set(id, url);
  }
  return out;
}
