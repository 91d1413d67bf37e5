/**
 * Graph: drag a box, or click for a 480 × 320 graph centred there, showing DEFAULT_GRAPH_SPEC
 * (y = x²). The new graph is selected, the select tool takes over and the graph panel opens on
 * it. A click on an existing graph opens its panel instead. The preview while dragging is a
 * frame with axes (plotting at pointer rate would render a graph per size).
 */
import type { GraphShape } from '@wb/proto';
import { putShape } from '../realtime/boardDoc';
import type { Point } from '../canvas/camera';
import { dragBox } from '../canvas/tools/geometric';
import { CLICK_SLOP } from '../canvas/tools/line';
import type { Tool, ToolHost, ToolPointer } from '../canvas/tools/types';
import { DEFAULT_GRAPH_SPEC } from './graphSpec';

/** a graph placed with a click (world units) */
export const DEFAULT_GRAPH_SIZE = { w: 480, h: 320 } as const;
/** smaller drags are enlarged to this: axes and labels need room */
export const MIN_GRAPH_SIZE = { w: 160, h: 120 } as const;

const DEFAULT_SPEC_JSON = JSON.stringify(DEFAULT_GRAPH_SPEC);

type Box = { x: number; y: number; w: number; h: number };

export class GraphTool implements Tool {
  readonly id = 'graph';
  readonly cursor = 'crosshair';
  readonly edits = true;
  private drag: { from: Point; screen: Point; to: ToolPointer; moved: boolean } | null = null;

  down(p: ToolPointer, host: ToolHost): void {
    if (!host.canEdit()) return;
    this.drag = { from: host.snap({ x: p.x, y: p.y }), screen: { x: p.sx, y: p.sy }, to: p, moved: false };
    host.redraw();
  }

  move(p: ToolPointer, host: ToolHost): void {
    const d = this.drag;
    if (!d) return;
    d.to = p;
    d.moved ||= Math.hypot(p.sx - d.screen.x, p.sy - d.screen.y) >= CLICK_SLOP;
    host.redraw();
  }

  up(p: ToolPointer, host: ToolHost): void {
    const d = this.drag;
    if (!d) return;
    this.move(p, host);
    this.drag = null;
    host.redraw();
    if (!d.moved) {
      const hit = host.scene.hitTest(d.from, 4 / host.zoom());
      if (hit && hit.shape.kind === 'graph' && !hit.shape.locked) {
        host.setSelection([hit.shape.id]);
        host.setTool('select');
        host.openEditor(hit.shape.id);
        return;
      }
    }
    const shape = graphRecord(host.newId(), this.box(d, host), host);
    if (!host.commit((doc) => putShape(doc, shape))) return;
    host.setSelection([shape.id]);
    host.setTool('select');
    host.openEditor(shape.id);
  }

  cancel(host: ToolHost): void {
    if (!this.drag) return;
    this.drag = null;
    host.redraw();
  }

  drawOverlay(g: CanvasRenderingContext2D, host: ToolHost): void {
    const d = this.drag;
    if (!d?.moved) return;
    const { x, y, w, h } = this.box(d, host);
    g.save();
    g.lineWidth = 1 / host.zoom();
    g.strokeStyle = '#8a8f98';
    g.setLineDash([4 / host.zoom(), 4 / host.zoom()]);
    g.strokeRect(x, y, w, h);
    g.setLineDash([]);
    g.beginPath();
    g.moveTo(x, y + h / 2);
    g.lineTo(x + w, y + h / 2);
    g.moveTo(x + w / 2, y);
    g.lineTo(x + w / 2, y + h);
    g.stroke();
    g.restore();
  }

  private box(d: NonNullable<GraphTool['drag']>, host: ToolHost): Box {
    if (!d.moved) {
      const { w, h } = DEFAULT_GRAPH_SIZE;
      return { x: d.from.x - w / 2, y: d.from.y - h / 2, w, h };
    }
    const b = dragBox(d.from, host.snap({ x: d.to.x, y: d.to.y }), d.to.shift, d.to.alt);
    // grow a too small box away from where the drag started
    const w = Math.max(MIN_GRAPH_SIZE.w, b.w);
    const h = Math.max(MIN_GRAPH_SIZE.h, b.h);
    return { x: b.x < d.from.x ? b.x + b.w - w : b.x, y: b.y < d.from.y ? b.y + b.h - h : b.y, w, h };
  }
}

/** a new graph record with the default spec in `box` */
export function graphRecord(id: string, box: Box, host: Pick<ToolHost, 'userId' | 'topZ'>): GraphShape {
  return {
    id,
    kind: 'graph',
    creator: host.userId,
    z: host.topZ(),
    x: box.x,
    y: box.y,
    w: box.w,
    h: box.h,
    spec: DEFAULT_SPEC_JSON,
  };
}
