/**
 * One standalone SVG of a board region: viewBox = the region in world units, the background (when
 * wanted) as vector paths, then every shape bottom to top as vector.ts draws it. Built in slices.
 */
import type { BoardBackground } from '@wb/proto';
import type { Rect } from '../canvas/camera';
import type { SceneItem } from '../canvas/scene';
import { imageDataUrls, loadImages, type ImageType } from './assets';
import { ExportError, exportItems, height, width, type ExportScene } from './pages';
import { Slicer } from './slices';
import {
  backgroundPrims,
  collectFragments,
  drawingToSvg,
  exportPaint,
  fmt,
  shapeDrawing,
  type VectorContext,
  type VectorFor,
} from './vector';

export interface VectorExportOptions {
  /** draw the board background (surface colour and grid) */
  background: boolean;
  boardBackground: BoardBackground;
  /** only these shapes (a selection export); default: everything in the region */
  only?: ReadonlySet<string>;
  /** typeset formulas and plotted graphs as SVG fragments (else their placeholders) */
  vectorFor?: VectorFor;
  signal?: AbortSignal;
  /** 0…1 as the export goes on */
  onProgress?: (fraction: number) => void;
}

/** what vector exports prepare before drawing: images as data: URLs, formula and graph fragments */
export async function vectorContext(
  items: readonly SceneItem[],
  opts: VectorExportOptions,
  imageType: ImageType,
  slicer: Slicer,
): Promise<VectorContext> {
  const images = await imageDataUrls(await loadImages(items, slicer), imageType, slicer);
  const fragments = await collectFragments(items, opts.vectorFor, opts.signal);
  slicer.check();
  return { paint: exportPaint(opts.boardBackground, opts.background), images, fragments };
}

export async function svgText(scene: ExportScene, region: Rect, opts: VectorExportOptions): Promise<string> {
  if (!(width(region) > 0 && height(region) > 0)) throw new ExportError('empty', 'nothing to export');
  const slicer = new Slicer(opts.signal);
  slicer.check();
  const items = exportItems(scene, region, opts.only);
  const ctx = await vectorContext(items, opts, 'image/png', slicer);
  const w = width(region);
  const h = height(region);
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" `,
    `viewBox="${fmt(region.minX)} ${fmt(region.minY)} ${fmt(w)} ${fmt(h)}" width="${fmt(w)}" height="${fmt(h)}">\n`,
  ];
  const ids = { next: 0 };
  if (opts.background)
    parts.push(
      ...backgroundPrims(opts.boardBackground, region, 1).map((p) =>
        drawingToSvg({ id: '', rotation: null, opacity: 1, prims: [p] }, ids),
      ),
      '\n',
    );
  for (let i = 0; i < items.length; i++) {
    const svg = drawingToSvg(shapeDrawing(items[i]!, ctx), ids);
    if (svg) parts.push(svg, '\n');
    if ((i & 63) === 63) {
      opts.onProgress?.(i / items.length);
      await slicer.tick();
    }
  }
  parts.push('</svg>\n');
  opts.onProgress?.(1);
  return parts.join('');
}

/** the region as a standalone SVG file */
export async function exportSvg(scene: ExportScene, region: Rect, opts: VectorExportOptions): Promise<Blob> {
  return new Blob([await svgText(scene, region, opts)], { type: 'image/svg+xml' });
}
