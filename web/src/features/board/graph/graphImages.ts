/**
 * Rendered graphs as images for the canvas, like canvas/imageCache.ts: per spec, size and theme
 * the SVG is rendered once (function-plot, one graph at a time so a board of graphs never
 * stalls a frame with parallel renders), then decoded as an image per zoom bucket so it stays
 * crisp when zoomed in. Whoever asked is told (`onReady`) when something settles, and redraws.
 * Nothing here imports function-plot: plot.ts is loaded with it on the first graph.
 */

export type GraphImageState = 'loading' | 'ready' | 'error';
export interface GraphImage {
  state: GraphImageState;
  /** the best image decoded so far (possibly of another zoom bucket while the right one loads) */
  image: HTMLImageElement | null;
  /** why it failed (state 'error') */
  message: string | null;
}

export type RenderSvg = (spec: string, w: number, h: number, opts: { dark: boolean }) => Promise<string>;
export type LoadImage = (url: string) => Promise<HTMLImageElement>;

/** the largest bitmap side we decode (memory per graph stays ≤ 64 MB) */
export const MAX_GRAPH_BITMAP = 4096;

interface Entry {
  state: GraphImageState;
  svg: string | null;
  message: string | null;
  /** decoded images by scale bucket; null while decoding, undefined = not asked */
  images: Map<number, HTMLImageElement | null>;
  waiters: Set<() => void>;
}

/** the power-of-two scale (≥ 1) for drawing w × h at `pixelsPerUnit`, within MAX_GRAPH_BITMAP */
export function scaleBucket(pixelsPerUnit: number, w: number, h: number): number {
  const wanted = Number.isFinite(pixelsPerUnit) && pixelsPerUnit > 1 ? 2 ** Math.ceil(Math.log2(pixelsPerUnit)) : 1;
  let bucket = Math.min(wanted, 8);
  while (bucket > 1 && Math.max(w, h) * bucket > MAX_GRAPH_BITMAP) bucket /= 2;
  return bucket;
}

/** the SVG drawn at `scale` × its size (same layout, more pixels) as a data URL */
export function svgDataUrl(svg: string, scale: number): string {
  const sized =
    scale === 1
      ? svg
      : svg.replace(/^<svg\b[^>]*>/, (open) =>
          open
            .replace(/\swidth="([\d.]+)"/, (_m, v: string) => ` width="${Number(v) * scale}"`)
            .replace(/\sheight="([\d.]+)"/, (_m, v: string) => ` height="${Number(v) * scale}"`),
        );
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(sized)}`;
}

export class GraphImageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly queue: { key: string; spec: string; w: number; h: number; dark: boolean }[] = [];
  private busy = false;
  /** the last image decoded per spec and theme: drawn stretched while another size renders (resize) */
  private readonly latest = new Map<string, HTMLImageElement>();

  constructor(
    private readonly render: RenderSvg = defaultRender,
    private readonly load: LoadImage = defaultLoad,
    private readonly maxEntries = 64,
  ) {}

  /**
   * The graph of `spec` in a w × h box (world units), for drawing at `pixelsPerUnit` device
   * pixels per unit. Queued on first ask; `onReady` runs once when something new can be drawn.
   */
  get(spec: string, w: number, h: number, dark: boolean, pixelsPerUnit: number, onReady?: () => void): GraphImage {
    const rw = Math.round(w);
    const rh = Math.round(h);
    const key = `${rw}x${rh}|${dark ? 'd' : 'l'}|${spec}`;
    let e = this.entries.get(key);
    if (e) {
      // recently used go to the end (eviction takes the oldest)
      this.entries.delete(key);
      this.entries.set(key, e);
    } else {
      e = { state: 'loading', svg: null, message: null, images: new Map(), waiters: new Set() };
      this.entries.set(key, e);
      // a live resize asks for every size on the way: only the newest waiting one is worth rendering
      for (let i = this.queue.length - 1; i >= 0; i--) {
        const old = this.queue[i]!;
        if (old.spec === spec && old.dark === dark) {
          this.queue.splice(i, 1);
          this.entries.delete(old.key);
        }
      }
      this.queue.push({ key, spec, w: rw, h: rh, dark });
      this.evict();
      this.pump();
    }
    if (e.state === 'error') return { state: 'error', image: null, message: e.message };
    const bucket = scaleBucket(pixelsPerUnit, rw, rh);
    if (e.svg !== null && !e.images.has(bucket)) this.decode(e, bucket, `${dark ? 'd' : 'l'}|${spec}`);
    const exact = e.images.get(bucket);
    const image = exact ?? this.best(e, bucket);
    if (onReady && !exact) e.waiters.add(onReady);
    if (image) return { state: 'ready', image, message: null };
    return { state: 'loading', image: this.latest.get(`${dark ? 'd' : 'l'}|${spec}`) ?? null, message: null };
  }

  /** graphs waiting for a render (tests, diagnostics) */
  get pending(): number {
    return this.queue.length + (this.busy ? 1 : 0);
  }

  private best(e: Entry, bucket: number): HTMLImageElement | null {
    let found: HTMLImageElement | null = null;
    let distance = Infinity;
    for (const [b, img] of e.images)
      if (img && Math.abs(Math.log2(b / bucket)) < distance) {
        found = img;
        distance = Math.abs(Math.log2(b / bucket));
      }
    return found;
  }

  private notify(e: Entry): void {
    const waiters = [...e.waiters];
    e.waiters.clear();
    for (const w of waiters) w();
  }

  private decode(e: Entry, bucket: number, specKey: string): void {
    e.images.set(bucket, null);
    this.load(svgDataUrl(e.svg!, bucket)).then(
      (img) => {
        e.images.set(bucket, img);
        this.latest.delete(specKey); // re-inserted last: the map stays small, oldest first
        this.latest.set(specKey, img);
        if (this.latest.size > this.maxEntries) this.latest.delete(this.latest.keys().next().value!);
        this.notify(e);
      },
      () => {
        // an SVG the browser cannot decode will not decode at another size either
        e.state = 'error';
        e.message = 'The graph could not be drawn.';
        this.notify(e);
      },
    );
  }

  private evict(): void {
    if (this.entries.size <= this.maxEntries) return;
    for (const [key, e] of this.entries) {
      if (this.entries.size <= this.maxEntries) break;
      if (e.state !== 'loading') this.entries.delete(key);
    }
  }

  private pump(): void {
    if (this.busy) return;
    const job = this.queue.shift();
    if (!job) return;
    const e = this.entries.get(job.key);
    if (!e) {
      this.pump();
      return;
    }
    this.busy = true;
    const settle = (svg: string | null, message: string | null) => {
      this.busy = false;
      if (svg === null) {
        e.state = 'error';
        e.message = message;
      } else {
        e.state = 'ready';
        e.svg = svg;
      }
      // the waiters ask again and start decoding at their zoom
      this.notify(e);
      this.pump();
    };
    let rendering: Promise<string>;
    try {
      rendering = this.render(job.spec, job.w, job.h, { dark: job.dark });
    } catch (err) {
      rendering = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    rendering.then(
      (svg) => settle(svg, null),
      (err: unknown) => settle(null, loadFailure(err)),
    );
  }
}

function loadFailure(err: unknown): string {
  // a failed dynamic import (offline, new deployment) reads differently from a drawing failure
  const text = err instanceof Error ? err.message : String(err);
  return /import|fetch|module/i.test(text) ? 'The graph tool could not be loaded.' : 'The graph could not be drawn.';
}

const defaultRender: RenderSvg = async (spec, w, h, opts) => (await import('./plot')).graphSvg(spec, w, h, opts);

async function defaultLoad(url: string): Promise<HTMLImageElement> {
  const img = new Image();
  img.decoding = 'async';
  img.src = url;
  await img.decode();
  return img;
}

/** the board's shared cache */
export const graphImages = new GraphImageCache();
