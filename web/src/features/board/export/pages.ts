/**
 * Export geometry, pure: which world rectangle is exported (board, selection, view), paper sizes,
 * and how a region lands on PDF pages (fitted on one page, or tiled over several at a fixed
 * scale, or one page per PDF page placed on the board). Units: world units for regions, PDF
 * points (1/72 in) for paper.
 */
import { intersects, type Rect } from '../canvas/camera';
import type { SceneItem } from '../canvas/scene';

/** what the exporters need of the scene (the board's Scene satisfies it) */
export interface ExportScene {
  order(): readonly SceneItem[];
  bounds(): Rect | null;
  get(id: string): SceneItem | undefined;
  /** items whose bounds meet the rectangle, bottom to top */
  visible(rect: Rect): SceneItem[];
}

/** A bad request (nothing to export, too big): shown to the user, never thrown into the board. */
export class ExportError extends Error {
  constructor(
    readonly code: 'empty' | 'tooBig' | 'canvas' | 'cancelled',
    message: string,
  ) {
    super(message);
    this.name = 'ExportError';
  }
}

// ---------------------------------------------------------------------------------------------
// Regions

export type ExportScope = 'board' | 'selection' | 'view';
/** world units of empty space kept around the exported shapes */
export const REGION_PADDING = 24;

export const width = (r: Rect): number => r.maxX - r.minX;
export const height = (r: Rect): number => r.maxY - r.minY;
const pad = (r: Rect, by: number): Rect => ({
  minX: r.minX - by,
  minY: r.minY - by,
  maxX: r.maxX + by,
  maxY: r.maxY + by,
});

function union(items: Iterable<SceneItem>): Rect | null {
  let out: Rect | null = null;
  for (const it of items) {
    const b = it.bounds;
    out = out
      ? {
          minX: Math.min(out.minX, b.minX),
          minY: Math.min(out.minY, b.minY),
          maxX: Math.max(out.maxX, b.maxX),
          maxY: Math.max(out.maxY, b.maxY),
        }
      : { ...b };
  }
  return out;
}

/**
 * The world rectangle to export: all shapes (padded), the selected shapes (padded) or the view
 * as it is; null when there is nothing (an empty board, an empty selection).
 */
export function exportRegion(
  scene: ExportScene,
  scope: ExportScope,
  selection: ReadonlySet<string>,
  view: Rect,
): Rect | null {
  if (scope === 'view') return width(view) > 0 && height(view) > 0 ? { ...view } : null;
  if (scope === 'selection') {
    const items = [...selection].map((id) => scene.get(id)).filter((it): it is SceneItem => !!it);
    const r = union(items);
    return r && pad(r, REGION_PADDING);
  }
  const all = scene.bounds();
  return all && pad(all, REGION_PADDING);
}

/** the shapes to draw for a region, bottom to top (`only`: a selection export's shapes) */
export function exportItems(scene: ExportScene, region: Rect, only?: ReadonlySet<string>): SceneItem[] {
  const found = scene.visible(region);
  return only ? found.filter((it) => only.has(it.shape.id)) : found;
}

// ---------------------------------------------------------------------------------------------
// Paper

export const PAPERS = {
  a4: { width: 595.28, height: 841.89 },
  letter: { width: 612, height: 792 },
} as const;
export type PaperName = keyof typeof PAPERS;
export type Orientation = 'portrait' | 'landscape';
/** page margin in points (about 8.5 mm) */
export const MARGIN = 24;
/** how much neighbouring tiles repeat of each other, in points, so nothing is lost at a cut */
export const OVERLAP = 18;
/** CSS pixels are 0.75 pt: a split export prints the board at 100 % zoom when it can */
export const PT_PER_UNIT = 0.75;
/** at most this many pages from one split export (the scale goes down instead) */
export const MAX_PAGES = 100;

export interface PageSize {
  width: number;
  height: number;
  margin: number;
}

export function pageSize(paper: PaperName, orientation: Orientation, margin = MARGIN): PageSize {
  const p = PAPERS[paper];
  const long = Math.max(p.width, p.height);
  const short = Math.min(p.width, p.height);
  return orientation === 'portrait' ? { width: short, height: long, margin } : { width: long, height: short, margin };
}

/** the orientation whose shape is closer to the region's */
export const orientationFor = (r: Rect): Orientation => (width(r) > height(r) ? 'landscape' : 'portrait');

/** One page: `region` (world) is drawn at `scale` points per unit with its top-left at (x, y) points. */
export interface PagePlacement {
  page: PageSize;
  region: Rect;
  scale: number;
  x: number;
  y: number;
}

/** the region scaled to fill the page inside its margins, centred */
export function fitToPage(region: Rect, page: PageSize): PagePlacement {
  const cw = page.width - 2 * page.margin;
  const ch = page.height - 2 * page.margin;
  const w = Math.max(width(region), 1e-6);
  const h = Math.max(height(region), 1e-6);
  const scale = Math.min(cw / w, ch / h);
  return {
    page,
    region: { ...region },
    scale,
    x: page.margin + (cw - w * scale) / 2,
    y: page.margin + (ch - h * scale) / 2,
  };
}

/** how many tiles cover `length` points with tiles of `content` points overlapping by OVERLAP */
function tileCount(length: number, content: number, overlap: number): number {
  if (length <= content) return 1;
  return Math.ceil((length - overlap) / (content - overlap));
}

/** pages a split at `scale` needs */
export function splitPageCount(region: Rect, page: PageSize, scale: number, overlap = OVERLAP): number {
  const cw = page.width - 2 * page.margin;
  const ch = page.height - 2 * page.margin;
  return tileCount(width(region) * scale, cw, overlap) * tileCount(height(region) * scale, ch, overlap);
}

/** the split scale: 100 % (0.75 pt per unit) unless that needs more than maxPages pages */
export function splitScale(region: Rect, page: PageSize, maxPages = MAX_PAGES): number {
  let scale = PT_PER_UNIT;
  // each step shrinks by 10 %: a few dozen steps at most for any board the canvas can hold
  while (splitPageCount(region, page, scale) > maxPages && scale > 1e-6) scale *= 0.9;
  return scale;
}

/**
 * Tiles of the region at `scale` (points per unit), each the page's content area, neighbours
 * overlapping by `overlap` points, in reading order (left to right, then top to bottom).
 */
export function splitIntoPages(region: Rect, page: PageSize, scale: number, overlap = OVERLAP): PagePlacement[] {
  if (!(scale > 0)) throw new ExportError('tooBig', 'scale must be positive');
  const cw = page.width - 2 * page.margin;
  const ch = page.height - 2 * page.margin;
  const cols = tileCount(width(region) * scale, cw, overlap);
  const rows = tileCount(height(region) * scale, ch, overlap);
  if (cols * rows > MAX_PAGES * 10) throw new ExportError('tooBig', `${cols * rows} pages`);
  const stepX = (cw - overlap) / scale;
  const stepY = (ch - overlap) / scale;
  const out: PagePlacement[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const minX = region.minX + c * stepX;
      const minY = region.minY + r * stepY;
      out.push({
        page,
        region: {
          minX,
          minY,
          maxX: Math.min(region.maxX, minX + cw / scale),
          maxY: Math.min(region.maxY, minY + ch / scale),
        },
        scale,
        x: page.margin,
        y: page.margin,
      });
    }
  return out;
}

/**
 * One page per PDF page on the board (documentPage records), bottom to top: each page's region
 * is the record's box (its bounds when rotated), and the shapes drawn over it come along.
 */
export function documentPages(scene: ExportScene): { id: string; region: Rect }[] {
  const out: { id: string; region: Rect }[] = [];
  for (const it of scene.order()) {
    const s = it.shape;
    if (s.kind !== 'documentPage') continue;
    const region = s.rotation
      ? { ...it.bounds }
      : { minX: s.x, minY: s.y, maxX: s.x + Math.max(0, s.w), maxY: s.y + Math.max(0, s.h) };
    if (width(region) > 0 && height(region) > 0) out.push({ id: s.id, region });
  }
  return out;
}

/** placements for the document pages: each fitted on the paper turned the way the page is */
export function documentPlacements(scene: ExportScene, paper: PaperName): PagePlacement[] {
  return documentPages(scene).map(({ region }) => fitToPage(region, pageSize(paper, orientationFor(region))));
}

/** the part of `items` a page shows */
export const onPage = (items: readonly SceneItem[], p: PagePlacement): SceneItem[] =>
  items.filter((it) => intersects(it.bounds, p.region));
