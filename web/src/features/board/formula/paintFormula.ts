/**
 * How a formula is drawn on the board: its typeset image (formulaImages.ts, MathJax loaded on
 * the first one) inside the shape's box, in ink readable on the surface (a black formula is
 * drawn light on the blackboard and in dark mode). Until MathJax is ready, or when the LaTeX
 * cannot be typeset, the box shows its source in a thin frame, so nothing on the board breaks.
 *
 * The box is the typeset size plus FORMULA_PAD_EM of the font size on every side (formulaBox:
 * the panel stores it in the record as w/h, so every peer's bounds match).
 */
import type { FormulaShape } from '@wb/proto';
import { FORMULA_FONT } from '../canvas/shapes/shared/geometry';
import { cssFont, layoutText } from '../canvas/textLayout';
import { inkColor, uiColors, type PaintContext } from '../canvas/theme';
import { formulaImages, type FormulaImageCache } from './formulaImages';

/** room around the typeset formula, in em */
export const FORMULA_PAD_EM = 0.25;
/** below this font size in screen pixels the source text is drawn as grey bars */
const LOD_TEXT_PX = 4;

/** a shape's unrotated box in world units */
type Box = { x: number; y: number; w: number; h: number };

/** the box of a formula typeset at `fontSize` as `width`×`height` world units */
export function formulaBox(width: number, height: number, fontSize: number): { w: number; h: number } {
  const pad = 2 * FORMULA_PAD_EM * fontSize;
  const round = (v: number) => Math.round(v * 100) / 100;
  return { w: round(width + pad), h: round(height + pad) };
}

/** draw `shape` into `box` (its unrotated world box; the world transform is set) */
export function paintFormula(
  g: CanvasRenderingContext2D,
  shape: FormulaShape,
  box: Box,
  ctx: PaintContext,
  images: FormulaImageCache = formulaImages,
): void {
  const latex = typeof shape.latex === 'string' ? shape.latex : '';
  const fontSize = shape.fontSize > 0 ? shape.fontSize : 20;
  const color = inkColor(shape.color ?? 0, ctx);
  if (!latex.trim()) {
    frame(g, box, ctx);
    return;
  }
  const img = images.get(latex, { fontSize, color, alignment: shape.alignment }, ctx.onAsset);
  if (img.state !== 'ready' || !img.image || img.width <= 0 || img.height <= 0) {
    if (img.state === 'loading') ctx.onPending?.();
    sourceInFrame(g, box, latex, color, fontSize, ctx);
    return;
  }
  // fit the image into the padded box, keeping its proportions (older records' boxes were guessed)
  const pad = Math.min(FORMULA_PAD_EM * fontSize, box.w / 4, box.h / 4);
  const k = Math.min((box.w - 2 * pad) / img.width, (box.h - 2 * pad) / img.height);
  if (!(k > 0)) return;
  const w = img.width * k;
  const h = img.height * k;
  const x =
    shape.alignment === 'left'
      ? box.x + pad
      : shape.alignment === 'right'
        ? box.x + box.w - pad - w
        : box.x + (box.w - w) / 2;
  g.drawImage(img.image, x, box.y + (box.h - h) / 2, w, h);
}

function frame(g: CanvasRenderingContext2D, box: Box, ctx: PaintContext): void {
  g.beginPath();
  g.rect(box.x, box.y, box.w, box.h);
  g.lineWidth = 1 / Math.max(ctx.zoom, 1e-6);
  g.strokeStyle = uiColors(ctx).frame;
  g.stroke();
}

/** the LaTeX source in a thin frame (MathJax still loading, or the LaTeX has an error) */
function sourceInFrame(
  g: CanvasRenderingContext2D,
  box: Box,
  latex: string,
  color: string,
  fontSize: number,
  ctx: PaintContext,
): void {
  g.save();
  frame(g, box, ctx);
  g.clip();
  const pad = Math.min(fontSize * FORMULA_PAD_EM, box.w / 4);
  const layout = layoutText(latex, FORMULA_FONT, fontSize, Infinity);
  if (fontSize * ctx.zoom < LOD_TEXT_PX) {
    g.fillStyle = uiColors(ctx).textBar;
    for (let i = 0; i < layout.lines.length; i++) {
      const lw = Math.min(box.w - 2 * pad, layout.lines[i]!.length * fontSize * 0.5);
      if (lw > 0) g.fillRect(box.x + pad, box.y + pad + layout.lineHeight * i + fontSize * 0.25, lw, fontSize * 0.6);
    }
  } else {
    g.fillStyle = color;
    g.font = cssFont(FORMULA_FONT, fontSize);
    g.textAlign = 'left';
    g.textBaseline = 'middle';
    for (let i = 0; i < layout.lines.length; i++)
      g.fillText(layout.lines[i]!, box.x + pad, box.y + pad + layout.lineHeight * (i + 0.5));
  }
  g.restore();
}
