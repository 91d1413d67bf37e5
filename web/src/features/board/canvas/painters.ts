/**
 * How each shape kind is drawn on a Canvas2D context (world transform already set). Paths are
 * built in world coordinates and cached on the scene item, so a frame is mostly stroke/fill
 * calls; state is saved only for the shapes that change it (rotation, opacity, dashes, clips).
 * Tools draw uncommitted records with paintShape, through the same painters.
 */
import { getStroke } from 'perfect-freehand';
import type { ShapeKind, ShapeRecord } from '@wb/proto';
import {
  arrowSize,
  connectorPath,
  cssColor,
  curveBeziers,
  drawnStrokeWidth,
  isFilled,
  shapeGeometry,
} from './geometry';
import { documentPageUrl, imageCache, imageUrl } from './imageCache';
import { paintGraph } from '../graph/paintGraph';
import { paintFormula } from '../formula/paintFormula';
import { makeItem, type SceneItem } from './scene';
import { cssFont, layoutText, shapeLabelText, stickyText, type FittedText, type TextLayout } from './textLayout';
import { DEFAULT_PAINT_CONTEXT, backgroundIsDark, inkColor, rgba, stickyTextColor, uiColors } from './theme';
import type { PaintContext } from './theme';

export type { PaintContext } from './theme';
export { inkColor } from './theme';

export type Painter = (g: CanvasRenderingContext2D, item: SceneItem, ctx: PaintContext) => void;

/** below this many screen pixels a shape is a dot (one fillRect) */
export const LOD_SHAPE_PX = 1.5;
/** below this font size in screen pixels text is drawn as grey bars */
export const LOD_TEXT_PX = 4;
const SANS = 'sans-serif';

interface PaintCache {
  /** the stroke / outline path in world coordinates */
  path?: Path2D;
  /** arrowheads (world coordinates) */
  heads?: Path2D;
  /** sticky note, shape label: the fitted text (textLayout.fitText) */
  fitted?: FittedText & { box: { x: number; y: number; w: number; h: number } };
}
const cacheOf = (item: SceneItem): PaintCache => (item.paint ??= {}) as PaintCache;

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
function newPath(): Path2D {
  return typeof Path2D === 'function' ? new Path2D() : (new NoPath() as unknown as Path2D);
}

function polyPath(pts: ArrayLike<number>, ox: number, oy: number, closed: boolean): Path2D {
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
function applyPattern(g: CanvasRenderingContext2D, shape: ShapeRecord, ctx: PaintContext, width: number): boolean {
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

function strokeInk(shape: ShapeRecord, ctx: PaintContext): string {
  return inkColor(shape.strokeColor ?? 0, ctx);
}

function fillStyleOf(shape: ShapeRecord): string | null {
  if (!isFilled(shape)) return null;
  const c = shape.fillColor as number;
  return shape.fill === 'semi' ? rgba(c, 0.3) : cssColor(c);
}

// ---------------------------------------------------------------------------------------------
// Strokes

type PenShape = Extract<ShapeRecord, { kind: 'pen' }>;

/** a pen stroke's pressures when there is one per point (and at least two points), else null */
function usablePressures(shape: PenShape, pts: ArrayLike<number>): Uint8Array | null {
  const p = shape.pressures;
  return p instanceof Uint8Array && p.length * 2 >= pts.length && pts.length >= 4 ? p : null;
}

/**
 * A pressure stroke's filled outline (perfect-freehand) as flat world x,y pairs, or null when the
 * stroke has no usable pressures (it is drawn as a line of its width). The board and the vector
 * export both draw this outline, so they cannot drift apart.
 */
export function pressureOutline(shape: PenShape, pts: ArrayLike<number>): number[] | null {
  const pressures = usablePressures(shape, pts);
  if (!pressures) return null;
  const input: number[][] = [];
  for (let i = 0; i + 1 < pts.length; i += 2)
    input.push([pts[i]! + shape.x, pts[i + 1]! + shape.y, pressures[i / 2]! / 255]);
  const outline = getStroke(input, {
    size: drawnStrokeWidth(shape),
    thinning: 0.6,
    smoothing: 0.5,
    streamline: 0.3,
    simulatePressure: false,
    last: true,
  });
  const flat: number[] = [];
  for (const [x, y] of outline) flat.push(x!, y!);
  return flat;
}

const pen: Painter = (g, item, ctx) => {
  const shape = item.shape as PenShape;
  const cache = cacheOf(item);
  const width = drawnStrokeWidth(shape);
  const pts = item.points;
  const color = strokeInk(shape, ctx);
  if (usablePressures(shape, pts)) {
    // pressure-sensitive: perfect-freehand's outline, filled (made once per stroke version)
    cache.path ??= polyPath(pressureOutline(shape, pts)!, 0, 0, true);
    const saved = applyPattern(g, shape, ctx, width);
    g.fillStyle = color;
    g.fill(cache.path);
    if (saved) g.restore();
    return;
  }
  // constant width ("fixed width" or no pressure): a round-capped stroke looks the same and is cheap
  cache.path ??= polyPath(pts, shape.x, shape.y, false);
  const saved = applyPattern(g, shape, ctx, width);
  g.strokeStyle = color;
  g.stroke(cache.path);
  if (saved) g.restore();
};

function arrowHeads(
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

const lineLike: Painter = (g, item, ctx) => {
  const shape = item.shape as Extract<ShapeRecord, { kind: 'line' | 'connector' }>;
  const cache = cacheOf(item);
  const width = drawnStrokeWidth(shape);
  const start = !!shape.arrowStart;
  const end = !!shape.arrowEnd;
  if (!cache.path) {
    const route =
      shape.kind === 'connector' ? connectorPath(item.points, !!shape.elbow, shape.fromAnchor) : item.points;
    const size = arrowSize(width);
    cache.path = polyPath(
      start || end ? trimmedForHeads(route, start, end, size * 0.7) : route,
      shape.x,
      shape.y,
      false,
    );
    if (start || end) cache.heads = arrowHeads(route, shape.x, shape.y, start, end, size);
  }
  const color = strokeInk(shape, ctx);
  const saved = applyPattern(g, shape, ctx, width);
  g.strokeStyle = color;
  g.stroke(cache.path);
  if (saved) g.restore();
  if (cache.heads) {
    g.fillStyle = color;
    g.fill(cache.heads);
  }
};

const polyline: Painter = (g, item, ctx) => {
  const shape = item.shape as Extract<ShapeRecord, { kind: 'polyline' | 'curve' }>;
  const cache = cacheOf(item);
  const closed = !!shape.closed;
  if (!cache.path) {
    if (shape.kind === 'curve' && item.points.length >= 4) {
      const p = newPath();
      const pts = item.points;
      p.moveTo(pts[0]! + shape.x, pts[1]! + shape.y);
      const bz = curveBeziers(pts, closed);
      for (let i = 0; i + 5 < bz.length; i += 6)
        p.bezierCurveTo(
          bz[i]! + shape.x,
          bz[i + 1]! + shape.y,
          bz[i + 2]! + shape.x,
          bz[i + 3]! + shape.y,
          bz[i + 4]! + shape.x,
          bz[i + 5]! + shape.y,
        );
      if (closed) p.closePath();
      cache.path = p;
    } else cache.path = polyPath(item.points, shape.x, shape.y, closed);
  }
  const fill = closed ? fillStyleOf(shape) : null;
  if (fill) {
    g.fillStyle = fill;
    g.fill(cache.path);
  }
  if ((shape.strokeWidth ?? 3) > 0) {
    const saved = applyPattern(g, shape, ctx, drawnStrokeWidth(shape));
    g.strokeStyle = strokeInk(shape, ctx);
    g.stroke(cache.path);
    if (saved) g.restore();
  }
};

const arc: Painter = (g, item, ctx) => {
  const shape = item.shape as Extract<ShapeRecord, { kind: 'arc' }>;
  const cache = cacheOf(item);
  if (!cache.path) {
    const p = newPath();
    const r = Math.max(0, shape.r);
    p.arc(shape.x, shape.y, r, shape.startAngle, shape.endAngle, shape.endAngle < shape.startAngle);
    cache.path = p;
  }
  const saved = applyPattern(g, shape, ctx, drawnStrokeWidth(shape));
  g.strokeStyle = strokeInk(shape, ctx);
  g.stroke(cache.path);
  if (saved) g.restore();
};

// ---------------------------------------------------------------------------------------------
// Areas

/** centred lines in a box (labels, sticky notes: laid out by textLayout's fitText) */
function centredText(
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
function textBars(
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

const geometric: Painter = (g, item, ctx) => {
  const shape = item.shape as Extract<ShapeRecord, { kind: 'shape' }>;
  const geo = shapeGeometry(shape, item.points);
  const { box } = geo;
  const cache = cacheOf(item);
  if (!cache.path) {
    if (shape.shapeType === 'ellipse') {
      const p = newPath();
      p.ellipse(
        box.x + box.w / 2,
        box.y + box.h / 2,
        Math.max(0, box.w / 2),
        Math.max(0, box.h / 2),
        0,
        0,
        2 * Math.PI,
      );
      cache.path = p;
    } else cache.path = polyPath(geo.outline!, box.x, box.y, true);
  }
  const fill = fillStyleOf(shape);
  if (fill) {
    g.fillStyle = fill;
    g.fill(cache.path);
  }
  const sw = shape.strokeWidth ?? 2;
  if (sw > 0) {
    const saved = applyPattern(g, shape, ctx, drawnStrokeWidth(shape));
    if (shape.linePattern === 'marker' || !shape.linePattern || shape.linePattern === 'pen') g.lineJoin = 'round';
    g.strokeStyle = strokeInk(shape, ctx);
    g.stroke(cache.path);
    if (saved) g.restore();
  }
  const label = typeof shape.text === 'string' ? shape.text : '';
  if (label.trim()) {
    // inside the inner 80 %: triangles and stars leave less room, the label still stays centred
    const fitted = (cache.fitted ??= shapeLabelText(label, SANS, box.x, box.y, box.w, box.h));
    const color =
      fill && shape.fill === 'solid'
        ? stickyTextColor(shape.fillColor as number)
        : inkColor(shape.strokeColor ?? 0, ctx);
    const b = fitted.box;
    centredText(g, fitted.layout, SANS, fitted.fontSize, b.x, b.y, b.w, b.h, color, ctx);
  }
};

const sticky: Painter = (g, item, ctx) => {
  const shape = item.shape as Extract<ShapeRecord, { kind: 'sticky' }>;
  const { x, y } = shape;
  const w = Math.max(0, shape.w);
  const h = Math.max(0, shape.h);
  // a soft shadow from two offset translucent rectangles: blur shadows cost too much per note
  const d = Math.max(1.5, Math.min(w, h) * 0.02);
  g.fillStyle = 'rgba(0,0,0,0.07)';
  g.fillRect(x + d * 0.5, y + d * 1.5, w + d, h + d);
  g.fillStyle = 'rgba(0,0,0,0.10)';
  g.fillRect(x + d * 0.25, y + d * 0.75, w, h);
  g.fillStyle = cssColor(shape.color, '#fff59d');
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
};

const text: Painter = (g, item, ctx) => {
  const shape = item.shape as Extract<ShapeRecord, { kind: 'text' }>;
  const str = typeof shape.text === 'string' ? shape.text : '';
  const font = shape.font || SANS;
  const layout = layoutText(str, font, shape.fontSize, shape.w > 0 ? shape.w : Infinity);
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
};

const formula: Painter = (g, item, ctx) => {
  const shape = item.shape as Extract<ShapeRecord, { kind: 'formula' }>;
  paintFormula(g, shape, shapeGeometry(shape, item.points).box, ctx);
};

const graph: Painter = (g, item, ctx) => {
  paintGraph(g, item.shape as Extract<ShapeRecord, { kind: 'graph' }>, ctx);
};

/** image glyph (a frame with a mountain and a sun) or, when broken, a frame with a cross */
function assetPlaceholder(
  g: CanvasRenderingContext2D,
  x: number,
  y: number,
  w: number,
  h: number,
  broken: boolean,
  ctx: PaintContext,
): void {
  const ui = uiColors(ctx);
  g.fillStyle = ui.placeholder;
  g.fillRect(x, y, w, h);
  const s = Math.min(w, h) * 0.3;
  if (s * ctx.zoom < 6) return;
  const cx = x + w / 2;
  const cy = y + h / 2;
  g.strokeStyle = ui.glyph;
  g.fillStyle = ui.glyph;
  g.lineWidth = s * 0.08;
  g.lineJoin = 'round';
  g.strokeRect(cx - s, cy - s * 0.75, 2 * s, 1.5 * s);
  if (broken) {
    g.beginPath();
    g.moveTo(cx - s * 0.5, cy - s * 0.4);
    g.lineTo(cx + s * 0.5, cy + s * 0.4);
    g.moveTo(cx + s * 0.5, cy - s * 0.4);
    g.lineTo(cx - s * 0.5, cy + s * 0.4);
    g.stroke();
    return;
  }
  g.beginPath();
  g.moveTo(cx - s * 0.85, cy + s * 0.6);
  g.lineTo(cx - s * 0.3, cy - s * 0.1);
  g.lineTo(cx + s * 0.1, cy + s * 0.3);
  g.lineTo(cx + s * 0.4, cy);
  g.lineTo(cx + s * 0.85, cy + s * 0.6);
  g.closePath();
  g.fill();
  g.beginPath();
  g.arc(cx + s * 0.45, cy - s * 0.35, s * 0.15, 0, 2 * Math.PI);
  g.fill();
}

function bitmap(url: string): Painter {
  return (g, item, ctx) => {
    const shape = item.shape as Extract<ShapeRecord, { kind: 'image' | 'documentPage' }>;
    const { x, y } = shape;
    const w = Math.max(0, shape.w);
    const h = Math.max(0, shape.h);
    const asset = imageCache.get(
      url === 'doc' ? documentPageUrl(shape.fileId, (shape as { page: number }).page) : imageUrl(shape.fileId),
      ctx.onAsset,
    );
    if (asset.state === 'ready' && asset.image) g.drawImage(asset.image, x, y, w, h);
    else assetPlaceholder(g, x, y, w, h, asset.state === 'error', ctx);
  };
}

export const PAINTERS: Record<ShapeKind, Painter> = {
  pen,
  line: lineLike,
  connector: lineLike,
  arc,
  polyline,
  curve: polyline,
  shape: geometric,
  sticky,
  text,
  formula,
  graph,
  image: bitmap('image'),
  documentPage: bitmap('doc'),
};

const outline: Painter = (g, item) => {
  const b = item.bounds;
  g.save();
  g.setLineDash([4, 4]);
  g.strokeStyle = '#888888';
  g.lineWidth = 1;
  g.strokeRect(b.minX, b.minY, b.maxX - b.minX, b.maxY - b.minY);
  g.restore();
};

/** the colour a shape is drawn with when it is only a dot on screen */
function dotColor(shape: ShapeRecord, ctx: PaintContext): string {
  switch (shape.kind) {
    case 'sticky':
      return cssColor(shape.color, '#fff59d');
    case 'text':
    case 'formula':
      return inkColor(shape.color ?? 0, ctx);
    case 'image':
    case 'documentPage':
    case 'graph':
      return uiColors(ctx).placeholder;
    case 'shape':
      return isFilled(shape) ? cssColor(shape.fillColor) : inkColor(shape.strokeColor ?? 0, ctx);
    default:
      return inkColor(shape.strokeColor ?? 0, ctx);
  }
}

/** a shape under LOD_SHAPE_PX on screen: one fillRect of its bounds (at least a hairline) */
export function paintDot(g: CanvasRenderingContext2D, item: SceneItem, ctx: PaintContext): void {
  const b = item.bounds;
  const min = 1 / Math.max(ctx.zoom, 1e-6);
  g.fillStyle = dotColor(item.shape, ctx);
  g.fillRect(b.minX, b.minY, Math.max(min, b.maxX - b.minX), Math.max(min, b.maxY - b.minY));
}

export function isDot(item: SceneItem, zoom: number): boolean {
  const b = item.bounds;
  return Math.max(b.maxX - b.minX, b.maxY - b.minY) * zoom < LOD_SHAPE_PX;
}

/** draw a scene item (world transform set) */
export function paintItem(
  g: CanvasRenderingContext2D,
  item: SceneItem,
  ctx: PaintContext = DEFAULT_PAINT_CONTEXT,
): void {
  if (isDot(item, ctx.zoom)) {
    paintDot(g, item, ctx);
    return;
  }
  const shape = item.shape;
  const painter = PAINTERS[shape.kind] ?? outline;
  const rotation = typeof shape.rotation === 'number' ? shape.rotation : 0;
  const alpha = typeof shape.opacity === 'number' ? shape.opacity : 1;
  if (!rotation && alpha === 1) {
    painter(g, item, ctx);
    return;
  }
  g.save();
  if (alpha !== 1) g.globalAlpha *= Math.max(0, Math.min(1, alpha));
  if (rotation) {
    const { box } = shapeGeometry(shape, item.points);
    const cx = box.x + box.w / 2;
    const cy = box.y + box.h / 2;
    g.translate(cx, cy);
    g.rotate(rotation);
    g.translate(-cx, -cy);
  }
  painter(g, item, ctx);
  g.restore();
}

// previews are redrawn at pointer rate with the same record object: keep their paths
const previewItems = new WeakMap<ShapeRecord, SceneItem>();

/** draw a record that is not (yet) in the scene: tool previews, live resize/rotate */
export function paintShape(
  g: CanvasRenderingContext2D,
  shape: ShapeRecord,
  ctx: PaintContext = DEFAULT_PAINT_CONTEXT,
): void {
  let item = previewItems.get(shape);
  if (!item) previewItems.set(shape, (item = makeItem(shape)));
  paintItem(g, item, ctx);
}
