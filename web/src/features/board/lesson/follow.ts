/**
 * Following someone's view (presentation mode, or a person picked in the participants list):
 * their VIEWPORT ephemerals drive my camera, animated toward the camera that fits their visible
 * rectangle to my screen. Any camera change I did not make (my own pan or zoom) stops a free
 * follow; a presentation's follow resumes on the presenter's next move. UI-free.
 */
import type { Camera, Rect } from '../canvas/camera';
import { fitRect } from '../canvas/camera';

export interface FollowEditor {
  getState(): { camera: Camera; screen: { width: number; height: number } };
  setCamera(c: Camera): void;
  subscribe(fn: () => void): () => void;
}
export interface FollowTimers {
  requestFrame(fn: () => void): number;
  cancelFrame(id: number): void;
}
const browserFrames: FollowTimers = {
  requestFrame: (fn) => requestAnimationFrame(fn),
  cancelFrame: (id) => cancelAnimationFrame(id),
};

/** each frame moves this share of the way (≈ 99 % in 5 frames, ~83 ms at 60 Hz: LS7's 100 ms) */
const EASE = 0.6;
const CLOSE = 1e-3;

export class Follower {
  /** the rectangle being followed (world) */
  target: Rect | null = null;
  private camera: Camera | null = null;
  private frame: number | null = null;
  /** the camera I set last: any other camera is the person's own pan or zoom */
  private mine: Camera | null = null;
  private readonly off: () => void;

  constructor(
    private readonly editor: FollowEditor,
    /** my own pan or zoom (a free follow ends) */
    private readonly onOwnMove: () => void,
    private readonly timers: FollowTimers = browserFrames,
  ) {
    this.off = editor.subscribe(() => {
      if (!this.mine) return;
      const c = editor.getState().camera;
      if (!same(c, this.mine)) {
        this.mine = null;
        this.stopAnimation();
        this.onOwnMove();
      }
    });
  }

  /** follow this rectangle (the latest VIEWPORT of the followed person); `jump`: no animation */
  moveTo(rect: Rect, jump = false): void {
    this.target = rect;
    const { width, height } = this.editor.getState().screen;
    if (width <= 0 || height <= 0) return;
    this.camera = fitRect(rect, width, height, 0);
    if (jump) this.apply(this.camera);
    else if (this.frame === null) this.frame = this.timers.requestFrame(() => this.step());
  }

  stop(): void {
    this.target = null;
    this.mine = null;
    this.stopAnimation();
  }
  destroy(): void {
    this.stop();
    this.off();
  }

  private step(): void {
    this.frame = null;
    const to = this.camera;
    if (!to) return;
    const from = this.editor.getState().camera;
    const next: Camera = {
      x: from.x + (to.x - from.x) * EASE,
      y: from.y + (to.y - from.y) * EASE,
      // zoom eases in log space: equal steps look equal
      zoom: from.zoom * Math.pow(to.zoom / from.zoom, EASE),
    };
    const done = same(next, to);
    this.apply(done ? to : next);
    if (!done) this.frame = this.timers.requestFrame(() => this.step());
  }

  private apply(c: Camera): void {
    this.mine = c;
    this.editor.setCamera(c);
    // the editor may clamp: what it shows is what I set
    this.mine = this.editor.getState().camera;
  }
  private stopAnimation(): void {
    if (this.frame !== null) this.timers.cancelFrame(this.frame);
    this.frame = null;
  }
}

function same(a: Camera, b: Camera): boolean {
  const tol = CLOSE * Math.max(1, Math.abs(a.x), Math.abs(a.y));
  return Math.abs(a.x - b.x) <= tol && Math.abs(a.y - b.y) <= tol && Math.abs(a.zoom / b.zoom - 1) <= CLOSE;
}
