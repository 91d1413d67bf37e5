/**
 * Laser pointer: points at things for everyone (viewers too, nothing is stored). While the
 * pointer is pressed or moves over the canvas its position goes out as a laser ephemeral (≤ 30 Hz,
 * latest wins) and into the local fading trail; pointer up or leaving stops it.
 */
import { LaserTrails, LOCAL_LASER } from '../laserTrail';
import type { Tool, ToolHost, ToolPointer } from './types';

export class LaserTool implements Tool {
  readonly id = 'laser';
  readonly cursor = 'crosshair';
  /** anyone may point */
  readonly edits = false;
  /** the host draws these on every overlay frame (with the other peers' trails) */
  readonly trails: LaserTrails;
  private active = false;

  constructor(trails: LaserTrails = new LaserTrails()) {
    this.trails = trails;
  }

  down(p: ToolPointer, host: ToolHost): void {
    this.point(p, host);
  }

  move(p: ToolPointer, host: ToolHost): void {
    this.point(p, host);
  }

  hover(p: ToolPointer, host: ToolHost): void {
    this.point(p, host);
  }

  up(_p: ToolPointer, host: ToolHost): void {
    this.stop(host);
  }

  /** also what the host calls when the pointer leaves the canvas or the tool changes */
  cancel(host: ToolHost): void {
    this.stop(host);
  }

  private point(p: ToolPointer, host: ToolHost): void {
    const own = this.trails.points(LOCAL_LASER);
    const last = own[own.length - 1];
    // one point per screen pixel is plenty for a trail
    if (this.active && last && Math.hypot(p.x - last.x, p.y - last.y) * host.zoom() < 1) return;
    this.active = true;
    this.trails.addLocal(p.x, p.y);
    host.ephemeral.setLaser({ x: p.x, y: p.y });
    host.redraw();
  }

  private stop(host: ToolHost): void {
    if (!this.active) return;
    this.active = false;
    this.trails.endLocal();
    host.ephemeral.setLaser(null);
    host.redraw();
  }
}
