/**
 * Eraser: drag over shapes; every shape the path touches (the segments between pointer samples
 * too, so a fast swipe misses nothing) is shown faded while dragging and removed by one change on
 * pointer up. Locked shapes are left alone; shapes this person may not delete (SPEC D6 "delete own
 * only") are left too and a warning says how many.
 */
import { removeShape } from '../../realtime/boardDoc';
import type { Point } from '../camera';
import { hitsShape } from '../geometry';
import type { Tool, ToolHost, ToolPointer } from './types';

/** the eraser's reach around the pointer (screen px) */
export const ERASER_RADIUS = 8;
/** opacity of the shapes about to go */
const FADED = 0.25;

export class EraserTool implements Tool {
  readonly id = 'eraser';
  readonly cursor = 'cell';
  readonly edits = true;
  private drag: { path: Point[]; marked: Set<string>; refused: Set<string> } | null = null;

  /** ids the current drag would remove (in the order they were touched) */
  get marked(): ReadonlySet<string> {
    return this.drag?.marked ?? new Set();
  }

  down(p: ToolPointer, host: ToolHost): void {
    if (!host.canEdit()) return;
    this.drag = { path: [{ x: p.x, y: p.y }], marked: new Set(), refused: new Set() };
    this.sweep(p, p, host);
    host.redraw();
  }

  move(p: ToolPointer, host: ToolHost): void {
    const d = this.drag;
    if (!d) return;
    const last = d.path[d.path.length - 1]!;
    this.sweep(last, p, host);
    d.path.push({ x: p.x, y: p.y });
    // the trail only needs its recent part
    if (d.path.length > 64) d.path.splice(0, d.path.length - 64);
    host.redraw();
  }

  up(p: ToolPointer, host: ToolHost): void {
    const d = this.drag;
    if (!d) return;
    this.move(p, host);
    this.drag = null;
    this.unhide(d, host);
    // shapes someone else removed meanwhile are gone already: nothing to do for them
    const ids = [...d.marked].filter((id) => host.scene.get(id));
    if (ids.length > 0 && host.commit((doc) => ids.forEach((id) => removeShape(doc, id)))) {
      const sel = host.selection();
      if (ids.some((id) => sel.has(id))) host.setSelection([...sel].filter((id) => !d.marked.has(id)));
    }
    if (d.refused.size > 0) host.notify('warning', 'deleteOthers', { count: d.refused.size });
    host.redraw();
  }

  cancel(host: ToolHost): void {
    if (!this.drag) return;
    this.unhide(this.drag, host);
    this.drag = null;
    host.redraw();
  }

  drawOverlay(g: CanvasRenderingContext2D, host: ToolHost): void {
    const d = this.drag;
    if (!d) return;
    for (const id of d.marked) {
      const it = host.scene.get(id);
      if (it) host.drawShape(g, { ...it.shape, opacity: FADED * (it.shape.opacity ?? 1) });
    }
    const z = host.zoom();
    g.save();
    g.strokeStyle = 'rgba(120, 120, 120, 0.35)';
    g.lineWidth = (2 * ERASER_RADIUS) / z;
    g.lineCap = 'round';
    g.lineJoin = 'round';
    g.beginPath();
    g.moveTo(d.path[0]!.x, d.path[0]!.y);
    for (const q of d.path) g.lineTo(q.x, q.y);
    g.stroke();
    g.restore();
  }

  /** marks every shape within reach of the segment a → b */
  private sweep(a: Point, b: Point, host: ToolHost): void {
    const d = this.drag!;
    const reach = ERASER_RADIUS / host.zoom();
    const rect = {
      minX: Math.min(a.x, b.x) - reach,
      minY: Math.min(a.y, b.y) - reach,
      maxX: Math.max(a.x, b.x) + reach,
      maxY: Math.max(a.y, b.y) + reach,
    };
    // samples along the segment no further apart than the reach: nothing slips between them
    const steps = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / reach));
    for (const it of host.scene.visible(rect)) {
      const { shape } = it;
      if (shape.locked || d.marked.has(shape.id) || d.refused.has(shape.id)) continue;
      let hit = false;
      for (let i = 0; i <= steps && !hit; i++) {
        const t = i / steps;
        hit = hitsShape(shape, it.points, it.bounds, { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t }, reach);
      }
      if (!hit) continue;
      if (host.mayDelete(shape)) {
        d.marked.add(shape.id);
        // the scene leaves it out; the overlay draws it faded in its place
        host.scene.hidden.add(shape.id);
        host.scene.touch();
      } else d.refused.add(shape.id);
    }
  }

  /** the marked shapes are drawn by the scene again (removed, or the drag was cancelled) */
  private unhide(d: NonNullable<EraserTool['drag']>, host: ToolHost): void {
    if (d.marked.size === 0) return;
    for (const id of d.marked) host.scene.hidden.delete(id);
    host.scene.touch();
  }
}
