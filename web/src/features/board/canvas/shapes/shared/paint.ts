/**
 * What the painters of every shape kind share (no kind of its own, no registry): the per-item
 * paint cache (paths in world coordinates, made once per record version), Path2D builders, line
 * patterns, ink and fills, arrowheads, centred text and the grey bars text becomes when too small
 * to read. The kind modules (../*.ts) paint with them; canvas/painters.ts dispatches to the kinds.
 */
import type { ShapeRecord } from '@wb/proto';
import type { SceneItem } from '../../scene';
import { cssFont, type FittedText, type TextLayout } from '../../textLayout';
import { backgroundIsDark, inkColor, rgba, uiColors, type PaintContext } from '../../theme';
import { cssColor, isFilled } from './geometry';

/** draws a scene item (world transform set) */
export type Painter = (g: CanvasRenderingContext2D, item: SceneItem, ctx: PaintContext) => void;

/** below this many screen pixels a shape is a dot (one fillRect) */
export const LOD_SHAPE_PX = 1.5;
/** below this font size in screen pixels text is drawn as grey bars */
export const LOD_TEXT_PX = 4;
export const SANS = 'sans-serif';

export interface PaintCache {
  /** the stroke / outline path in world coordinates */
  path?: Path2D;
  /** arrowheads (world coordinates) */
  heads?: Path2D;
  /** sticky note, shape label: the fitted text (textLayout.fitText) */
  fitted?: FittedText & { box: { x: number; y: number; w: number; h: number } };
}
export const cacheOf = (item: SceneItem): PaintCache => (item.paint ??= {}) as PaintCache;

/** a path that records nothing: jsdom has no Path2D, and tool tests draw previews on mocks */
class NoPath {
  moveTo(): void {}
  lineTo(): void {}
  bezierCurveTo(): void {}
  arc(): void {}
  ellipse(): void {}
  rect(): void {}
  closePath(): void {}
}
export function newPath(): Path2D {
  return typeof Path2D === 'function' ? new Path2D() : (new NoPath() as unknown as Path2D);
}

export function polyPath(pts: ArrayLike<number>, ox: number, oy: number, closed: boolean): Path2D {
  const p = newPath();
  if (pts.length < 2) return p;
  p.moveTo(pts[0]! + ox, pts[1]! + oy);
  if (pts.length === 2) p.lineTo(pts[0]! + ox + 0.01, pts[1]! + oy); // a dot
  for (let i = 2; i + 1 < pts.length; i += 2) p.lineTo(pts[i]! + ox, pts[i + 1]! + oy);
  if (closed) p.closePath();
  return p;
}

/** draw a freehand polyline (committed or in progress) in world coordinates */
export function drawStroke(g: CanvasRenderingContext2D, points: ArrayLike<number>, color: string, width: number): void {
  g.strokeStyle = color;
  g.lineWidth = width;
  g.lineCap = 'round';
  g.lineJoin = 'round';
  g.stroke(polyPath(points, 0, 0, false));
}

/** stroke style of a line pattern; returns whether state was saved (the caller restores) */
export function applyPattern(
  g: CanvasRenderingContext2D,
  shape: ShapeRecord,
  ctx: PaintContext,
  width: number,
): boolean {
  const pattern = shape.linePattern ?? 'pen';
  g.lineWidth = width;
  g.lineJoin = 'round';
  switch (pattern) {
    case 'dashed':
      g.save();
      g.lineCap = 'butt';
      g.setLineDash([width * 3, width * 2]);
      return true;
    case 'dotted':
      g.save();
      g.lineCap = 'round';
      g.setLineDash([0.001, width * 2]);
      return true;
    case 'marker':
      g.lineCap = 'butt';
      return false;
    case 'highlighter':
      g.save();
      g.lineCap = 'butt';
      g.globalAlpha *= 0.35;
      // multiply keeps what is underneath readable on light paper; on dark surfaces it would vanish
      if (!backgroundIsDark(ctx.background, ctx.theme)) g.globalCompositeOperation = 'multiply';
      return true;
    default:
      g.lineCap = 'round';
      return false;
  }
}

export function strokeInk(shape: ShapeRecord, ctx: PaintContext): string {
  return inkColor(shape.strokeColor ?? 0, ctx);
}

export function fillStyleOf(shape: ShapeRecord): string | null {
  if (!isFilled(shape)) return null;
  const c = shape.fillColor as number;
  return shape.fill === 'semi' ? rgba(c, 0.3) : cssColor(c);
}

// ---------------------------------------------------------------------------------------------
// Arrowheads (lines and connectors)

export function arrowHeads(
  path: ArrayLike<number>,
  ox: number,
  oy: number,
  start: boolean,
  end: boolean,
  size: number,
): Path2D {
  const p = newPath();
  const n = path.length;
  const head = (tx: number, ty: number, fx: number, fy: number) => {
    const a = Math.atan2(ty - fy, tx - fx);
    const spread = 0.45;
    p.moveTo(tx + ox, ty + oy);
    p.lineTo(tx + ox - size * Math.cos(a - spread), ty + oy - size * Math.sin(a - spread));
    p.lineTo(tx + ox - size * Math.cos(a + spread), ty + oy - size * Math.sin(a + spread));
    p.closePath();
  };
  if (n >= 4) {
    if (end) head(path[n - 2]!, path[n - 1]!, path[n - 4]!, path[n - 3]!);
    if (start) head(path[0]!, path[1]!, path[2]!, path[3]!);
  }
  return p;
}

/** the path with its ends pulled back under arrowheads, so a wide stroke does not poke through */
export function trimmedForHeads(path: ArrayLike<number>, start: boolean, end: boolean, by: number): number[] {
  const out = Array.from(path);
  const n = out.length;
  if (n < 4) return out;
  const pull = (i: number, j: number) => {
    const dx = out[i]! - out[j]!;
    const dy = out[i + 1]! - out[j + 1]!;
    const len = Math.hypot(dx, dy);
    if (len <= by) return;
    out[i] = out[i]! - (dx / len) * by;
    out[i + 1] = out[i + 1]! - (dy / len) * by;
  };
  if (end) pull(n - 2, n - 4);
  if (start) pull(0, 2);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Text

/** centred lines in a box (labels, sticky notes: laid out by textLayout's fitText) */
export function centredText(
  g: CanvasRenderingContext2D,
  layout: TextLayout,
  font: string,
  fontSize: number,
  x: number,
  y: number,
  w: number,
  h: number,
  color: string,
  ctx: PaintContext,
): void {
  const top = y + (h - layout.height) / 2;
  if (fontSize * ctx.zoom < LOD_TEXT_PX) {
    textBars(g, layout.lines, fontSize, layout.lineHeight, x, top, w, 'center', ctx);
    return;
  }
  g.fillStyle = color;
  g.font = cssFont(font, fontSize);
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  for (let i = 0; i < layout.lines.length; i++)
    g.fillText(layout.lines[i]!, x + w / 2, top + layout.lineHeight * (i + 0.5));
  g.textAlign = 'left';
}

/** text too small to read: one grey bar per line (as wide as the line's estimate) */
export function textBars(
  g: CanvasRenderingContext2D,
  lines: readonly string[],
  fontSize: number,
  lineHeight: number,
  x: number,
  top: number,
  w: number,
  align: 'left' | 'center',
  ctx: PaintContext,
): void {
  g.fillStyle = uiColors(ctx).textBar;
  for (let i = 0; i < lines.length; i++) {
    const lw = Math.min(w > 0 ? w : Infinity, lines[i]!.length * fontSize * 0.5);
    if (lw <= 0) continue;
    const lx = align === 'center' ? x + (w - lw) / 2 : x;
    g.fillRect(lx, top + lineHeight * i + fontSize * 0.25, lw, fontSize * 0.6);
  }
}
