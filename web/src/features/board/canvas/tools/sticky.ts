/**
 * Sticky note: a click places a 200×200 note in the style's sticky colour centred at the pointer,
 * selects it, hands over to the select tool and opens the text editor on it, so typing starts
 * at once (the text is then edited in place, one more change when the editor commits).
 */
import type { StickyShape } from '@wb/proto';
import { putShape } from '../../realtime/boardDoc';
import type { Point } from '../camera';
import type { Tool, ToolHost, ToolPointer } from './types';

/** side of a new sticky note (world units) */
export const STICKY_SIZE = 200;

export class StickyTool implements Tool {
  readonly id = 'sticky';
  readonly cursor = 'crosshair';
  readonly edits = true;
  private at: Point | null = null;

  down(p: ToolPointer, host: ToolHost): void {
    if (!host.canEdit()) return;
    this.at = host.snap({ x: p.x, y: p.y }, { alt: p.alt });
    host.redraw();
  }

  move(): void {
    // the note goes where the press was; dragging does not move it
  }

  up(_p: ToolPointer, host: ToolHost): void {
    const at = this.at;
    if (!at) return;
    this.at = null;
    const shape = stickyRecord(host.newId(), at, host);
    if (host.commit((d) => putShape(d, shape))) {
      host.setSelection([shape.id]);
      host.setTool('select');
      host.editText(shape.id);
    }
    host.redraw();
  }

  cancel(host: ToolHost): void {
    if (!this.at) return;
    this.at = null;
    host.redraw();
  }

  drawOverlay(g: CanvasRenderingContext2D, host: ToolHost): void {
    if (this.at) host.drawShape(g, stickyRecord('preview', this.at, host));
  }
}

function stickyRecord(id: string, centre: Point, host: ToolHost): StickyShape {
  return {
    id,
    kind: 'sticky',
    creator: host.userId,
    z: host.topZ(),
    x: centre.x - STICKY_SIZE / 2,
    y: centre.y - STICKY_SIZE / 2,
    w: STICKY_SIZE,
    h: STICKY_SIZE,
    text: '',
    color: host.style().stickyColor,
  };
}
