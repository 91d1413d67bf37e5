/**
 * A sticky note (`sticky`): a w × h note of its colour with a soft shadow and its text centred at
 * the largest size at which every word fits (textLayout.stickyText). Resizing keeps its
 * proportions; a double click edits its text in place.
 */
import type { StickyShape } from '@wb/proto';
import { stickyText } from '../textLayout';
import { stickyTextColor } from '../theme';
import { cssColor, num, storedBoxGeometry } from './shared/geometry';
import { cacheOf, centredText, SANS } from './shared/paint';
import { dominant } from './shared/resize';
import { centredTextPrim, rectD, textValue, type Prim } from './shared/vector';
import type { ShapeUtil } from './types';

const NOTE_COLOR = '#fff59d';

export const stickyUtil: ShapeUtil<StickyShape> = {
  kind: 'sticky',
  geometry: storedBoxGeometry,

  paint(g, item, ctx) {
    const shape = item.shape as StickyShape;
    const { x, y } = shape;
    const w = Math.max(0, shape.w);
    const h = Math.max(0, shape.h);
    // a soft shadow from two offset translucent rectangles: blur shadows cost too much per note
    const d = Math.max(1.5, Math.min(w, h) * 0.02);
    g.fillStyle = 'rgba(0,0,0,0.07)';
    g.fillRect(x + d * 0.5, y + d * 1.5, w + d, h + d);
    g.fillStyle = 'rgba(0,0,0,0.10)';
    g.fillRect(x + d * 0.25, y + d * 0.75, w, h);
    g.fillStyle = cssColor(shape.color, NOTE_COLOR);
    g.fillRect(x, y, w, h);
    const text = typeof shape.text === 'string' ? shape.text : '';
    if (!text) return;
    const cache = cacheOf(item);
    const fitted = (cache.fitted ??= stickyText(text, SANS, x, y, w, h));
    if (fitted.overflows) {
      g.save();
      g.beginPath();
      g.rect(x, y, w, h);
      g.clip();
    }
    const b = fitted.box;
    centredText(g, fitted.layout, SANS, fitted.fontSize, b.x, b.y, b.w, b.h, stickyTextColor(shape.color), ctx);
    if (fitted.overflows) g.restore();
  },

  dotColor: (shape) => cssColor(shape.color, NOTE_COLOR),

  vector(item) {
    const shape = item.shape as StickyShape;
    const { x, y } = shape;
    const w = Math.max(0, num(shape.w));
    const h = Math.max(0, num(shape.h));
    const d = Math.max(1.5, Math.min(w, h) * 0.02);
    const out: Prim[] = [
      {
        t: 'path',
        d: rectD(x + d * 0.5, y + d * 1.5, w + d, h + d),
        fill: { color: '#000000', alpha: 0.07 },
        stroke: null,
      },
      { t: 'path', d: rectD(x + d * 0.25, y + d * 0.75, w, h), fill: { color: '#000000', alpha: 0.1 }, stroke: null },
      { t: 'path', d: rectD(x, y, w, h), fill: { color: cssColor(shape.color, NOTE_COLOR), alpha: 1 }, stroke: null },
    ];
    const text = textValue(shape.text);
    if (!text) return out;
    const fitted = stickyText(text, SANS, x, y, w, h);
    const label = centredTextPrim(fitted.layout, SANS, fitted.fontSize, fitted.box, stickyTextColor(shape.color));
    out.push(fitted.overflows ? { t: 'clip', x, y, w, h, prims: [label] } : label);
    return out;
  },

  resize(shape, m) {
    const k = dominant(m.lx, m.ly);
    const w = shape.w * k;
    const h = shape.h * k;
    return { ...shape, x: m.ncx - w / 2, y: m.ncy - h / 2, w, h };
  },
  style: { stroke: false, fill: false },
  restyle(patch, out) {
    if (patch.stickyColor !== undefined) out.color = patch.stickyColor;
  },
  editing: {
    mode: 'text',
    fontSize: () => 24,
    font: (_shape, textFont) => textFont,
    color: () => '#1f2328',
    background: (shape) => cssColor(shape.color),
    align: 'center',
  },
};
