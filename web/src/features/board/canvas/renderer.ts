/**
 * Plain Canvas2D renderer with a scene cache (see web/README.md for why not fabric.js): two
 * stacked canvases. The scene canvas holds the background and the committed shapes and is
 * redrawn only when the scene, the paint context or the camera changed: culled through the
 * scene's R-tree, each shape's Path2D cached on its item, tiny shapes and text drawn at a lower
 * level of detail (painters.ts). When the camera only moved by whole device pixels, the previous
 * bitmap is shifted and only the exposed strips are painted. The overlay canvas holds what moves
 * at pointer rate — the local tool's preview, other people's strokes in progress, selections —
 * and is cheap to redraw every frame.
 */
import { SHAPE_KINDS } from '@wb/proto';
import type { Camera, Rect } from './camera';
import { visibleRect } from './camera';
import { drawBackground, type Region } from './background';
import { paintItem } from './painters';
import { utilOf } from './shapes/registry';
import type { Scene } from './scene';
import { DEFAULT_PAINT_CONTEXT, type PaintContext } from './theme';

export type OverlayPainter = (g: CanvasRenderingContext2D, camera: Camera, view: Rect) => void;

export interface RenderStats {
  /** shapes drawn in the last scene pass */
  drawn: number;
  /** duration of the last scene pass (ms) */
  sceneMs: number;
  scenePasses: number;
  /** scene passes that shifted the previous bitmap and painted only the exposed strips */
  blitPasses: number;
  /** scene passes composed from cached tiles (zoomed out) */
  tiledPasses: number;
  /** tiles painted in the last tiled pass */
  tilesPainted: number;
}

/** a shift counts as whole device pixels within this much (floating point of pans) */
const WHOLE_PX = 1e-3;
/** below this zoom (device px per world unit) shapes come from tiles */
export const TILE_BELOW_ZOOM = 0.75;
/** tile edge in device pixels */
const TILE = 256;
/** cached tiles at most (256 KB each) */
const MAX_TILES = 256;
/**
 * Painting new tiles stops after this long in one frame (a zoom gesture entering a new level
 * would otherwise stall on dozens of tiles); the rest show a cached neighbour level scaled and
 * are painted in the following frames. 6 ms, not more: one tile can take 5–10 ms more on a dense
 * board, and a pan reveals a whole column of them at once (10 ms let such frames reach ~20 ms).
 */
const TILE_BUDGET_MS = 6;

interface Tile {
  /** null: nothing in it */
  canvas: HTMLCanvasElement | null;
}

/**
 * Bitmaps of the shapes in TILE × TILE device-pixel squares at power-of-two zoom levels, least
 * recently used first out. Tiles hold shapes only (transparent), the background is painted under.
 */
class TileCache {
  private readonly tiles = new Map<string, Tile>();
  private readonly pool: HTMLCanvasElement[] = [];
  /** tiles painted in the last frame (stats) */
  painted = 0;

  constructor(private readonly create: () => HTMLCanvasElement | null) {}

  clear(): void {
    for (const t of this.tiles.values()) if (t.canvas) this.pool.push(t.canvas);
    this.tiles.clear();
  }

  /** drop the tiles (of every level) that overlap a changed world rectangle */
  invalidate(rects: readonly Rect[]): void {
    if (rects.length === 0 || this.tiles.size === 0) return;
    for (const [key, t] of this.tiles) {
      const [l, i, j] = key.split(':').map(Number) as [number, number, number];
      const span = TILE / 2 ** l;
      const tr = { minX: i * span, minY: j * span, maxX: (i + 1) * span, maxY: (j + 1) * span };
      for (const r of rects)
        if (r.minX <= tr.maxX && r.maxX >= tr.minX && r.minY <= tr.maxY && r.maxY >= tr.minY) {
          if (t.canvas) this.pool.push(t.canvas);
          this.tiles.delete(key);
          break;
        }
    }
  }

  /** a cached tile, without painting one */
  peek(level: number, i: number, j: number): Tile | undefined {
    return this.tiles.get(`${level}:${i}:${j}`);
  }

  get(
    level: number,
    i: number,
    j: number,
    paint: ((g: CanvasRenderingContext2D, world: Rect, zoom: number) => number) | null,
  ): Tile | undefined {
    const key = `${level}:${i}:${j}`;
    let t = this.tiles.get(key);
    if (t) {
      // most recently used last
      this.tiles.delete(key);
      this.tiles.set(key, t);
      return t;
    }
    if (!paint) return undefined;
    const zoom = 2 ** level;
    const span = TILE / zoom;
    const world = { minX: i * span, minY: j * span, maxX: (i + 1) * span, maxY: (j + 1) * span };
    const canvas = this.pool.pop() ?? this.create();
    t = { canvas: null };
    const g = canvas?.getContext('2d');
    if (canvas && g) {
      if (canvas.width !== TILE || canvas.height !== TILE) {
        canvas.width = TILE;
        canvas.height = TILE;
      }
      g.setTransform(1, 0, 0, 1, 0, 0);
      g.clearRect(0, 0, TILE, TILE);
      g.setTransform(zoom, 0, 0, zoom, -i * TILE, -j * TILE);
      const n = paint(g, world, zoom);
      this.painted++;
      if (n > 0) t.canvas = canvas;
      else this.pool.push(canvas);
    }
    this.tiles.set(key, t);
    while (this.tiles.size > MAX_TILES) {
      const [oldest, old] = this.tiles.entries().next().value as [string, Tile];
      if (old.canvas) this.pool.push(old.canvas);
      this.tiles.delete(oldest);
    }
    return t;
  }
}

export class CanvasRenderer {
  camera: Camera = { x: 0, y: 0, zoom: 1 };
  private width = 1;
  private height = 1;
  private dpr = 1;
  private drawnVersion = -1;
  private drawnCamera: Camera | null = null;
  /** the whole scene canvas must be repainted (paint context, asset loaded, resize) */
  private fullDirty = true;
  private overlayDirty = true;
  private raf = 0;
  private spare: HTMLCanvasElement | null = null;
  private ctx: PaintContext;
  private readonly painted = new Set<(full: boolean) => void>();
  readonly stats: RenderStats = {
    drawn: 0,
    sceneMs: 0,
    scenePasses: 0,
    blitPasses: 0,
    tiledPasses: 0,
    tilesPainted: 0,
  };
  private readonly tiles = new TileCache(() => this.newCanvas());
  /** the scene version whose paint caches are being warmed, and the idle callback doing it */
  private warmedVersion = -1;
  private warmHandle: number | null = null;

  constructor(
    private readonly scene: Scene,
    private readonly sceneCanvas: HTMLCanvasElement,
    private readonly overlayCanvas: HTMLCanvasElement,
    private readonly overlay: OverlayPainter,
    private readonly requestFrame: (fn: () => void) => number = (fn) => requestAnimationFrame(fn),
    private readonly cancelFrame: (id: number) => void = (id) => cancelAnimationFrame(id),
  ) {
    this.ctx = { ...DEFAULT_PAINT_CONTEXT, onAsset: this.assetLoaded };
  }

  private assetLoaded = (): void => {
    this.tiles.clear();
    this.fullDirty = true;
    this.invalidate();
  };

  resize(width: number, height: number, dpr: number): void {
    this.width = Math.max(1, width);
    this.height = Math.max(1, height);
    this.dpr = dpr;
    for (const c of [this.sceneCanvas, this.overlayCanvas]) {
      c.width = Math.round(this.width * dpr);
      c.height = Math.round(this.height * dpr);
      c.style.width = `${this.width}px`;
      c.style.height = `${this.height}px`;
    }
    this.drawnCamera = null;
    this.fullDirty = true;
    this.invalidate();
  }

  get size(): { width: number; height: number } {
    return { width: this.width, height: this.height };
  }

  setCamera(c: Camera): void {
    this.camera = c;
    this.invalidate();
  }

  /**
   * The camera as drawn: at whole device pixels, so a pan always moves the last frame by whole
   * pixels and is a blit plus the exposed strips, not a full repaint (at most half a device pixel
   * from `camera`, which stays exact: small pans add up).
   */
  private get drawing(): Camera {
    const c = this.camera;
    const k = c.zoom * this.dpr;
    return { zoom: c.zoom, x: Math.round(c.x * k) / k, y: Math.round(c.y * k) / k };
  }

  /** theme and background (and anything else painters read): repaints everything */
  setPaintContext(patch: Partial<Omit<PaintContext, 'zoom' | 'onAsset'>>): void {
    this.ctx = { ...this.ctx, ...patch };
    this.tiles.clear();
    this.fullDirty = true;
    this.invalidate();
  }

  /** what painters get now (tools draw previews with it) */
  paintContext(): PaintContext {
    return { ...this.ctx, zoom: this.camera.zoom };
  }

  /** called after every scene pass (full: the whole canvas was painted, nothing left for later); returns an unsubscribe */
  onPainted(fn: (full: boolean) => void): () => void {
    this.painted.add(fn);
    return () => this.painted.delete(fn);
  }

  /** something changed: draw on the next animation frame */
  invalidate(): void {
    this.overlayDirty = true;
    if (!this.raf) this.raf = this.requestFrame(this.frame);
  }

  private frame = (): void => {
    this.raf = 0;
    this.draw();
  };

  /** draw now (also used by benchmarks) */
  draw(): void {
    const c = this.drawing;
    const d = this.drawnCamera;
    const cameraMoved = !d || d.x !== c.x || d.y !== c.y || d.zoom !== c.zoom;
    const view = visibleRect(c, this.width, this.height);
    if (this.fullDirty || cameraMoved || this.drawnVersion !== this.scene.version) {
      const t0 = performance.now();
      const changes = this.scene.takeChanges();
      if (changes === 'all') this.tiles.clear();
      else this.tiles.invalidate(changes);
      const tiled = this.useTiles();
      const dirty = this.fullDirty;
      // cleared first: a pass that could not finish (tiles over budget) sets it again
      this.fullDirty = false;
      const shift = dirty || this.drawnVersion !== this.scene.version ? null : this.wholePixelShift(d, c);
      let full = !(shift && this.blit(shift.dx, shift.dy, tiled));
      if (full) {
        if (tiled) this.paintTiled(null);
        else this.paintRegion(null);
      } else this.stats.blitPasses++;
      // not complete while tiles are still to come
      if (this.fullDirty) full = false;
      if (tiled) this.stats.tiledPasses++;
      this.drawnVersion = this.scene.version;
      this.drawnCamera = c;
      this.stats.sceneMs = performance.now() - t0;
      this.stats.scenePasses++;
      for (const fn of this.painted) fn(full);
      if (full && this.warmedVersion !== this.scene.version) this.warmUp();
    }
    if (this.overlayDirty) {
      this.overlayDirty = false;
      const g = this.overlayCanvas.getContext('2d')!;
      g.setTransform(1, 0, 0, 1, 0, 0);
      g.clearRect(0, 0, this.overlayCanvas.width, this.overlayCanvas.height);
      this.worldTransform(g);
      this.overlay(g, c, view);
    }
  }

  private newCanvas(): HTMLCanvasElement | null {
    const doc = this.sceneCanvas.ownerDocument ?? (typeof document === 'undefined' ? null : document);
    return doc ? doc.createElement('canvas') : null;
  }

  /**
   * Tiles are for zoomed-out views of the committed scene: live previews (drag offsets, resize
   * overrides, a shape hidden while its text is edited) are drawn directly so tiles stay valid.
   */
  private useTiles(): boolean {
    const s = this.scene;
    return (
      this.camera.zoom * this.dpr < TILE_BELOW_ZOOM &&
      s.offsets.size === 0 &&
      s.overrides.size === 0 &&
      s.hidden.size === 0 &&
      s.size > 0
    );
  }

  /**
   * Start painting a device-pixel region (null: the whole canvas): save the context, clip to the
   * region, clear it and draw the background there (CSS-pixel transform). The caller paints the
   * shapes and restores the context. `r` is the region in device pixels, `css` in CSS pixels.
   */
  private beginRegion(region: Region | null): { g: CanvasRenderingContext2D; r: Region; css: Region } {
    const g = this.sceneCanvas.getContext('2d')!;
    const W = this.sceneCanvas.width;
    const H = this.sceneCanvas.height;
    const r = region ?? { x: 0, y: 0, w: W, h: H };
    g.save();
    g.setTransform(1, 0, 0, 1, 0, 0);
    if (region) {
      g.beginPath();
      g.rect(r.x, r.y, r.w, r.h);
      g.clip();
    }
    g.clearRect(r.x, r.y, r.w, r.h);
    g.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    const css = { x: r.x / this.dpr, y: r.y / this.dpr, w: r.w / this.dpr, h: r.h / this.dpr };
    drawBackground(g, this.ctx.background, this.ctx.theme, this.drawing, this.width, this.height, css);
    return { g, r, css };
  }

  /**
   * Background, then the shapes from tiles at the next power-of-two zoom, drawn scaled, into a
   * device-pixel region (null: the whole canvas). Only the part of a tile inside the region is
   * drawn: scaling is what costs (software rasterising), so strips after a pan stay cheap.
   */
  private paintTiled(region: Region | null, add = false): void {
    const { g, r } = this.beginRegion(region);
    const c = this.drawing;
    g.setTransform(1, 0, 0, 1, 0, 0);
    const k = c.zoom * this.dpr;
    const level = Math.ceil(Math.log2(k));
    const z = 2 ** level;
    const span = TILE / z;
    const i0 = Math.floor((c.x + r.x / k) / span);
    const i1 = Math.floor((c.x + (r.x + r.w) / k) / span);
    const j0 = Math.floor((c.y + r.y / k) / span);
    const j1 = Math.floor((c.y + (r.y + r.h) / k) / span);
    const ctx: PaintContext = { ...this.ctx, zoom: z / this.dpr };
    let drawn = 0;
    const paint = (tg: CanvasRenderingContext2D, world: Rect): number => {
      const items = this.scene.visible(world);
      for (const it of items) paintItem(tg, it, ctx);
      drawn += items.length;
      return items.length;
    };
    if (!add) this.tiles.painted = 0;
    g.imageSmoothingEnabled = true;
    const started = performance.now();
    /** draw tile (l, ti, tj) where it lies on screen, only the part inside the region */
    const put = (canvas: HTMLCanvasElement, l: number, ti: number, tj: number) => {
      const sp = TILE / 2 ** l;
      // whole device pixels at both edges: neighbouring tiles meet without seams
      const x0 = Math.round((ti * sp - c.x) * k);
      const y0 = Math.round((tj * sp - c.y) * k);
      const x1 = Math.round(((ti + 1) * sp - c.x) * k);
      const y1 = Math.round(((tj + 1) * sp - c.y) * k);
      const ix0 = Math.max(x0, r.x);
      const iy0 = Math.max(y0, r.y);
      const ix1 = Math.min(x1, r.x + r.w);
      const iy1 = Math.min(y1, r.y + r.h);
      if (ix1 <= ix0 || iy1 <= iy0) return;
      const sx = TILE / (x1 - x0);
      const sy = TILE / (y1 - y0);
      g.drawImage(
        canvas,
        (ix0 - x0) * sx,
        (iy0 - y0) * sy,
        (ix1 - ix0) * sx,
        (iy1 - iy0) * sy,
        ix0,
        iy0,
        ix1 - ix0,
        iy1 - iy0,
      );
    };
    let missing = false;
    for (let j = j0; j <= j1; j++)
      for (let i = i0; i <= i1; i++) {
        const t = this.tiles.get(level, i, j, performance.now() - started < TILE_BUDGET_MS ? paint : null);
        if (t) {
          if (t.canvas) put(t.canvas, level, i, j);
          continue;
        }
        missing = true;
        // for now: the coarser level's tile (scaled up), else the finer level's four
        const coarse = this.tiles.peek(level - 1, Math.floor(i / 2), Math.floor(j / 2));
        if (coarse) {
          if (coarse.canvas) put(coarse.canvas, level - 1, Math.floor(i / 2), Math.floor(j / 2));
          continue;
        }
        for (let fj = 2 * j; fj <= 2 * j + 1; fj++)
          for (let fi = 2 * i; fi <= 2 * i + 1; fi++) {
            const fine = this.tiles.peek(level + 1, fi, fj);
            if (fine?.canvas) put(fine.canvas, level + 1, fi, fj);
          }
      }
    g.restore();
    if (missing) {
      // finish the missing tiles in the next frames
      this.fullDirty = true;
      this.invalidate();
    }
    this.stats.drawn = add ? this.stats.drawn + drawn : drawn;
    this.stats.tilesPainted = this.tiles.painted;
  }

  /** the device-pixel shift from the drawn camera to `c`, when it is a pure whole-pixel pan */
  private wholePixelShift(d: Camera | null, c: Camera): { dx: number; dy: number } | null {
    if (!d || d.zoom !== c.zoom) return null;
    const k = c.zoom * this.dpr;
    const dx = (d.x - c.x) * k;
    const dy = (d.y - c.y) * k;
    const rx = Math.round(dx);
    const ry = Math.round(dy);
    if (Math.abs(dx - rx) > WHOLE_PX || Math.abs(dy - ry) > WHOLE_PX) return null;
    return { dx: rx, dy: ry };
  }

  /** shift the previous bitmap by whole device pixels and paint the exposed strips; false: paint all */
  private blit(dx: number, dy: number, tiled: boolean): boolean {
    const W = this.sceneCanvas.width;
    const H = this.sceneCanvas.height;
    if (Math.abs(dx) >= W || Math.abs(dy) >= H) return false;
    if (!this.spare) this.spare = this.newCanvas();
    const spare = this.spare;
    if (!spare) return false;
    if (spare.width !== W || spare.height !== H) {
      spare.width = W;
      spare.height = H;
    }
    const sg = spare.getContext('2d');
    const g = this.sceneCanvas.getContext('2d');
    if (!sg || !g) return false;
    sg.setTransform(1, 0, 0, 1, 0, 0);
    sg.clearRect(0, 0, W, H);
    sg.drawImage(this.sceneCanvas, 0, 0);
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, W, H);
    g.drawImage(spare, dx, dy);
    // exposed strips in device pixels: a vertical one for dx, a horizontal one for dy
    this.stats.drawn = 0;
    this.tiles.painted = 0;
    const strip = (r: Region) => (tiled ? this.paintTiled(r, true) : this.paintRegion(r, true));
    if (dx !== 0) strip(dx > 0 ? { x: 0, y: 0, w: dx, h: H } : { x: W + dx, y: 0, w: -dx, h: H });
    if (dy !== 0) strip(dy > 0 ? { x: 0, y: 0, w: W, h: dy } : { x: 0, y: H + dy, w: W, h: -dy });
    return true;
  }

  /** paint background and shapes into a device-pixel region (null: the whole canvas) */
  private paintRegion(region: Region | null, add = false): void {
    const { g, css } = this.beginRegion(region);
    const c = this.drawing;
    this.worldTransform(g);
    const world: Rect = {
      minX: c.x + css.x / c.zoom,
      minY: c.y + css.y / c.zoom,
      maxX: c.x + (css.x + css.w) / c.zoom,
      maxY: c.y + (css.y + css.h) / c.zoom,
    };
    const ctx: PaintContext = { ...this.ctx, zoom: c.zoom };
    let drawn = 0;
    const { scene } = this;
    const moved = scene.offsets.size > 0 || scene.overrides.size > 0;
    for (const it of scene.visible(world)) {
      if (!moved) paintItem(g, it, ctx);
      else {
        const o = scene.offsets.get(it.shape.id);
        const item = scene.drawn(it);
        if (o) {
          g.save();
          g.translate(o.x, o.y);
          paintItem(g, item, ctx);
          g.restore();
        } else paintItem(g, item, ctx);
      }
      drawn++;
    }
    g.restore();
    this.stats.drawn = add ? this.stats.drawn + drawn : drawn;
  }

  private worldTransform(g: CanvasRenderingContext2D): void {
    const c = this.drawing;
    const k = c.zoom * this.dpr;
    g.setTransform(k, 0, 0, k, -c.x * k, -c.y * k);
  }

  /**
   * Paint caches (stroke outlines, fitted font sizes, text layouts) of the items not drawn yet,
   * made in idle time after a new scene was first painted: panning into a new part of a big board
   * then draws them instead of first computing them (the slowest pan frames did). Each item is
   * painted at zoom 1 into a 1×1 scratch canvas, a few milliseconds per idle slice.
   */
  private warmUp(): void {
    this.warmedVersion = this.scene.version;
    if (this.warmHandle !== null) cancelIdle(this.warmHandle);
    const scratch = this.newCanvas()?.getContext('2d');
    if (!scratch) return;
    const version = this.scene.version;
    const items = this.scene.order();
    const ctx = { ...this.ctx, zoom: 1 };
    let i = 0;
    const slice = (deadline: { timeRemaining(): number }) => {
      this.warmHandle = null;
      if (this.scene.version !== version) return; // a newer scene warms itself
      if (i === 0) this.scene.buildIndex(); // the R-tree first: hit tests and marquees need it
      while (i < items.length && deadline.timeRemaining() > 1) {
        const it = items[i++]!;
        if (it.paint === undefined && it.path === undefined && WARMED_KINDS.has(it.shape.kind))
          paintItem(scratch, it, ctx);
      }
      if (i < items.length) this.warmHandle = whenIdle(slice);
    };
    this.warmHandle = whenIdle(slice);
  }

  destroy(): void {
    if (this.warmHandle !== null) cancelIdle(this.warmHandle);
    this.warmHandle = null;
    if (this.raf) this.cancelFrame(this.raf);
    this.raf = 0;
    this.painted.clear();
    this.tiles.clear();
  }
}

/**
 * kinds whose caches are computed from the record alone: images, document pages (ShapeUtil.assetUrl),
 * formulas and graphs (ShapeUtil.typeset) would start downloads or typesetting for the whole
 * board, so they wait to be seen
 */
const WARMED_KINDS = new Set<string>(
  SHAPE_KINDS.filter((k) => {
    const util = utilOf(k);
    return !util.assetUrl && !util.typeset;
  }),
);

/** requestIdleCallback where there is one (not in jsdom or Safari): else 8 ms slices */
function whenIdle(fn: (deadline: { timeRemaining(): number }) => void): number {
  if (typeof requestIdleCallback === 'function') return requestIdleCallback(fn, { timeout: 1000 });
  return setTimeout(() => {
    const end = performance.now() + 8;
    fn({ timeRemaining: () => end - performance.now() });
  }, 16) as unknown as number;
}
function cancelIdle(handle: number): void {
  if (typeof cancelIdleCallback === 'function') cancelIdleCallback(handle);
  else clearTimeout(handle);
}
