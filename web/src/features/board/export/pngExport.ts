/**
 * A PNG of a board region drawn by the board's own painters (paintItem) on an OffscreenCanvas, in
 * ~8 ms slices. The pixel size is kept within what Chromium can allocate (16,384 px a side,
 * 268 M px in all) by lowering the scale, which the caller is told about.
 */
import type { BoardBackground } from '@wb/proto';
import { drawBackground } from '../canvas/background';
import type { Rect } from '../canvas/camera';
import { paintItem } from '../canvas/painters';
import { loadImages, typesetFirst } from './assets';
import { ExportError, exportItems, height, width, type ExportScene } from './pages';
import { Slicer } from './slices';
import { exportPaint } from './vector';

export const MAX_CANVAS_SIDE = 16_384;
export const MAX_CANVAS_AREA = 268_435_456;
/**
 * What a PNG export makes at most unless asked otherwise (24 MP, e.g. 6,000 × 4,000): a lesson
 * board at 2× fits; a 20,000-object board at 1× would be ~190 MP, 70 MB and 7–9 s here.
 */
export const DEFAULT_PNG_PIXELS = 24_000_000;

export interface PngExportOptions {
  /** device pixels per world unit asked for: 1, 2 or 4 */
  scale: number;
  background: boolean;
  boardBackground: BoardBackground;
  only?: ReadonlySet<string>;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /** at most this many pixels (default DEFAULT_PNG_PIXELS); a smaller budget exports faster */
  maxPixels?: number;
  /** the scale had to be lowered to fit the canvas limits */
  onScaleLowered?: (scale: number) => void;
}

/** the pixel size of the region at `scale`, the scale lowered until it fits the canvas limits */
export function pngSize(
  region: Rect,
  scale: number,
  maxPixels = MAX_CANVAS_AREA,
): { scale: number; width: number; height: number; lowered: boolean } {
  const w = width(region);
  const h = height(region);
  if (!(w > 0 && h > 0) || !(scale > 0)) throw new ExportError('empty', 'nothing to export');
  const fit = Math.min(
    scale,
    MAX_CANVAS_SIDE / w,
    MAX_CANVAS_SIDE / h,
    Math.sqrt(Math.min(maxPixels, MAX_CANVAS_AREA) / (w * h)),
  );
  // rounding up may not cross a limit: keep a hair below it
  const s = fit < scale ? fit * 0.999 : scale;
  const pw = Math.max(1, Math.min(MAX_CANVAS_SIDE, Math.ceil(w * s)));
  const ph = Math.max(1, Math.min(MAX_CANVAS_SIDE, Math.ceil(h * s)));
  return { scale: s, width: pw, height: ph, lowered: s < scale };
}

type Canvas2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

function makeCanvas(w: number, h: number): { g: Canvas2D; toBlob: () => Promise<Blob> } {
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(w, h);
    const g = canvas.getContext('2d', { willReadFrequently: true });
    if (!g) throw new ExportError('canvas', `no ${w}×${h} canvas`);
    return { g, toBlob: () => canvas.convertToBlob({ type: 'image/png' }) };
  }
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const g = canvas.getContext('2d', { willReadFrequently: true });
  if (!g) throw new ExportError('canvas', `no ${w}×${h} canvas`);
  return {
    g,
    toBlob: () =>
      new Promise((resolve, reject) =>
        canvas.toBlob((b) => (b ? resolve(b) : reject(new ExportError('canvas', 'PNG encoding failed'))), 'image/png'),
      ),
  };
}

/**
 * Chromium records canvas commands and rasterises them when the pixels are needed: reading one
 * pixel makes it rasterise each slice's commands in that slice, instead of all of them in one
 * long task when the PNG is encoded.
 */
function flush(g: Canvas2D): void {
  g.getImageData(0, 0, 1, 1);
}

/** background rows painted per slice step */
const BAND_PX = 256;

export async function exportPng(scene: ExportScene, region: Rect, opts: PngExportOptions): Promise<Blob> {
  const size = pngSize(region, opts.scale, opts.maxPixels ?? DEFAULT_PNG_PIXELS);
  if (size.lowered) opts.onScaleLowered?.(size.scale);
  const slicer = new Slicer(opts.signal);
  slicer.check();
  const items = exportItems(scene, region, opts.only);
  const { scale } = size;
  const ctx = { ...exportPaint(opts.boardBackground, opts.background), zoom: scale };
  // painters draw what the caches have: wait for every picture, formula and graph first
  await loadImages(items, slicer);
  await typesetFirst(items, ctx, slicer);
  const { g, toBlob } = makeCanvas(size.width, size.height);
  const g2d = g as CanvasRenderingContext2D;
  if (opts.background) {
    const camera = { x: region.minX, y: region.minY, zoom: scale };
    for (let y = 0; y < size.height; y += BAND_PX) {
      drawBackground(g2d, opts.boardBackground, 'light', camera, size.width, size.height, {
        x: 0,
        y,
        w: size.width,
        h: Math.min(BAND_PX, size.height - y),
      });
      if (slicer.due()) {
        flush(g);
        await slicer.pause();
      }
    }
  }
  g.setTransform(scale, 0, 0, scale, -region.minX * scale, -region.minY * scale);
  for (let i = 0; i < items.length; i++) {
    paintItem(g2d, items[i]!, ctx);
    if ((i & 15) === 15 && slicer.due()) {
      opts.onProgress?.((0.9 * i) / items.length);
      flush(g);
      await slicer.pause();
    }
  }
  await slicer.pause();
  // encoding happens off the main thread (convertToBlob / toBlob are asynchronous)
  const blob = await toBlob();
  slicer.check();
  opts.onProgress?.(1);
  return blob;
}
