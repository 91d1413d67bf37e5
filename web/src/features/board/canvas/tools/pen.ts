/**
 * Freehand pen: world points while drawing (streamed to the others as stroke ephemerals), one
 * `pen` shape on pointer up. A stylus's pressure is kept per point unless the style asks for a
 * fixed width.
 */
import { packPoints, pointsGridExp } from '@wb/proto';
import type { PenShape } from '@wb/proto';
import { putShape } from '../../realtime/boardDoc';
import { projectToEdge, projectToRulerEdge, type Ruler, type RulerEdge } from '../instruments/model';
import type { Tool, ToolHost, ToolPointer } from './types';

/**
 * World points [x0,y0,…] → the shape's origin (their top-left) and the points packed relative to
 * it (SPEC D3), on a grid a quarter of a screen pixel fine at the zoom they were drawn.
 */
export function packWorldPoints(points: readonly number[], zoom: number): { x: number; y: number; points: Uint8Array } {
  let x = Infinity;
  let y = Infinity;
  for (let i = 0; i + 1 < points.length; i += 2) {
    x = Math.min(x, points[i]!);
    y = Math.min(y, points[i + 1]!);
  }
  const rel = points.map((v, i) => v - (i % 2 === 0 ? x : y));
  return { x, y, points: packPoints(rel, pointsGridExp(zoom)) };
}

/** pressure 0…1 → one byte, as stored in `pressures` */
export const pressureByte = (p: number): number => Math.round(Math.min(1, Math.max(0, p)) * 255);

interface Stroke {
  id: string;
  points: number[];
  /** one byte per point; null = no pressure (mouse, touch, fixed width) */
  pressures: number[] | null;
  color: number;
  width: number;
  linePattern: string;
  zoom: number;
  /** the preview record, rebuilt only when points arrived */
  preview: PenShape | null;
  /** started by a ruler's edge: every point goes onto that edge (a straight stroke along it) */
  ruler: { ruler: Ruler; edge: RulerEdge } | null;
}

export class PenTool implements Tool {
  readonly id = 'pen';
  readonly cursor = 'crosshair';
  readonly edits = true;
  private stroke: Stroke | null = null;

  get drawing(): boolean {
    return this.stroke !== null;
  }

  down(p: ToolPointer, host: ToolHost): void {
    if (!host.canEdit()) return;
    const style = host.style();
    // only a stylus reports real pressure; a mouse's constant 0.5 would only add bytes
    const pressured = p.pointerType === 'pen' && !style.fixedWidth;
    const ruler = host.instruments?.().ruler() ?? null;
    const snapped = ruler ? projectToRulerEdge(p, ruler, host.zoom()) : null;
    if (snapped) p = { ...p, x: snapped.x, y: snapped.y };
    this.stroke = {
      id: host.newId(),
      points: [p.x, p.y],
      pressures: pressured ? [pressureByte(p.pressure)] : null,
      color: style.strokeColor,
      width: style.strokeWidth,
      linePattern: style.linePattern,
      zoom: host.zoom(),
      preview: null,
      ruler: ruler && snapped ? { ruler: { ...ruler }, edge: snapped.edge } : null,
    };
    host.ephemeral.strokeStart(this.stroke.id, style.strokeColor, style.strokeWidth, p.x, p.y);
    host.redraw();
  }

  move(p: ToolPointer, host: ToolHost): void {
    const s = this.stroke;
    if (!s) return;
    if (s.ruler) p = { ...p, ...projectToEdge(p, s.ruler.ruler, s.ruler.edge) };
    const n = s.points.length;
    // skip sub-pixel jitter: at most one point per screen pixel
    if (Math.hypot(p.x - s.points[n - 2]!, p.y - s.points[n - 1]!) * host.zoom() < 1) return;
    s.points.push(p.x, p.y);
    s.pressures?.push(pressureByte(p.pressure));
    s.preview = null;
    host.ephemeral.strokePoint(p.x, p.y);
    host.redraw();
  }

  up(p: ToolPointer, host: ToolHost): void {
    const s = this.stroke;
    if (!s) return;
    this.move(p, host);
    this.stroke = null;
    host.ephemeral.strokeEnd();
    const shape = this.record(s, host);
    host.commit((d) => putShape(d, shape));
    host.redraw();
  }

  cancel(host: ToolHost): void {
    if (!this.stroke) return;
    this.stroke = null;
    host.ephemeral.strokeEnd();
    host.redraw();
  }

  drawOverlay(g: CanvasRenderingContext2D, host: ToolHost): void {
    const s = this.stroke;
    if (!s) return;
    s.preview ??= this.record(s, host);
    host.drawShape(g, s.preview);
  }

  private record(s: Stroke, host: ToolHost): PenShape {
    const packed = packWorldPoints(s.points, s.zoom);
    return {
      id: s.id,
      kind: 'pen',
      creator: host.userId,
      z: host.topZ(),
      x: packed.x,
      y: packed.y,
      strokeColor: s.color,
      strokeWidth: s.width,
      linePattern: s.linePattern,
      points: packed.points,
      ...(s.pressures ? { pressures: Uint8Array.from(s.pressures) } : {}),
    };
  }
}
