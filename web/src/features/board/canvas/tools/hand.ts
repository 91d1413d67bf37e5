/**
 * Hand: dragging pans the view (content follows the pointer). Works from screen coordinates: the
 * world point under the pointer moves with every pan, the screen point does not.
 */
import type { Tool, ToolHost, ToolPointer } from './types';

export class HandTool implements Tool {
  readonly id = 'hand';
  readonly edits = false;
  private last: { sx: number; sy: number } | null = null;

  /** the host reads it again on pointer down and up */
  get cursor(): string {
    return this.last ? 'grabbing' : 'grab';
  }

  down(p: ToolPointer): void {
    this.last = { sx: p.sx, sy: p.sy };
  }

  move(p: ToolPointer, host: ToolHost): void {
    const last = this.last;
    if (!last) return;
    const dx = p.sx - last.sx;
    const dy = p.sy - last.sy;
    if (dx === 0 && dy === 0) return;
    this.last = { sx: p.sx, sy: p.sy };
    host.pan(dx, dy);
  }

  up(p: ToolPointer, host: ToolHost): void {
    this.move(p, host);
    this.last = null;
  }

  cancel(): void {
    this.last = null;
  }
}
