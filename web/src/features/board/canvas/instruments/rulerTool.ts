/**
 * Ruler tool: click places a ruler (or moves it there), drag its body to move it, drag the round
 * handle beyond its far end to turn it about its 0 mark (Shift: 15° steps), × or Escape closes
 * it. It stays on the board after switching tools: the pen then draws straight along the edge
 * it starts by (tools/pen.ts). Nothing is committed.
 */
import type { Point } from '../camera';
import type { InstrumentsLayer } from './instrumentsLayer';
import { hitRuler, rulerPoint, type Ruler } from './model';
import { PlacedInstrumentTool, type PlacedKind } from './placedTool';

/** a new ruler is about this long on screen (rounded to whole grid units) */
const NEW_RULER_PX = 480;

const rulerKind: PlacedKind<Ruler> = {
  get: (layer) => layer.ruler(),
  set: (layer, v, host) => layer.setRuler(v, host),
  create: (p, zoom, unit) => {
    const length = Math.max(2, Math.round(NEW_RULER_PX / zoom / unit)) * unit;
    return rulerKind.centredAt({ x: 0, y: 0, angle: 0, length }, p);
  },
  centredAt: (v, p) => {
    const c = rulerPoint(v, v.length / 2, 0);
    return { ...v, x: v.x + p.x - c.x, y: v.y + p.y - c.y };
  },
  hit: (p, v, zoom, tol) => hitRuler(p, v, zoom, tol),
  pivot: (v): Point => ({ x: v.x, y: v.y }),
};

export class RulerTool extends PlacedInstrumentTool<Ruler> {
  readonly id = 'ruler';

  constructor(layer: InstrumentsLayer) {
    super(layer, rulerKind);
  }
}
