/**
 * Laser pointer trails, by peer id (LOCAL_LASER = this person, fed by the laser tool; the other
 * peers' from RemoteEphemeral.lasers), drawn on the overlay as lines that fade out within
 * LASER_FADE_MS of each point. Nothing is stored in the board. The host keeps animating the
 * overlay while `hasActive(now)` says a trail is still visible.
 *
 * One clock for add, draw and hasActive: performance.now() unless the constructor is given
 * another (tests pass a fake).
 */
import type { Point } from './camera';

/** a point is fully faded this long after it was drawn (ms) */
export const LASER_FADE_MS = 1000;
/** the peer id of this person's own trail */
export const LOCAL_LASER = -1;
const RED = '#ef4444';
/** widths in screen px (divided by the zoom: the overlay has the world transform) */
const WIDTH = 4;
const HEAD_RADIUS = 4;
/** points older than this are dropped (a little beyond the fade) */
const KEEP_MS = LASER_FADE_MS * 1.5;

interface TrailPoint {
  x: number;
  y: number;
  t: number;
  /** the pointer went up or away after this point: no line to the next one */
  end?: boolean;
}

export class LaserTrails {
  private readonly trails = new Map<number, TrailPoint[]>();
  private readonly clock: () => number;

  constructor(opts: { now?: () => number } = {}) {
    this.clock = opts.now ?? (() => performance.now());
  }

  now(): number {
    return this.clock();
  }

  /**
   * A laser point of `peer` at time t. The same point again (a host re-reading the latest
   * remote point) adds nothing, so it neither duplicates nor keeps a still laser alive; `end`
   * on it ends that trail.
   */
  add(peer: number, p: Point & { end?: boolean }, t = this.clock()): void {
    let trail = this.trails.get(peer);
    if (!trail) this.trails.set(peer, (trail = []));
    const last = trail[trail.length - 1];
    if (last && last.x === p.x && last.y === p.y) {
      if (p.end) last.end = true;
      return;
    }
    trail.push({ x: p.x, y: p.y, t, ...(p.end ? { end: true } : {}) });
    let drop = 0;
    while (drop < trail.length && t - trail[drop]!.t > KEEP_MS) drop++;
    if (drop > 0) trail.splice(0, drop);
  }

  /** `peer`'s laser stopped (pointer up or away): its next point starts a new trail */
  end(peer: number): void {
    const trail = this.trails.get(peer);
    const last = trail?.[trail.length - 1];
    if (last) last.end = true;
  }

  addLocal(x: number, y: number, t = this.clock()): void {
    this.add(LOCAL_LASER, { x, y }, t);
  }
  endLocal(): void {
    this.end(LOCAL_LASER);
  }

  /** a peer's points, oldest first (empty when none) */
  points(peer: number): readonly TrailPoint[] {
    return this.trails.get(peer) ?? [];
  }

  /** forget a peer's trail (it left) */
  remove(peer: number): void {
    this.trails.delete(peer);
  }

  /** is any trail still visible at `now`? (false also drops trails that faded out) */
  hasActive(now: number): boolean {
    let active = false;
    for (const [peer, trail] of this.trails) {
      const last = trail[trail.length - 1];
      if (last && now - last.t < LASER_FADE_MS) active = true;
      else this.trails.delete(peer);
    }
    return active;
  }

  /**
   * Draw every trail on the overlay (world transform set). `colorOf` picks a peer's colour (their
   * presence colour, say); red for everyone by default, as a laser is.
   */
  draw(g: CanvasRenderingContext2D, now: number, zoom: number, colorOf: (peer: number) => string = () => RED): void {
    g.save();
    g.lineCap = 'round';
    g.shadowBlur = 6;
    for (const [peer, trail] of this.trails) {
      const color = colorOf(peer);
      g.strokeStyle = color;
      g.fillStyle = color;
      g.shadowColor = color;
      for (let i = 1; i < trail.length; i++) {
        const a = trail[i - 1]!;
        const b = trail[i]!;
        if (a.end) continue;
        const alpha = fade(now, b.t);
        if (alpha <= 0) continue;
        g.globalAlpha = alpha;
        // older parts are thinner as well as fainter: the trail tapers toward its tail
        g.lineWidth = (WIDTH * (0.4 + 0.6 * alpha)) / zoom;
        g.beginPath();
        g.moveTo(a.x, a.y);
        g.lineTo(b.x, b.y);
        g.stroke();
      }
      const head = trail[trail.length - 1];
      const alpha = head ? fade(now, head.t) : 0;
      if (head && alpha > 0) {
        g.globalAlpha = alpha;
        g.beginPath();
        g.arc(head.x, head.y, HEAD_RADIUS / zoom, 0, Math.PI * 2);
        g.fill();
      }
    }
    g.restore();
  }
}

function fade(now: number, t: number): number {
  return Math.max(0, Math.min(1, 1 - (now - t) / LASER_FADE_MS));
}
