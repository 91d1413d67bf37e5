/**
 * A text box (`text`): lines wrapped to its width w (no width: one line per paragraph), in its
 * font, size and colour; its height follows the text. Resizing scales the font with the height
 * and wraps to the new width. A double click (or the text tool) edits it in place; committing it
 * empty deletes it.
 */
import type { TextShape } from '@wb/proto';
import { cssFont, layoutText } from '../textLayout';
import { inkColor } from '../theme';
import { boxGeometry, cssColor, num, str } from './shared/geometry';
import { LOD_TEXT_PX, SANS, textBars } from './shared/paint';
import { clampFont } from './shared/resize';
import { textValue } from './shared/vector';
import type { ShapeUtil } from './types';

export const textUtil: ShapeUtil<TextShape> = {
  kind: 'text',

  geometry(shape) {
    const w = num(shape.w);
    const fontSize = num(shape.fontSize, 16);
    const h = Math.max(
      fontSize * 1.25,
      layoutText(str(shape.text), str(shape.font) || 'sans-serif', fontSize, w || Infinity).height,
    );
    return boxGeometry(shape, w, h);
  },

  paint(g, item, ctx) {
    const shape = item.shape as TextShape;
    const value = typeof shape.text === 'string' ? shape.text : '';
    const font = shape.font || SANS;
    const layout = layoutText(value, font, shape.fontSize, shape.w > 0 ? shape.w : Infinity);
    if (shape.fontSize * ctx.zoom < LOD_TEXT_PX) {
      textBars(g, layout.lines, shape.fontSize, layout.lineHeight, shape.x, shape.y, shape.w, 'left', ctx);
      return;
    }
    g.fillStyle = inkColor(shape.color ?? 0, ctx);
    g.font = cssFont(font, shape.fontSize);
    g.textAlign = 'left';
    g.textBaseline = 'middle';
    for (let i = 0; i < layout.lines.length; i++)
      g.fillText(layout.lines[i]!, shape.x, shape.y + layout.lineHeight * (i + 0.5));
  },

  dotColor: (shape, ctx) => inkColor(shape.color ?? 0, ctx),

  vector(item, ctx) {
    const shape = item.shape as TextShape;
    const fontSize = num(shape.fontSize, 16);
    const font = textValue(shape.font) || SANS;
    const w = num(shape.w);
    const layout = layoutText(textValue(shape.text), font, fontSize, w > 0 ? w : Infinity);
    return [
      {
        t: 'text',
        lines: layout.lines,
        x: shape.x,
        top: shape.y,
        width: w > 0 ? w : layout.width,
        lineHeight: layout.lineHeight,
        fontSize,
        font,
        color: inkColor(shape.color ?? 0, ctx.paint),
        align: 'left',
      },
    ];
  },

  resize(shape, m) {
    const w = shape.w * m.lx;
    const h = m.box.h * m.ly;
    return { ...shape, x: m.ncx - w / 2, y: m.ncy - h / 2, w, fontSize: clampFont(shape.fontSize * m.ly) };
  },
  style: { stroke: false, fill: false },
  restyle(patch, out) {
    if (patch.textColor !== undefined) out.color = patch.textColor;
    if (patch.textSize !== undefined) out.fontSize = patch.textSize;
    if (patch.textFont !== undefined) out.font = patch.textFont;
  },
  editing: {
    mode: 'text',
    fontSize: (shape) => shape.fontSize,
    font: (shape) => shape.font,
    color: (shape) => cssColor(shape.color),
    background: () => undefined,
    align: 'left',
    removeWhenEmpty: true,
  },
};
