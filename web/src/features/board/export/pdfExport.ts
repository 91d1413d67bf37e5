/**
 * A PDF of a board region with vector paths, fills and text (never a screenshot): jsPDF, loaded
 * on first use, writes vector.ts's drawings as PDF path operators under one transform per page
 * (world units → points), so coordinates are written as they are and stroke widths scale with
 * the page. Pages: the region fitted on one page, tiled over several at 100 % (smaller when that
 * would pass MAX_PAGES), or one page per PDF page placed on the board. Built in ~8 ms slices.
 *
 * Text uses the PDF standard fonts (Helvetica, Times, Courier) while it fits in Latin-1 (small
 * files). A text with other characters (Cyrillic, Greek, Polish ł, Turkish ş…) is written with a
 * DejaVu font of its family, embedded in the PDF (fonts.ts loads it on first need). Characters
 * even DejaVu lacks (CJK, emoji) are written as "?" and the caller is told (onNotice 'missingGlyphs').
 */
import type { jsPDF as JsPdf } from 'jspdf';
import type { Rect } from '../canvas/camera';
import type { SceneItem } from '../canvas/scene';
import {
  documentPlacements,
  ExportError,
  exportItems,
  fitToPage,
  height,
  onPage,
  pageSize,
  PT_PER_UNIT,
  splitIntoPages,
  splitScale,
  width,
  type ExportScene,
  type Orientation,
  type PagePlacement,
  type PaperName,
} from './pages';
import { UNICODE_FONTS, unicodeFontData, type FontFamily, type FontLoader } from './fonts';
import { Slicer } from './slices';
import { vectorContext, type VectorExportOptions } from './svgExport';
import {
  backgroundPrims,
  BASELINE_SHIFT,
  pathToPdf,
  placeFragment,
  rectD,
  shapeDrawing,
  type PathData,
  type Prim,
  type ShapeDrawing,
} from './vector';

export type PdfLayout = 'fit' | 'split' | 'documentPages';
export type PdfNotice = { code: 'missingGlyphs' } | { code: 'scaleLowered'; percent: number };

export interface PdfExportOptions extends VectorExportOptions {
  paper: PaperName;
  orientation: Orientation;
  layout: PdfLayout;
  /** 'missingGlyphs': some characters no font of the PDF can show were written as "?" */
  onNotice?: (notice: PdfNotice) => void;
  /** the bytes of a DejaVu font (default: fetched from its asset URL once per session) */
  loadFont?: FontLoader;
}

/** the pages of an export: where each shows which part of the board */
export function pdfPages(
  scene: ExportScene,
  region: Rect,
  opts: Pick<PdfExportOptions, 'paper' | 'orientation' | 'layout'>,
) {
  if (opts.layout === 'documentPages') {
    const pages = documentPlacements(scene, opts.paper);
    if (!pages.length) throw new ExportError('empty', 'the board holds no document pages');
    return pages;
  }
  if (!(width(region) > 0 && height(region) > 0)) throw new ExportError('empty', 'nothing to export');
  const page = pageSize(opts.paper, opts.orientation);
  if (opts.layout === 'fit') return [fitToPage(region, page)];
  return splitIntoPages(region, page, splitScale(region, page));
}

// characters the standard fonts' WinAnsi encoding has beyond Latin-1
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

/** text the standard fonts can show: other characters become "?" (reported once) */
export function latinText(s: string): { text: string; replaced: boolean } {
  let replaced = false;
  // eslint-disable-next-line no-control-regex
  const text = s.replace(/[\u0000-\u001f\u007f]/g, '').replace(/[^\u0000-\u00ff]/gu, (ch) => {
    if (WIN_ANSI_EXTRA.includes(ch)) return ch;
    replaced = true;
    return '?';
  });
  return { text, replaced };
}

/** the standard font closest to a board font */
export function standardFont(font: string): 'helvetica' | 'times' | 'courier' {
  if (/mono|courier|code|consol/i.test(font)) return 'courier';
  if (/serif/i.test(font) && !/sans/i.test(font)) return 'times';
  return 'helvetica';
}

const FAMILY = { helvetica: 'sans', times: 'serif', courier: 'mono' } as const;

/** the family (sans, serif, mono) of a board font, as standardFont sorts it */
export const fontFamily = (font: string): FontFamily => FAMILY[standardFont(font)];

/**
 * text for an embedded Unicode font: characters it has no glyph for become "?" (jsPDF would cut
 * the line at the first one), and so do those beyond the BMP (emoji: jsPDF writes UTF-16 units)
 */
export function unicodeText(s: string, has: (code: number) => boolean): { text: string; replaced: boolean } {
  let replaced = false;
  // eslint-disable-next-line no-control-regex
  const text = s.replace(/[\u0000-\u001f\u007f]/g, '').replace(/[^\u0000-\u007e]/gu, (ch) => {
    const code = ch.codePointAt(0)!;
    if (code <= 0xffff && has(code)) return ch;
    replaced = true;
    return '?';
  });
  return { text, replaced };
}

/** an embedded Unicode font: its jsPDF name and whether it has a glyph for a character */
interface UnicodeFont {
  name: string;
  has: (code: number) => boolean;
}

/** writes drawings onto a jsPDF document in "advanced" mode (y down, our own transforms) */
class PdfWriter {
  private fillColor = '';
  private strokeColor = '';
  private alpha = -1;
  private dash = '';
  private lineWidth = -1;
  private cap = '';
  private join = '';
  /** some character was written as "?" */
  missingGlyphs = false;
  /** the Unicode font of each family once one of its texts needed it (null: it failed to load) */
  private readonly unicode = new Map<FontFamily, UnicodeFont | null>();

  constructor(
    private readonly doc: JsPdf,
    private readonly gstate: (alpha: number) => unknown,
  ) {}

  /** graphics state is reset by a restore: forget what we set */
  forget(): void {
    this.fillColor = this.strokeColor = this.dash = this.cap = this.join = '';
    this.alpha = this.lineWidth = -1;
  }

  private setAlpha(a: number): void {
    if (a === this.alpha) return;
    this.alpha = a;
    this.doc.setGState(this.gstate(a) as never);
  }

  /** the path's operators, written as one piece (jsPDF's moveTo/lineTo per point cost 4× more) */
  path(d: PathData): void {
    this.write(pathToPdf(d).slice(0, -1));
  }

  /** the families whose Unicode font the drawing's text needs and that are not loaded (nor tried) yet */
  fontsToLoad(d: ShapeDrawing): FontFamily[] {
    if (this.unicode.size === 3) return [];
    const out = new Set<FontFamily>();
    const visit = (prims: readonly Prim[]): void => {
      for (const p of prims) {
        if (p.t === 'clip') visit(p.prims);
        else if (p.t === 'text') {
          const family = fontFamily(p.font);
          if (!this.unicode.has(family) && p.lines.some((l) => latinText(l).replaced)) out.add(family);
        }
      }
    };
    visit(d.prims);
    return [...out];
  }

  /** embeds the families' DejaVu fonts; one that fails to load leaves its text on the standard font */
  async loadFonts(families: readonly FontFamily[], load?: FontLoader): Promise<void> {
    for (const family of families) {
      const name = UNICODE_FONTS[family];
      try {
        const data = await unicodeFontData(name, load);
        if (this.unicode.has(family)) continue;
        const doc = this.doc;
        doc.addFileToVFS(`${name}.ttf`, data);
        doc.addFont(`${name}.ttf`, name, 'normal', 'Identity-H');
        const font = doc.getFont();
        doc.setFont(name, 'normal');
        const metadata = (doc.getFont() as { metadata: { characterToGlyph(code: number): number } }).metadata;
        doc.setFont(font.fontName, font.fontStyle);
        this.unicode.set(family, { name, has: (code) => metadata.characterToGlyph(code) !== 0 });
      } catch {
        this.unicode.set(family, null);
      }
    }
  }

  private write(ops: string): void {
    (this.doc.internal as unknown as { write(s: string): void }).write(ops);
  }

  prim(p: Prim, opacity: number): void {
    const doc = this.doc;
    switch (p.t) {
      case 'path': {
        if (p.d.length < 3) return;
        if (p.fill) {
          if (p.fill.color !== this.fillColor) doc.setFillColor((this.fillColor = p.fill.color));
          this.setAlpha(p.fill.alpha * opacity);
          this.path(p.d);
          doc.fill();
        }
        if (p.stroke) {
          const s = p.stroke;
          if (s.color !== this.strokeColor) doc.setDrawColor((this.strokeColor = s.color));
          this.setAlpha(s.alpha * opacity);
          if (s.width !== this.lineWidth) doc.setLineWidth((this.lineWidth = s.width));
          if (s.cap !== this.cap) doc.setLineCap((this.cap = s.cap));
          if (s.join !== this.join) doc.setLineJoin((this.join = s.join));
          const dash = s.dash ? s.dash.join(' ') : '';
          if (dash !== this.dash) {
            this.dash = dash;
            doc.setLineDashPattern(s.dash ?? [], 0);
          }
          this.path(p.d);
          doc.stroke();
        }
        return;
      }
      case 'text': {
        const lines = p.lines.filter((l) => l.trim());
        if (!lines.length) return;
        // the whole text in one font: DejaVu when some line needs it (and it loaded)
        const latin = p.lines.map(latinText);
        const unicode = latin.some((l) => l.replaced) ? this.unicode.get(fontFamily(p.font)) : undefined;
        doc.setFont(unicode ? unicode.name : standardFont(p.font), 'normal');
        doc.setFontSize(p.fontSize);
        doc.setTextColor(p.color);
        this.fillColor = ''; // text colour is the fill colour in PDF
        this.setAlpha(opacity);
        p.lines.forEach((line, i) => {
          if (!line.trim()) return;
          const { text, replaced } = unicode ? unicodeText(line, unicode.has) : latin[i]!;
          if (replaced) this.missingGlyphs = true;
          const x = p.align === 'center' ? p.x + (p.width - doc.getTextWidth(text)) / 2 : p.x;
          const y = p.top + p.lineHeight * (i + 0.5) + p.fontSize * BASELINE_SHIFT;
          doc.text(text, x, y);
        });
        return;
      }
      case 'image':
        this.setAlpha(opacity);
        doc.addImage(
          p.href,
          p.href.startsWith('data:image/jpeg') ? 'JPEG' : 'PNG',
          p.x,
          p.y,
          p.w,
          p.h,
          undefined,
          'FAST',
        );
        return;
      case 'svg':
        return; // drawn by drawingWithFragments
      case 'clip':
        doc.saveGraphicsState();
        this.path(rectD(p.x, p.y, p.w, p.h));
        doc.clip();
        doc.discardPath();
        for (const q of p.prims) this.prim(q, opacity);
        doc.restoreGraphicsState();
        this.forget();
    }
  }

  /** the page being written: its clip (page units) and world → page transform */
  private page: { clip: PathData; matrix: Matrix6 } | null = null;
  /** the rotation of the drawing being written (about its centre), if any */
  private rotation: Matrix6 | null = null;

  /** starts a page: jsPDF's "advanced" mode (y down), clipped to the page's part, world units */
  beginPage(clip: PathData, matrix: Matrix6): void {
    this.doc.advancedAPI();
    this.page = { clip, matrix };
    this.enterPage();
  }

  private enterPage(): void {
    const { clip, matrix } = this.page!;
    this.doc.saveGraphicsState();
    this.path(clip);
    this.doc.clip();
    this.doc.discardPath();
    this.doc.setCurrentTransformationMatrix(this.doc.Matrix(...matrix));
    this.forget();
  }

  endPage(): void {
    this.doc.restoreGraphicsState();
    this.doc.compatAPI();
    this.page = null;
  }

  private begin(d: ShapeDrawing): void {
    if (!d.rotation) return;
    const { angle, cx, cy } = d.rotation;
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    // rotate about (cx, cy): translate(c) · rotate · translate(−c)
    this.rotation = [c, s, -s, c, cx - c * cx + s * cy, cy - s * cx - c * cy];
    this.doc.saveGraphicsState();
    this.doc.setCurrentTransformationMatrix(this.doc.Matrix(...this.rotation));
  }

  private end(d: ShapeDrawing): void {
    if (!d.rotation) return;
    this.rotation = null;
    this.doc.restoreGraphicsState();
    this.forget();
  }

  drawing(d: ShapeDrawing): void {
    this.begin(d);
    for (const p of d.prims) this.prim(p, d.opacity);
    this.end(d);
  }

  /** a drawing with SVG fragments (formulas, graphs): svg2pdf.js draws them in place */
  async drawingWithFragments(d: ShapeDrawing): Promise<void> {
    this.begin(d);
    for (const p of d.prims) {
      if (p.t !== 'svg') this.prim(p, d.opacity);
      else await this.fragment(p);
    }
    this.end(d);
  }

  /**
   * svg2pdf.js expects jsPDF in its "compat" mode: it switches to "advanced" itself and, at its
   * end, back to "compat", whose restoreGraphicsState would pop OUR page state (its clip and world
   * transform, and the drawing's rotation) and leave every later object drawn in the wrong mode
   * and place (mirrored text, missing shapes). So the page's states are left and the mode switched
   * first; the fragment is drawn under the same transform written out for "compat" mode (jsPDF's
   * y flip F, the page's clip and transform P, the rotation R, then F⁻¹, which svg2pdf's own F
   * cancels); then the page's states are entered again.
   */
  private async fragment(f: Extract<Prim, { t: 'svg' }>): Promise<void> {
    const doc = this.doc;
    const page = this.page!;
    const rotation = this.rotation;
    if (rotation) doc.restoreGraphicsState();
    doc.restoreGraphicsState();
    doc.compatAPI();
    const k = doc.internal.scaleFactor;
    const h = doc.internal.pageSize.getHeight();
    doc.saveGraphicsState();
    doc.setCurrentTransformationMatrix(doc.Matrix(k, 0, 0, -k, 0, h * k));
    this.path(page.clip);
    doc.clip();
    doc.discardPath();
    doc.setCurrentTransformationMatrix(doc.Matrix(...page.matrix));
    if (rotation) doc.setCurrentTransformationMatrix(doc.Matrix(...rotation));
    doc.setCurrentTransformationMatrix(doc.Matrix(1 / k, 0, 0, -1 / k, 0, h));
    try {
      if (await drawFragment(doc, f)) this.missingGlyphs = true;
    } finally {
      doc.restoreGraphicsState();
      doc.advancedAPI();
      this.enterPage();
      if (rotation) {
        doc.saveGraphicsState();
        doc.setCurrentTransformationMatrix(doc.Matrix(...rotation));
      }
    }
  }
}

type Matrix6 = [number, number, number, number, number, number];

/**
 * Text of a formula's or graph's SVG as the PDF's standard fonts can show it (svg2pdf writes it
 * with them): the minus sign U+2212 (d3's negative tick labels) becomes the en dash, which
 * WinAnsi has and which is as long; other characters beyond it become "?". True when some were.
 */
export function fragmentTextForPdf(root: Element): boolean {
  let replaced = false;
  const walker = root.ownerDocument.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const before = n.nodeValue ?? '';
    if (!before) continue;
    const out = latinText(before.replace(/\u2212/g, '\u2013'));
    if (out.replaced) replaced = true;
    if (out.text !== before) n.nodeValue = out.text;
  }
  return replaced;
}

/**
 * An SVG fragment drawn by svg2pdf.js (loaded with the first formula or graph), with jsPDF in
 * "compat" mode. True when some of its text could not be shown (written as "?").
 */
async function drawFragment(
  doc: JsPdf,
  f: { svg: string; x: number; y: number; w: number; h: number },
): Promise<boolean> {
  if (typeof DOMParser === 'undefined') return false;
  const { svg2pdf } = await import('svg2pdf.js');
  const parsed = new DOMParser().parseFromString(placeFragment(f.svg, 0, 0, f.w, f.h), 'image/svg+xml');
  const root = parsed.documentElement;
  if (root.nodeName !== 'svg') return false; // a parse error: the box stays empty rather than failing the file
  const replaced = fragmentTextForPdf(root);
  await svg2pdf(root, doc, { x: f.x, y: f.y, width: f.w, height: f.h });
  return replaced;
}

/**
 * jsPDF deflates the pages inside output(), in one task at about 190 ms per MB of content: only
 * files whose content stays under this many bytes are compressed (most boards); bigger ones are
 * written uncompressed so the page never freezes (a 20,000-object board: ~11 MB instead of ~4).
 */
const COMPRESS_LIMIT = 800_000;

/** the page content the items will write, roughly (bytes): ~7 per point coordinate, ~120 per shape */
const contentEstimate = (items: readonly SceneItem[]): number =>
  items.reduce((n, it) => n + 120 + it.points.length * 7, 0);

/** the jsPDF format and orientation of a page size (jsPDF swaps sides by orientation) */
const formatOf = (p: PagePlacement) => ({
  format: [p.page.width, p.page.height] as [number, number],
  orientation: (p.page.width > p.page.height ? 'landscape' : 'portrait') as Orientation,
});

export async function exportPdf(scene: ExportScene, region: Rect, opts: PdfExportOptions): Promise<Blob> {
  const pages = pdfPages(scene, region, opts);
  const slicer = new Slicer(opts.signal);
  slicer.check();
  if (opts.layout === 'split') {
    const scale = pages[0]!.scale;
    if (scale < PT_PER_UNIT * 0.999)
      opts.onNotice?.({ code: 'scaleLowered', percent: Math.round((scale / PT_PER_UNIT) * 100) });
  }
  // document pages take their regions from the board, not from `region`
  const items =
    opts.layout === 'documentPages'
      ? scene.order().filter((it) => !opts.only || opts.only.has(it.shape.id))
      : exportItems(scene, region, opts.only);
  const { jsPDF } = await import('jspdf');
  await slicer.pause();
  const ctx = await vectorContext(items, opts, 'image/jpeg', slicer);
  const perPage = pages.map((p) => onPage(items, p));
  const first = formatOf(pages[0]!);
  const doc = new jsPDF({
    unit: 'pt',
    format: first.format,
    orientation: first.orientation,
    compress: perPage.reduce((n, shown) => n + contentEstimate(shown), 0) <= COMPRESS_LIMIT,
  });
  const gstates = new Map<number, unknown>();
  const gstate = (alpha: number) => {
    const a = Math.round(alpha * 1000) / 1000;
    let g = gstates.get(a);
    if (!g) gstates.set(a, (g = doc.GState({ opacity: a, 'stroke-opacity': a })));
    return g;
  };
  const writer = new PdfWriter(doc, gstate);
  const total = perPage.reduce((n, shown) => n + shown.length, 0) || 1;
  let done = 0;
  for (let n = 0; n < pages.length; n++) {
    const p = pages[n]!;
    if (n > 0) {
      const f = formatOf(p);
      doc.addPage(f.format, f.orientation);
    }
    const r = p.region;
    writer.beginPage(rectD(p.x, p.y, width(r) * p.scale, height(r) * p.scale), [
      p.scale,
      0,
      0,
      p.scale,
      p.x - p.scale * r.minX,
      p.y - p.scale * r.minY,
    ]);
    if (opts.background)
      for (const prim of backgroundPrims(opts.boardBackground, r, p.scale / PT_PER_UNIT)) writer.prim(prim, 1);
    const shown = perPage[n]!;
    for (let i = 0; i < shown.length; i++) {
      const drawing = shapeDrawing(shown[i]!, ctx);
      const families = writer.fontsToLoad(drawing);
      if (families.length) {
        await writer.loadFonts(families, opts.loadFont);
        slicer.check();
      }
      if (drawing.prims.some((q) => q.t === 'svg')) await writer.drawingWithFragments(drawing);
      else writer.drawing(drawing);
      if ((i & 15) === 15) {
        opts.onProgress?.((0.9 * (done + i)) / total);
        await slicer.tick();
      }
    }
    done += shown.length;
    writer.endPage();
    await slicer.tick();
  }
  if (writer.missingGlyphs) opts.onNotice?.({ code: 'missingGlyphs' });
  await slicer.pause();
  const blob = doc.output('blob');
  opts.onProgress?.(1);
  return blob;
}
