/**
 * Protractor tool: click places a protractor (or moves it there), drag its body to move it, drag
 * the round handle beyond its baseline to turn it about its centre (Shift: 15° steps), × or
 * Escape closes it. Pointing (hover, or dragging from off the protractor — a finger has no hover)
 * swings a measuring arm from the centre and reads its angle from the baseline, 0–180°. It stays
 * on the board after switching tools; nothing is committed.
 */
import type { Point } from '../camera';
import type { ToolHost, ToolPointer } from '../tools/types';
import type { InstrumentsLayer } from './instrumentsLayer';
import { hitProtractor, hitTolerancePx, type Protractor } from './model';
import { PlacedInstrumentTool, type PlacedKind } from './placedTool';

/** a new protractor's radius on screen (rounded to whole grid units) */
const NEW_RADIUS_PX = 200;

const protractorKind: PlacedKind<Protractor> = {
  get: (l) => l.protractor(),
  // moving or turning it keeps the arm where it points
  set: (l, v, host) => l.setProtractor(v, l.protractorArm(), host),
  create: (p, zoom, unit) => ({
    x: p.x,
    y: p.y,
    angle: 0,
    radius: Math.max(1, Math.round(NEW_RADIUS_PX / zoom / unit)) * unit,
  }),
  centredAt: (v, p) => ({ ...v, x: p.x, y: p.y }),
  hit: (p, v, zoom, tol) => hitProtractor(p, v, zoom, tol),
  pivot: (v): Point => ({ x: v.x, y: v.y }),
};

export class ProtractorTool extends PlacedInstrumentTool<Protractor> {
  readonly id = 'protractor';

  constructor(layer: InstrumentsLayer) {
    super(layer, protractorKind);
  }

  hover(p: ToolPointer, host: ToolHost): void {
    const q = this.layer.protractor();
    // over the protractor the arm stays, so it can be grabbed without the reading jumping
    if (q && !hitProtractor(p, q, host.zoom(), hitTolerancePx(p.pointerType))) this.point(p, host);
  }

  protected override outsideDrag(p: ToolPointer, host: ToolHost): void {
    this.point(p, host);
  }

  private point(p: Point, host: ToolHost): void {
    const q = this.layer.protractor();
    if (!q || (p.x === q.x && p.y === q.y)) return;
    this.layer.setProtractor(q, Math.atan2(p.y - q.y, p.x - q.x), host);
  }
}
