/**
 * A formula (`formula`): LaTeX typeset by MathJax (loaded on the first one: formula/), drawn as
 * its image in its box, its source in a frame until then. Typeset records store their rendered
 * size (w, h); older ones are sized from their source. Resizing scales the font; a double click
 * opens the formula panel, and closing it empty deletes the formula.
 */
import type { FormulaShape } from '@wb/proto';
import { paintFormula } from '../../formula/paintFormula';
import { inkColor } from '../theme';
import { boxGeometry, cachedGeometry, formulaSize, num, str, type ShapeGeometry } from './shared/geometry';
import { clampFont, dominant } from './shared/resize';
import { placeholderBox, textValue } from './shared/vector';
import type { ShapeUtil } from './types';

function geometry(shape: FormulaShape): ShapeGeometry {
  // typeset formulas store their rendered size; older records are sized from their source
  const { w, h } =
    typeof shape.w === 'number' && typeof shape.h === 'number'
      ? { w: num(shape.w), h: num(shape.h) }
      : formulaSize(str(shape.latex), num(shape.fontSize, 20));
  return boxGeometry(shape, w, h);
}

export const formulaUtil: ShapeUtil<FormulaShape> = {
  kind: 'formula',
  geometry,

  paint(g, item, ctx) {
    const shape = item.shape as FormulaShape;
    paintFormula(g, shape, cachedGeometry(shape, item.points, geometry).box, ctx);
  },

  dotColor: (shape, ctx) => inkColor(shape.color ?? 0, ctx),

  vector(item, ctx) {
    const shape = item.shape as FormulaShape;
    const { box } = cachedGeometry(shape, item.points, geometry);
    const svg = ctx.fragments?.get(shape.id);
    if (svg) return [{ t: 'svg', svg, x: box.x, y: box.y, w: box.w, h: box.h }];
    return placeholderBox(
      box,
      textValue(shape.latex),
      inkColor(shape.color ?? 0, ctx.paint),
      num(shape.fontSize) || 20,
      ctx,
      false,
    );
  },
  typeset: true,

  resize(shape, m) {
    const fontSize = clampFont(shape.fontSize * dominant(m.lx, m.ly));
    // the rendered size (w/h, when stored) grows with the font; the box follows the clamped size
    const k = fontSize / shape.fontSize;
    const sized = typeof shape.w === 'number' && typeof shape.h === 'number' ? { w: shape.w * k, h: shape.h * k } : {};
    return { ...shape, ...sized, x: m.ncx - (m.box.w * k) / 2, y: m.ncy - (m.box.h * k) / 2, fontSize };
  },
  style: { stroke: false, fill: false },
  restyle(patch, out) {
    if (patch.textColor !== undefined) out.color = patch.textColor;
  },
  editing: { mode: 'panel', removeOnClose: (shape) => !String(shape.latex ?? '').trim() },
};
