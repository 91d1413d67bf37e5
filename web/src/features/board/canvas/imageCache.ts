/**
 * Board images and document pages, decoded one at a time (realtime spec: image decode queue
 * concurrency 1) so a board full of pictures never stalls a frame with parallel decodes. A URL
 * is loading, ready or failed; whoever asked is told (onAsset) when it settles, and redraws.
 */

export type AssetState = 'loading' | 'ready' | 'error';
export interface Asset {
  state: AssetState;
  image: HTMLImageElement | null;
}

export const imageUrl = (fileId: string): string => `/images/${encodeURIComponent(fileId)}-full.webp`;
export const documentPageUrl = (fileId: string, page: number): string =>
  `/docs/${encodeURIComponent(fileId)}-${page}-full.webp`;

interface Entry extends Asset {
  waiters: Set<() => void>;
}

export class ImageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly queue: string[] = [];
  private busy = false;

  constructor(
    private readonly load: (url: string) => Promise<HTMLImageElement> = defaultLoad,
    private readonly maxEntries = 512,
  ) {}

  /** the asset for `url`; queued on first ask, `onSettled` runs once when it is ready or failed */
  get(url: string, onSettled?: () => void): Asset {
    let e = this.entries.get(url);
    if (!e) {
      e = { state: 'loading', image: null, waiters: new Set() };
      this.entries.set(url, e);
      this.queue.push(url);
      this.evict();
      this.pump();
    }
    if (e.state === 'loading' && onSettled) e.waiters.add(onSettled);
    return e;
  }

  /** how many URLs wait for the decoder (tests, diagnostics) */
  get pending(): number {
    return this.queue.length + (this.busy ? 1 : 0);
  }

  private evict(): void {
    // drop the oldest settled images; loading ones are still wanted
    if (this.entries.size <= this.maxEntries) return;
    for (const [url, e] of this.entries) {
      if (this.entries.size <= this.maxEntries) break;
      if (e.state !== 'loading') this.entries.delete(url);
    }
  }

  private pump(): void {
    if (this.busy) return;
    const url = this.queue.shift();
    if (url === undefined) return;
    const e = this.entries.get(url);
    if (!e) {
      this.pump();
      return;
    }
    this.busy = true;
    const settle = (image: HTMLImageElement | null) => {
      e.state = image ? 'ready' : 'error';
      e.image = image;
      this.busy = false;
      const waiters = [...e.waiters];
      e.waiters.clear();
      for (const w of waiters) w();
      this.pump();
    };
    this.load(url).then(settle, () => settle(null));
  }
}

async function defaultLoad(url: string): Promise<HTMLImageElement> {
  const img = new Image();
  img.decoding = 'async';
  img.src = url;
  await img.decode();
  return img;
}

/** the board's shared cache */
export const imageCache = new ImageCache();
