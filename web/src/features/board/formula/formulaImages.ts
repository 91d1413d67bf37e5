/**
 * Typeset formulas as images the canvas can draw. An SVG <img> (from a data: URL, which the
 * board's CSP allows) stays a vector for drawImage: Chromium draws it sharp at any zoom (checked
 * at 8×: edges as crisp as a path, where a bitmap scaled up blurs), so one image per formula and
 * ink colour serves every zoom level.
 *
 * Like canvas/imageCache.ts: an entry is loading, ready or failed; whoever asked is told once it
 * settles (onReady) and redraws. The first formula also loads MathJax (renderFormula does).
 */
import { renderFormula, type FormulaRenderOptions, type RenderedFormula } from './mathjax';

export type FormulaImageState = 'loading' | 'ready' | 'error';

export interface FormulaImage {
  state: FormulaImageState;
  /** the typeset formula (ready), else null */
  image: HTMLImageElement | null;
  /** world units at the requested font size (ready) */
  width: number;
  height: number;
  /** TeX error or refusal (error) */
  error?: string;
}

interface Entry extends FormulaImage {
  waiters: Set<() => void>;
}

export type RenderFn = (latex: string, opts: FormulaRenderOptions) => Promise<RenderedFormula>;
export type LoadSvgFn = (svg: string) => Promise<HTMLImageElement>;

export class FormulaImageCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly render: RenderFn = renderFormula,
    private readonly load: LoadSvgFn = loadSvgImage,
    private readonly maxEntries = 256,
  ) {}

  /** the image of `latex` in this style; typeset on first ask, `onReady` runs once when it settles */
  get(latex: string, opts: FormulaRenderOptions, onReady?: () => void): FormulaImage {
    const key = `${opts.fontSize}\u0000${opts.color}\u0000${opts.alignment}\u0000${latex}`;
    let e = this.entries.get(key);
    if (!e) {
      e = { state: 'loading', image: null, width: 0, height: 0, waiters: new Set() };
      this.entries.set(key, e);
      this.evict();
      void this.start(e, latex, opts);
    }
    if (e.state === 'loading' && onReady) e.waiters.add(onReady);
    return e;
  }

  private async start(e: Entry, latex: string, opts: FormulaRenderOptions): Promise<void> {
    try {
      const out = await this.render(latex, opts);
      e.width = out.width;
      e.height = out.height;
      if (out.error !== undefined || !out.svg) {
        e.state = 'error';
        e.error = out.error ?? 'empty formula';
      } else {
        e.image = await this.load(out.svg);
        e.state = 'ready';
      }
    } catch (err) {
      e.state = 'error';
      e.error = err instanceof Error ? err.message : String(err);
    }
    const waiters = [...e.waiters];
    e.waiters.clear();
    for (const w of waiters) w();
  }

  private evict(): void {
    // drop the oldest settled images; loading ones are still wanted
    if (this.entries.size <= this.maxEntries) return;
    for (const [key, e] of this.entries) {
      if (this.entries.size <= this.maxEntries) break;
      if (e.state !== 'loading') this.entries.delete(key);
    }
  }
}

/** SVG markup → a decoded image */
export async function loadSvgImage(svg: string): Promise<HTMLImageElement> {
  const img = new Image();
  img.decoding = 'async';
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await img.decode();
  return img;
}

/** the board's shared cache */
export const formulaImages = new FormulaImageCache();
