/**
 * What stands in for a kind this version does not know (utilOf's fallback; the document reader
 * already drops records of unknown kinds, so this is a safety net): its stored box, drawn as a
 * dashed outline of its bounds on the board and in exports.
 */
import type { ShapeRecord } from '@wb/proto';
import { storedBoxGeometry } from './shared/geometry';
import { strokeInk } from './shared/paint';
import { resizeStoredBox } from './shared/resize';
import { rectD, type StrokeStyle } from './shared/vector';
import type { ShapeUtil } from './types';

const DASH: StrokeStyle = { color: '#888888', alpha: 1, width: 1, cap: 'butt', join: 'miter', dash: [4, 4] };

export const unknownUtil: ShapeUtil = {
  kind: 'unknown' as ShapeRecord['kind'],
  geometry: storedBoxGeometry,

  paint(g, item) {
    const b = item.bounds;
    g.save();
    g.setLineDash([4, 4]);
    g.strokeStyle = '#888888';
    g.lineWidth = 1;
    g.strokeRect(b.minX, b.minY, b.maxX - b.minX, b.maxY - b.minY);
    g.restore();
  },

  dotColor: strokeInk,

  vector(item) {
    const b = item.bounds;
    return [{ t: 'path', d: rectD(b.minX, b.minY, b.maxX - b.minX, b.maxY - b.minY), fill: null, stroke: DASH }];
  },

  resize: resizeStoredBox,
  // as before the registry: stroke fields were refused to the kinds known to have none
  style: { stroke: true, fill: false },
};
