/**
 * The graph shape on the canvas: the rendered SVG as an image in its box, faint axes while
 * function-plot loads, and a readable message in the box when it cannot be drawn. Never throws.
 */
import type { GraphShape } from '@wb/proto';
import { backgroundIsDark, uiColors, type PaintContext } from '../canvas/theme';
import { graphImages, type GraphImageCache } from './graphImages';

type GraphBox = Pick<GraphShape, 'spec' | 'x' | 'y' | 'w' | 'h'>;

export function paintGraph(
  g: CanvasRenderingContext2D,
  shape: GraphBox,
  ctx: PaintContext,
  cache: GraphImageCache = graphImages,
): void {
  const { x, y } = shape;
  const w = Math.max(0, shape.w);
  const h = Math.max(0, shape.h);
  const dark = backgroundIsDark(ctx.background, ctx.theme);
  const dpr = typeof devicePixelRatio === 'number' && devicePixelRatio > 0 ? devicePixelRatio : 1;
  const spec = typeof shape.spec === 'string' ? shape.spec : '';
  const graph = cache.get(spec, w, h, dark, ctx.zoom * dpr, ctx.onAsset);
  if (graph.state === 'loading') ctx.onPending?.();
  if (graph.image) {
    g.drawImage(graph.image, x, y, w, h);
    return;
  }
  placeholder(g, x, y, w, h, ctx);
  if (graph.state === 'error') message(g, graph.message ?? 'The graph could not be drawn.', x, y, w, h, ctx, dark);
}

/** a frame with faint axes: the box reads as a graph before it is plotted */
function placeholder(g: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, ctx: PaintContext): void {
  const ui = uiColors(ctx);
  g.lineWidth = 1 / Math.max(ctx.zoom, 1e-6);
  g.strokeStyle = ui.frame;
  g.strokeRect(x, y, w, h);
  g.strokeStyle = ui.glyph;
  g.beginPath();
  g.moveTo(x, y + h / 2);
  g.lineTo(x + w, y + h / 2);
  g.moveTo(x + w / 2, y);
  g.lineTo(x + w / 2, y + h);
  g.stroke();
}

function message(
  g: CanvasRenderingContext2D,
  text: string,
  x: number,
  y: number,
  w: number,
  h: number,
  ctx: PaintContext,
  dark: boolean,
): void {
  const size = Math.max(8, Math.min(14, h / 10));
  if (size * ctx.zoom < 4) return; // unreadably small: the frame says enough
  g.save();
  g.beginPath();
  g.rect(x, y, w, h);
  g.clip();
  g.fillStyle = dark ? '#ff8a80' : '#b42318';
  g.font = `${size}px sans-serif`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(text, x + w / 2, y + h / 2 + size, Math.max(1, w - size));
  g.restore();
}
