/**
 * Where files land on the board: an image keeps its natural aspect ratio, a document's pages are
 * laid out in a column with a gap, each page sized from its own page image (pages of one document
 * may differ: a landscape slide in a portrait handout). Pure layout plus the small loaders that
 * read an image's natural size, and the drag payload the drawer hands to the board.
 */
import { DOC_ID_PATTERN, docPageUrl, imageUrl, type DocumentDto } from '@wb/proto';
import type { Point, Rect } from '../canvas/camera';
import type { NewShape } from '../canvas/editorApi';

/** board units: a page is as wide as a comfortable reading column at 100 % zoom */
export const PAGE_WIDTH = 800;
export const PAGE_GAP = 40;
/** an image's longest side at most, and at most this share of the visible board */
export const IMAGE_MAX_SIDE = 800;
export const IMAGE_VIEW_SHARE = 0.7;
/** width / height used when a page or image could not be measured (A4 portrait, 4:3 photo) */
export const FALLBACK_PAGE_ASPECT = 1 / Math.SQRT2;
export const FALLBACK_IMAGE_ASPECT = 4 / 3;
/** page thumbnails measured at once (small WebP files, served immutable) */
const MEASURE_CONCURRENCY = 4;

/** What the drawer drags onto the board (HTML5 drag and drop, our own MIME type). */
export const FILE_DRAG_MIME = 'application/x-wb-file';
export type FileDragPayload =
  | { kind: 'image'; fileId: string }
  | { kind: 'documentPage'; fileId: string; page: number }
  /** a whole document: all its pages at the drop point */
  | { kind: 'document'; fileId: string; pages: number };

export function encodeDrag(p: FileDragPayload): string {
  return JSON.stringify(p);
}

/** null unless it is a payload of ours (any page may put anything on a drag) */
export function decodeDrag(raw: string): FileDragPayload | null {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (typeof o.fileId !== 'string' || !DOC_ID_PATTERN.test(o.fileId)) return null;
  const count = (n: unknown, min: number) => typeof n === 'number' && Number.isInteger(n) && n >= min && n < 1e5;
  if (o.kind === 'image') return { kind: 'image', fileId: o.fileId };
  if (o.kind === 'documentPage' && count(o.page, 0))
    return { kind: 'documentPage', fileId: o.fileId, page: o.page as number };
  if (o.kind === 'document' && count(o.pages, 1))
    return { kind: 'document', fileId: o.fileId, pages: o.pages as number };
  return null;
}

/** a board shape names the document's image id (its images' URLs), never its content hash (issue 25 §4) */
export function dragPayloadOf(doc: Pick<DocumentDto, 'imageId' | 'isImage' | 'pages'>): FileDragPayload {
  if (doc.isImage) return { kind: 'image', fileId: doc.imageId };
  return doc.pages > 1
    ? { kind: 'document', fileId: doc.imageId, pages: doc.pages }
    : { kind: 'documentPage', fileId: doc.imageId, page: 0 };
}

const validAspect = (a: number, fallback: number) => (Number.isFinite(a) && a > 0 ? a : fallback);

/** An image centred on `at`: natural aspect, longest side ≤ 800 and within 70 % of the view. */
export function imageShape(fileId: string, aspect: number, at: Point, view: Rect): NewShape & { w: number; h: number } {
  const a = validAspect(aspect, FALLBACK_IMAGE_ASPECT);
  const maxW = Math.min(IMAGE_MAX_SIDE, (view.maxX - view.minX) * IMAGE_VIEW_SHARE);
  const maxH = Math.min(IMAGE_MAX_SIDE, (view.maxY - view.minY) * IMAGE_VIEW_SHARE);
  let w = maxW;
  let h = w / a;
  if (h > maxH) {
    h = maxH;
    w = h * a;
  }
  return { kind: 'image', fileId, x: at.x - w / 2, y: at.y - h / 2, w, h };
}

/** One page centred on `at`, 800 units wide. */
export function pageShape(
  fileId: string,
  page: number,
  aspect: number,
  at: Point,
): NewShape & { w: number; h: number } {
  const w = PAGE_WIDTH;
  const h = w / validAspect(aspect, FALLBACK_PAGE_ASPECT);
  return { kind: 'documentPage', fileId, page, x: at.x - w / 2, y: at.y - h / 2, w, h };
}

/** An item of a column: a page of a document, or an image (fitted in a page-wide square). */
export type ColumnItem =
  | { kind: 'documentPage'; fileId: string; page: number; aspect: number }
  | { kind: 'image'; fileId: string; aspect: number };

/**
 * Items in one column centred horizontally on `at`, the first one's middle at `at` (it is what
 * the person looks at), the rest below it with PAGE_GAP between them, in the given order.
 */
export function columnLayout(items: readonly ColumnItem[], at: Point): (NewShape & { w: number; h: number })[] {
  const sized = items.map((it) => {
    if (it.kind === 'documentPage') {
      const w = PAGE_WIDTH;
      return { it, w, h: w / validAspect(it.aspect, FALLBACK_PAGE_ASPECT) };
    }
    const a = validAspect(it.aspect, FALLBACK_IMAGE_ASPECT);
    const w = a >= 1 ? PAGE_WIDTH : PAGE_WIDTH * a;
    return { it, w, h: w / a };
  });
  if (!sized.length) return [];
  let y = at.y - sized[0]!.h / 2;
  return sized.map(({ it, w, h }) => {
    const x = at.x - w / 2;
    const shape: NewShape =
      it.kind === 'documentPage'
        ? { kind: 'documentPage', fileId: it.fileId, page: it.page, x, y, w, h }
        : { kind: 'image', fileId: it.fileId, x, y, w, h };
    y += h + PAGE_GAP;
    return shape;
  });
}

/** width / height of the image at `url` (rejects when it does not load) */
export type Measure = (url: string) => Promise<number>;

export const measureImage: Measure = (url) =>
  new Promise((resolve, reject) => {
    const img = new Image();
    img.decoding = 'async';
    img.onload = () =>
      img.naturalWidth > 0 && img.naturalHeight > 0
        ? resolve(img.naturalWidth / img.naturalHeight)
        : reject(new Error(`${url}: no size`));
    img.onerror = () => reject(new Error(`${url} did not load`));
    img.src = url;
  });

/** An image's aspect from its thumbnail (same ratio as the full image, a fraction of the bytes). */
export function imageAspect(fileId: string, measure: Measure = measureImage): Promise<number> {
  return measure(imageUrl(fileId, 'thumb')).catch(() => FALLBACK_IMAGE_ASPECT);
}

/** One page's aspect from its thumbnail (A4 when it does not load). */
export function pageAspect(fileId: string, page: number, measure: Measure = measureImage): Promise<number> {
  return measure(docPageUrl(fileId, page, 'thumb')).catch(() => FALLBACK_PAGE_ASPECT);
}

/**
 * Every page's aspect from its thumbnail, a few at a time; a page that does not load takes the
 * aspect of the first page that did (else A4).
 */
export async function pageAspects(
  fileId: string,
  pages: number,
  measure: Measure = measureImage,
  concurrency = MEASURE_CONCURRENCY,
): Promise<number[]> {
  const out: (number | null)[] = new Array<number | null>(pages).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < pages) {
      const i = next++;
      out[i] = await measure(docPageUrl(fileId, i, 'thumb')).catch(() => null);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, pages) }, worker));
  const known = out.find((a): a is number => a !== null) ?? FALLBACK_PAGE_ASPECT;
  return out.map((a) => a ?? known);
}

export function viewCentre(view: Rect): Point {
  return { x: (view.minX + view.maxX) / 2, y: (view.minY + view.maxY) / 2 };
}
