/**
 * Tools: pointer down / move / up on the canvas → a preview on the overlay while the gesture
 * lasts, and exactly one committed change per user action (brief fact 5). Later tools (line,
 * shapes, sticky, text …) implement the same interface and register in TOOLS.
 */
import { packPoints, pointsGridExp } from '@wb/proto';
import type { PenShape } from '@wb/proto';
import type { BoardDoc } from '../realtime/boardDoc';
import { moveShape, putShape } from '../realtime/boardDoc';
import type { EphemeralOutbox } from '../realtime/ephemeral';
import { rectOf, type Point, type Rect } from './camera';
import { keyAbove } from './fractionalIndex';
import { cssColor } from './geometry';
import { drawStroke } from './painters';
import type { Scene } from './scene';

export type ToolId = 'select' | 'pen';

export interface ToolPointer extends Point {
  shift: boolean;
}

/** What a tool may use of the board. */
export interface ToolHost {
  readonly scene: Scene;
  readonly userId: number;
  zoom(): number;
  canEdit(): boolean;
  style(): { strokeColor: number; strokeWidth: number };
  /** one user action = one change; false when the board refused (read-only, not ready) */
  commit(fn: (d: BoardDoc) => void): boolean;
  newId(): string;
  selection(): ReadonlySet<string>;
  setSelection(ids: Iterable<string>): void;
  readonly ephemeral: EphemeralOutbox;
  /** the overlay (previews) changed */
  redraw(): void;
}

export interface Tool {
  readonly id: ToolId;
  /** CSS cursor over the canvas */
  readonly cursor: string;
  /** needs edit rights (disabled for viewers) */
  readonly edits: boolean;
  down(p: ToolPointer, host: ToolHost): void;
  move(p: ToolPointer, host: ToolHost): void;
  up(p: ToolPointer, host: ToolHost): void;
  /** gesture aborted (Escape, pointer lost, tool switched) */
  cancel(host: ToolHost): void;
  /** preview in world coordinates */
  drawOverlay?(g: CanvasRenderingContext2D, host: ToolHost): void;
}

/** Freehand pen: points in world coordinates while drawing, one `pen` shape on pointer up. */
export class PenTool implements Tool {
  readonly id = 'pen';
  readonly cursor = 'crosshair';
  readonly edits = true;
  private stroke: { id: string; points: number[]; color: number; width: number } | null = null;

  get drawing(): boolean {
    return this.stroke !== null;
  }

  down(p: ToolPointer, host: ToolHost): void {
    if (!host.canEdit()) return;
    const { strokeColor, strokeWidth } = host.style();
    this.stroke = { id: host.newId(), points: [p.x, p.y], color: strokeColor, width: strokeWidth };
    host.ephemeral.strokeStart(this.stroke.id, strokeColor, strokeWidth, p.x, p.y);
    host.redraw();
  }

  move(p: ToolPointer, host: ToolHost): void {
    const s = this.stroke;
    if (!s) return;
    const n = s.points.length;
    // skip sub-pixel jitter: at most one point per screen pixel
    if (Math.hypot(p.x - s.points[n - 2]!, p.y - s.points[n - 1]!) * host.zoom() < 1) return;
    s.points.push(p.x, p.y);
    host.ephemeral.strokePoint(p.x, p.y);
    host.redraw();
  }

  up(p: ToolPointer, host: ToolHost): void {
    const s = this.stroke;
    if (!s) return;
    this.move(p, host);
    this.stroke = null;
    host.ephemeral.strokeEnd();
    let minX = Infinity;
    let minY = Infinity;
    for (let i = 0; i < s.points.length; i += 2) {
      minX = Math.min(minX, s.points[i]!);
      minY = Math.min(minY, s.points[i + 1]!);
    }
    const rel = s.points.map((v, i) => v - (i % 2 === 0 ? minX : minY));
    const shape: PenShape = {
      id: s.id,
      kind: 'pen',
      creator: host.userId,
      z: keyAbove(host.scene.topZ()),
      x: minX,
      y: minY,
      strokeColor: s.color,
      strokeWidth: s.width,
      // on a grid a quarter of a screen pixel fine at the zoom it was drawn (SPEC D3)
      points: packPoints(rel, pointsGridExp(host.zoom())),
    };
    host.commit((d) => putShape(d, shape));
    host.redraw();
  }

  cancel(host: ToolHost): void {
    if (!this.stroke) return;
    this.stroke = null;
    host.ephemeral.strokeEnd();
    host.redraw();
  }

  drawOverlay(g: CanvasRenderingContext2D): void {
    if (this.stroke) drawStroke(g, this.stroke.points, cssColor(this.stroke.color), this.stroke.width);
  }
}

/** Select: click (Shift adds/removes), drag the selection to move it, drag on empty space for a marquee. */
export class SelectTool implements Tool {
  readonly id = 'select';
  readonly cursor = 'default';
  readonly edits = false;
  private drag: { from: Point; ids: string[]; moved: boolean } | null = null;
  private marquee: { from: Point; to: Point } | null = null;

  down(p: ToolPointer, host: ToolHost): void {
    const hit = host.scene.hitTest(p, 6 / host.zoom());
    const sel = new Set(host.selection());
    if (hit) {
      const id = hit.shape.id;
      if (p.shift) {
        if (sel.has(id)) sel.delete(id);
        else sel.add(id);
      } else if (!sel.has(id)) {
        sel.clear();
        sel.add(id);
      }
      host.setSelection(sel);
      if (sel.has(id) && host.canEdit()) this.drag = { from: p, ids: [...sel], moved: false };
    } else {
      if (!p.shift) host.setSelection([]);
      this.marquee = { from: p, to: p };
    }
    host.redraw();
  }

  move(p: ToolPointer, host: ToolHost): void {
    if (this.drag) {
      const dx = p.x - this.drag.from.x;
      const dy = p.y - this.drag.from.y;
      if (!this.drag.moved && Math.hypot(dx, dy) * host.zoom() < 3) return;
      this.drag.moved = true;
      for (const id of this.drag.ids) host.scene.offsets.set(id, { x: dx, y: dy });
      host.scene.touch();
      host.redraw();
    } else if (this.marquee) {
      this.marquee.to = p;
      host.redraw();
    }
  }

  up(p: ToolPointer, host: ToolHost): void {
    if (this.drag) {
      const { ids, moved, from } = this.drag;
      this.drag = null;
      for (const id of ids) host.scene.offsets.delete(id);
      host.scene.touch();
      if (moved) {
        const dx = p.x - from.x;
        const dy = p.y - from.y;
        host.commit((d) => {
          for (const id of ids) moveShape(d, id, dx, dy);
        });
      }
    } else if (this.marquee) {
      const rect = rectOf(this.marquee.from, p);
      this.marquee = null;
      if (rect.maxX - rect.minX > 0 || rect.maxY - rect.minY > 0) {
        const ids = new Set(p.shift ? host.selection() : []);
        for (const it of host.scene.inside(rect)) ids.add(it.shape.id);
        host.setSelection(ids);
      }
    }
    host.redraw();
  }

  cancel(host: ToolHost): void {
    if (this.drag) for (const id of this.drag.ids) host.scene.offsets.delete(id);
    this.drag = null;
    this.marquee = null;
    host.scene.touch();
    host.redraw();
  }

  drawOverlay(g: CanvasRenderingContext2D, host: ToolHost): void {
    if (!this.marquee) return;
    const r: Rect = rectOf(this.marquee.from, this.marquee.to);
    g.save();
    g.lineWidth = 1 / host.zoom();
    g.strokeStyle = '#2563eb';
    g.fillStyle = 'rgba(37, 99, 235, 0.08)';
    g.fillRect(r.minX, r.minY, r.maxX - r.minX, r.maxY - r.minY);
    g.strokeRect(r.minX, r.minY, r.maxX - r.minX, r.maxY - r.minY);
    g.restore();
  }
}

export function createTools(): Record<ToolId, Tool> {
  return { select: new SelectTool(), pen: new PenTool() };
}
