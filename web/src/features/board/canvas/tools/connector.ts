/**
 * Connector (issue 13): press on a shape (or empty space), release on another shape (or empty
 * space; a shape's inside counts whatever its fill: targetAt): one `connector` bound to the shapes
 * under its ends (fromId / toId, anchors 'auto'), its end points on their boxes
 * (bindings.connectorEndpoints), so it follows them from then on. The shape under the pointer is
 * highlighted as the target while dragging and hovering.
 */
import type { ConnectorShape, ShapeRecord } from '@wb/proto';
import { putShape } from '../../realtime/boardDoc';
import type { Point } from '../camera';
import { connectorEndpoints, connectorGeometry } from '../editor/bindings';
import { bindsShape, hitsShape, localBox } from '../geometry';
import type { Tool, ToolHost, ToolPointer } from './types';

const HIT_TOLERANCE = 6;
const CLICK_SLOP = 3;

/**
 * The shape a connector end at p binds to (issue 26 #4, as tldraw and Excalidraw): any shape but a
 * connector whose outline or inside holds p, whatever its fill (geometry.bindsShape). Of the shapes
 * down to the top-most one hit on its outline or filled area (sticky notes, text and other boxes
 * are areas), the smallest wins: an empty frame drawn round a note leaves the note its binding, an
 * empty circle drawn on a note takes it inside itself.
 */
export function targetAt(p: Point, host: Pick<ToolHost, 'scene' | 'zoom'>, except?: string): ShapeRecord | null {
  const tolerance = HIT_TOLERANCE / host.zoom();
  let best: { shape: ShapeRecord; area: number } | null = null;
  for (const it of host.scene.allAt(p, tolerance, bindsShape)) {
    if (it.shape.id === except) continue;
    const box = localBox(it.shape, it.points);
    const area = Math.abs(box.w * box.h);
    if (!best || area < best.area) best = { shape: it.shape, area };
    // the first shape hit on its outline or filled area: nothing below it binds
    if (hitsShape(it.shape, it.points, it.bounds, p, tolerance)) break;
  }
  return best?.shape ?? null;
}

/**
 * The connector record between two ends: a bound end sits on its shape's box facing the other
 * end, a free end at its point.
 */
export function connectorRecord(
  id: string,
  from: { point: Point; shape: ShapeRecord | null },
  to: { point: Point; shape: ShapeRecord | null },
  host: Pick<ToolHost, 'userId' | 'style' | 'topZ'>,
): ConnectorShape {
  const style = host.style();
  const draft: ConnectorShape = {
    id,
    kind: 'connector',
    creator: host.userId,
    z: host.topZ(),
    ...connectorGeometry(from.point, to.point),
    fromId: from.shape?.id ?? null,
    toId: to.shape?.id ?? null,
    fromAnchor: 'auto',
    toAnchor: 'auto',
    strokeColor: style.strokeColor,
    strokeWidth: style.strokeWidth,
    linePattern: style.linePattern,
    arrowEnd: style.arrowEnd ?? true,
    ...(style.arrowStart ? { arrowStart: true } : {}),
    ...(style.elbow ? { elbow: true } : {}),
  };
  const { start, end } = connectorEndpoints(draft, from.shape, to.shape);
  return { ...draft, ...connectorGeometry(start, end) };
}

export class ConnectorTool implements Tool {
  readonly id = 'connector';
  readonly cursor = 'crosshair';
  readonly edits = true;
  private drag: {
    id: string;
    from: Point;
    fromShape: ShapeRecord | null;
    to: Point;
    toShape: ShapeRecord | null;
  } | null = null;
  /** the shape under the pointer (a target to bind to) */
  private hovered: ShapeRecord | null = null;

  get drawing(): boolean {
    return this.drag !== null;
  }
  /** the highlighted target shape's id (hover or the end being dragged) */
  get target(): string | null {
    return this.hovered?.id ?? null;
  }

  down(p: ToolPointer, host: ToolHost): void {
    if (!host.canEdit()) return;
    const shape = targetAt(p, host);
    // a free end snaps (grid, other shapes) unless Alt; a bound end is placed by its shape
    const from = shape ? { x: p.x, y: p.y } : host.snap({ x: p.x, y: p.y }, { alt: p.alt });
    this.drag = { id: host.newId(), from, fromShape: shape, to: from, toShape: null };
    this.hovered = shape;
    host.redraw();
  }

  move(p: ToolPointer, host: ToolHost): void {
    const d = this.drag;
    if (!d) return;
    d.toShape = targetAt(p, host, d.fromShape?.id);
    d.to = d.toShape ? { x: p.x, y: p.y } : host.snap({ x: p.x, y: p.y }, { alt: p.alt });
    this.hovered = d.toShape;
    host.redraw();
  }

  hover(p: ToolPointer, host: ToolHost): void {
    if (this.drag) return;
    const next = host.canEdit() ? targetAt(p, host) : null;
    if (next?.id !== this.hovered?.id) {
      this.hovered = next;
      host.redraw();
    }
  }

  up(p: ToolPointer, host: ToolHost): void {
    const d = this.drag;
    if (!d) return;
    this.move(p, host);
    this.drag = null;
    this.hovered = null;
    const dragged = Math.hypot(d.to.x - d.from.x, d.to.y - d.from.y) * host.zoom() >= CLICK_SLOP;
    // a click makes nothing, unless it went from one shape to another
    if (dragged || (d.fromShape && d.toShape)) {
      const shape = connectorRecord(
        d.id,
        { point: d.from, shape: d.fromShape },
        { point: d.to, shape: d.toShape },
        host,
      );
      host.commit((doc) => putShape(doc, shape));
    }
    host.redraw();
  }

  cancel(host: ToolHost): void {
    if (!this.drag && !this.hovered) return;
    this.drag = null;
    this.hovered = null;
    host.redraw();
  }

  drawOverlay(g: CanvasRenderingContext2D, host: ToolHost): void {
    const zoom = host.zoom();
    const highlight = (s: ShapeRecord | null) => {
      const it = s ? host.scene.get(s.id) : undefined;
      if (!it) return;
      const b = host.scene.displaced(it);
      const pad = 4 / zoom;
      g.save();
      g.strokeStyle = '#2563eb';
      g.lineWidth = 2 / zoom;
      g.setLineDash([]);
      g.strokeRect(b.minX - pad, b.minY - pad, b.maxX - b.minX + 2 * pad, b.maxY - b.minY + 2 * pad);
      g.restore();
    };
    const d = this.drag;
    if (d) highlight(d.fromShape);
    highlight(this.hovered);
    if (d && (d.to.x !== d.from.x || d.to.y !== d.from.y || d.toShape))
      host.drawShape(
        g,
        connectorRecord(d.id, { point: d.from, shape: d.fromShape }, { point: d.to, shape: d.toShape }, host),
      );
  }
}
