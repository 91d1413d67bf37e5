/**
 * Plain Canvas2D renderer with a scene cache (see web/README.md for why not fabric.js): two
 * stacked canvases. The scene canvas holds the committed shapes and is redrawn only when the
 * scene or the camera changed (culled to the visible rectangle, each shape's Path2D cached on
 * its item). The overlay canvas holds what moves at pointer rate — the local tool's preview,
 * other people's strokes in progress, selections — and is cheap to redraw every frame.
 */
import type { Camera, Rect } from './camera';
import { visibleRect } from './camera';
import { paintItem } from './painters';
import type { Scene } from './scene';

export type OverlayPainter = (g: CanvasRenderingContext2D, camera: Camera, view: Rect) => void;

export interface RenderStats {
  /** shapes drawn in the last scene pass */
  drawn: number;
  /** duration of the last scene pass (ms) */
  sceneMs: number;
  scenePasses: number;
}

export class CanvasRenderer {
  camera: Camera = { x: 0, y: 0, zoom: 1 };
  private width = 1;
  private height = 1;
  private dpr = 1;
  private drawnVersion = -1;
  private drawnCamera: Camera | null = null;
  private overlayDirty = true;
  private raf = 0;
  readonly stats: RenderStats = { drawn: 0, sceneMs: 0, scenePasses: 0 };

  constructor(
    private readonly scene: Scene,
    private readonly sceneCanvas: HTMLCanvasElement,
    private readonly overlayCanvas: HTMLCanvasElement,
    private readonly overlay: OverlayPainter,
    private readonly requestFrame: (fn: () => void) => number = (fn) => requestAnimationFrame(fn),
    private readonly cancelFrame: (id: number) => void = (id) => cancelAnimationFrame(id),
  ) {}

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
    this.invalidate();
  }

  get size(): { width: number; height: number } {
    return { width: this.width, height: this.height };
  }

  setCamera(c: Camera): void {
    this.camera = c;
    this.invalidate();
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
    const c = this.camera;
    const cameraMoved =
      !this.drawnCamera || this.drawnCamera.x !== c.x || this.drawnCamera.y !== c.y || this.drawnCamera.zoom !== c.zoom;
    const view = visibleRect(c, this.width, this.height);
    if (cameraMoved || this.drawnVersion !== this.scene.version) {
      const t0 = performance.now();
      const g = this.sceneCanvas.getContext('2d')!;
      g.setTransform(1, 0, 0, 1, 0, 0);
      g.clearRect(0, 0, this.sceneCanvas.width, this.sceneCanvas.height);
      this.worldTransform(g);
      let drawn = 0;
      for (const it of this.scene.visible(view)) {
        const o = this.scene.offsets.get(it.shape.id);
        if (o) {
          g.save();
          g.translate(o.x, o.y);
          paintItem(g, it);
          g.restore();
        } else paintItem(g, it);
        drawn++;
      }
      this.drawnVersion = this.scene.version;
      this.drawnCamera = c;
      this.stats.drawn = drawn;
      this.stats.sceneMs = performance.now() - t0;
      this.stats.scenePasses++;
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

  private worldTransform(g: CanvasRenderingContext2D): void {
    const k = this.camera.zoom * this.dpr;
    g.setTransform(k, 0, 0, k, -this.camera.x * k, -this.camera.y * k);
  }

  destroy(): void {
    if (this.raf) this.cancelFrame(this.raf);
    this.raf = 0;
  }
}
