/**
 * Shapes as vector drawings for the SVG and PDF exports: the same geometry the painters draw
 * (geometry.ts, textLayout.ts, perfect-freehand, the line patterns and ink colours), described
 * as data (paths, text lines, images, SVG fragments) that svgExport writes as SVG elements and
 * pdfExport as PDF path and text operators. World coordinates throughout.
 */
import type { BoardBackground, ShapeRecord } from '@wb/proto';
import {
  adaptiveGridSpacing,
  ADAPTIVE_MAJOR_EVERY,
  dotGridSpacing,
  graphGridSpacing,
  GRAPH_MAJOR_EVERY,
  MARGIN_X,
  ruledSpacing,
  squaresSpacing,
  type GridSpacing,
} from '../canvas/background';
import type { Rect } from '../canvas/camera';
import {
  arrowSize,
  connectorPath,
  cssColor,
  curveBeziers,
  drawnStrokeWidth,
  FORMULA_FONT,
  isFilled,
  shapeGeometry,
} from '../canvas/geometry';
import { pressureOutline, trimmedForHeads } from '../canvas/painters';
import type { SceneItem } from '../canvas/scene';
import { layoutText, shapeLabelText, stickyText, type TextLayout } from '../canvas/textLayout';
import {
  backgroundIsDark,
  inkColor,
  stickyTextColor,
  surfaceColor,
  uiColors,
  type PaintContext,
} from '../canvas/theme';

// ---------------------------------------------------------------------------------------------
// The drawing model

/** path commands in a flat array: MOVE x y, LINE x y, CURVE c1x c1y c2x c2y x y, CLOSE */
export const MOVE = 0;
export const LINE = 1;
export const CURVE = 2;
export const CLOSE = 3;
export type PathData = number[];

export interface Paint {
  /** #rrggbb */
  color: string;
  alpha: number;
}
export interface StrokeStyle extends Paint {
  width: number;
  cap: 'round' | 'butt';
  join: 'round' | 'miter';
  dash: number[] | null;
}

export type Prim =
  | { t: 'path'; d: PathData; fill: Paint | null; stroke: StrokeStyle | null; multiply?: boolean }
  /** lines of text; line i's vertical middle is at top + lineHeight × (i + ½) like the painters' */
  | {
      t: 'text';
      lines: string[];
      x: number;
      top: number;
      width: number;
      lineHeight: number;
      fontSize: number;
      font: string;
      color: string;
      align: 'left' | 'center';
    }
  /** a raster image (a data: URL) */
  | { t: 'image'; href: string; x: number; y: number; w: number; h: number }
  /** an SVG fragment (a typeset formula, a plotted graph) stretched over the box */
  | { t: 'svg'; svg: string; x: number; y: number; w: number; h: number }
  /** prims drawn clipped to a rectangle */
  | { t: 'clip'; x: number; y: number; w: number; h: number; prims: Prim[] };

export interface ShapeDrawing {
  id: string;
  /** turned by `angle` radians about (cx, cy), like the painters' rotate */
  rotation: { angle: number; cx: number; cy: number } | null;
  opacity: number;
  prims: Prim[];
}

/** what a drawing depends on besides the shape */
export interface VectorContext {
  /** ink colours: the export draws in the light theme on its background */
  paint: Pick<PaintContext, 'theme' | 'background'>;
  /** typeset formulas and plotted graphs by shape id (collectFragments) */
  fragments?: ReadonlyMap<string, string | null>;
  /** loaded images and document pages by shape id, as data: URLs */
  images?: ReadonlyMap<string, string>;
}

/** renders a formula or graph as an SVG fragment (null: not possible, the placeholder is drawn) */
export type VectorFor = (shape: ShapeRecord) => Promise<string | null>;

/** where text's alphabetic baseline sits below the middle of its line, in em (canvas 'middle') */
export const BASELINE_SHIFT = 0.35;
const SANS = 'sans-serif';

/** the painting context of an export: light theme; a blackboard keeps its chalk ink when drawn */
export function exportPaint(background: BoardBackground, withBackground: boolean): PaintContext {
  return {
    theme: 'light',
    background: withBackground ? background : 'empty',
    zoom: 1,
    onAsset: () => undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// Paths

function polyD(pts: ArrayLike<number>, ox: number, oy: number, closed: boolean): PathData {
  const d: PathData = [];
  if (pts.length < 2) return d;
  d.push(MOVE, pts[0]! + ox, pts[1]! + oy);
  if (pts.length === 2) d.push(LINE, pts[0]! + ox + 0.01, pts[1]! + oy); // a dot, as painters draw it
  for (let i = 2; i + 1 < pts.length; i += 2) d.push(LINE, pts[i]! + ox, pts[i + 1]! + oy);
  if (closed) d.push(CLOSE);
  return d;
}

/** the circular arc as cubic beziers (PDF has no arcs), the way canvas arc() sweeps it */
export function arcD(cx: number, cy: number, r: number, start: number, end: number): PathData {
  let sweep = end - start;
  if (Math.abs(sweep) > 2 * Math.PI) sweep = Math.sign(sweep) * 2 * Math.PI;
  const n = Math.max(1, Math.ceil(Math.abs(sweep) / (Math.PI / 2) - 1e-9));
  const step = sweep / n;
  const k = (4 / 3) * Math.tan(step / 4);
  const d: PathData = [MOVE, cx + r * Math.cos(start), cy + r * Math.sin(start)];
  for (let i = 0; i < n; i++) {
    const a0 = start + i * step;
    const a1 = a0 + step;
    const c0 = Math.cos(a0);
    const s0 = Math.sin(a0);
    const c1 = Math.cos(a1);
    const s1 = Math.sin(a1);
    d.push(
      CURVE,
      cx + r * (c0 - k * s0),
      cy + r * (s0 + k * c0),
      cx + r * (c1 + k * s1),
      cy + r * (s1 - k * c1),
      cx + r * c1,
      cy + r * s1,
    );
  }
  return d;
}

/** an axis-aligned ellipse as four cubic beziers */
export function ellipseD(cx: number, cy: number, rx: number, ry: number): PathData {
  const k = 0.5522847498;
  // prettier-ignore
  return [
    MOVE, cx + rx, cy,
    CURVE, cx + rx, cy + k * ry, cx + k * rx, cy + ry, cx, cy + ry,
    CURVE, cx - k * rx, cy + ry, cx - rx, cy + k * ry, cx - rx, cy,
    CURVE, cx - rx, cy - k * ry, cx - k * rx, cy - ry, cx, cy - ry,
    CURVE, cx + k * rx, cy - ry, cx + rx, cy - k * ry, cx + rx, cy,
    CLOSE,
  ];
}

// prettier-ignore
export const rectD = (x: number, y: number, w: number, h: number): PathData => [
  MOVE, x, y, LINE, x + w, y, LINE, x + w, y + h, LINE, x, y + h, CLOSE,
];

/** the arrowheads of a line or connector (filled triangles), as painters.ts arrowHeads */
function arrowHeadsD(path: ArrayLike<number>, ox: number, oy: number, start: boolean, end: boolean, size: number) {
  const d: PathData = [];
  const n = path.length;
  const head = (tx: number, ty: number, fx: number, fy: number) => {
    const a = Math.atan2(ty - fy, tx - fx);
    const spread = 0.45;
    d.push(MOVE, tx + ox, ty + oy);
    d.push(LINE, tx + ox - size * Math.cos(a - spread), ty + oy - size * Math.sin(a - spread));
    d.push(LINE, tx + ox - size * Math.cos(a + spread), ty + oy - size * Math.sin(a + spread));
    d.push(CLOSE);
  };
  if (n >= 4) {
    if (end) head(path[n - 2]!, path[n - 1]!, path[n - 4]!, path[n - 3]!);
    if (start) head(path[0]!, path[1]!, path[2]!, path[3]!);
  }
  return d;
}

// ---------------------------------------------------------------------------------------------
// Styles (as painters.ts applyPattern / fillStyleOf)

function strokeOf(shape: ShapeRecord, ctx: VectorContext, width: number): { stroke: StrokeStyle; multiply: boolean } {
  const color = inkColor(shape.strokeColor ?? 0, ctx.paint);
  const base: StrokeStyle = { color, alpha: 1, width, cap: 'round', join: 'round', dash: null };
  switch (shape.linePattern ?? 'pen') {
    case 'dashed':
      return { stroke: { ...base, cap: 'butt', dash: [width * 3, width * 2] }, multiply: false };
    case 'dotted':
      return { stroke: { ...base, dash: [0.001, width * 2] }, multiply: false };
    case 'marker':
      return { stroke: { ...base, cap: 'butt' }, multiply: false };
    case 'highlighter':
      return {
        stroke: { ...base, cap: 'butt', alpha: 0.35 },
        multiply: !backgroundIsDark(ctx.paint.background, ctx.paint.theme),
      };
    default:
      return { stroke: base, multiply: false };
  }
}

function fillOf(shape: ShapeRecord): Paint | null {
  if (!isFilled(shape)) return null;
  return { color: cssColor(shape.fillColor), alpha: shape.fill === 'semi' ? 0.3 : 1 };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** centred lines in a box (labels, sticky notes: laid out by textLayout's fitText, as the painters) */
function centredText(
  layout: TextLayout,
  font: string,
  fontSize: number,
  box: { x: number; y: number; w: number; h: number },
  color: string,
): Prim {
  return {
    t: 'text',
    lines: layout.lines,
    x: box.x,
    top: box.y + (box.h - layout.height) / 2,
    width: box.w,
    lineHeight: layout.lineHeight,
    fontSize,
    font,
    color,
    align: 'center',
  };
}

/** formula / graph source in a frame, as the painters' placeholderBox */
function placeholderBox(
  box: { x: number; y: number; w: number; h: number },
  label: string,
  color: string,
  fontSize: number,
  ctx: VectorContext,
  wrap: boolean,
): Prim[] {
  const { x, y, w, h } = box;
  const pad = Math.min(fontSize * 0.5, w / 4);
  const layout = layoutText(label, FORMULA_FONT, fontSize, wrap ? Math.max(1, w - 2 * pad) : Infinity);
  const frame: StrokeStyle = {
    color: uiColors(ctx.paint).frame,
    alpha: 1,
    width: 1,
    cap: 'butt',
    join: 'miter',
    dash: null,
  };
  return [
    { t: 'path', d: rectD(x, y, w, h), fill: null, stroke: frame },
    {
      t: 'clip',
      x,
      y,
      w,
      h,
      prims: [
        {
          t: 'text',
          lines: layout.lines,
          x: x + pad,
          top: y + pad,
          width: w - 2 * pad,
          lineHeight: layout.lineHeight,
          fontSize,
          font: FORMULA_FONT,
          color,
          align: 'left',
        },
      ],
    },
  ];
}

function assetPlaceholder(x: number, y: number, w: number, h: number, ctx: VectorContext): Prim[] {
  const ui = uiColors(ctx.paint);
  const frame: StrokeStyle = { color: ui.glyph, alpha: 1, width: 1, cap: 'butt', join: 'miter', dash: null };
  return [{ t: 'path', d: rectD(x, y, w, h), fill: { color: ui.placeholder, alpha: 1 }, stroke: frame }];
}

// ---------------------------------------------------------------------------------------------
// Shapes

function shapePrims(item: SceneItem, ctx: VectorContext): Prim[] {
  const shape = item.shape;
  const pts = item.points;
  switch (shape.kind) {
    case 'pen': {
      const width = drawnStrokeWidth(shape);
      const { stroke, multiply } = strokeOf(shape, ctx, width);
      const outline = pressureOutline(shape, pts);
      if (outline) {
        return [
          {
            t: 'path',
            d: polyD(outline, 0, 0, true),
            fill: { color: stroke.color, alpha: stroke.alpha },
            stroke: null,
            multiply,
          },
        ];
      }
      return [{ t: 'path', d: polyD(pts, shape.x, shape.y, false), fill: null, stroke, multiply }];
    }
    case 'line':
    case 'connector': {
      const width = drawnStrokeWidth(shape);
      const start = !!shape.arrowStart;
      const end = !!shape.arrowEnd;
      const route = shape.kind === 'connector' ? connectorPath(pts, !!shape.elbow, shape.fromAnchor) : pts;
      const size = arrowSize(width);
      const { stroke, multiply } = strokeOf(shape, ctx, width);
      const line = start || end ? trimmedForHeads(route, start, end, size * 0.7) : route;
      const out: Prim[] = [{ t: 'path', d: polyD(line, shape.x, shape.y, false), fill: null, stroke, multiply }];
      if (start || end)
        out.push({
          t: 'path',
          d: arrowHeadsD(route, shape.x, shape.y, start, end, size),
          fill: { color: stroke.color, alpha: 1 },
          stroke: null,
        });
      return out;
    }
    case 'polyline':
    case 'curve': {
      const closed = !!shape.closed;
      let d: PathData;
      if (shape.kind === 'curve' && pts.length >= 4) {
        d = [MOVE, pts[0]! + shape.x, pts[1]! + shape.y];
        const bz = curveBeziers(pts, closed);
        for (let i = 0; i + 5 < bz.length; i += 6)
          d.push(
            CURVE,
            bz[i]! + shape.x,
            bz[i + 1]! + shape.y,
            bz[i + 2]! + shape.x,
            bz[i + 3]! + shape.y,
            bz[i + 4]! + shape.x,
            bz[i + 5]! + shape.y,
          );
        if (closed) d.push(CLOSE);
      } else d = polyD(pts, shape.x, shape.y, closed);
      const fill = closed ? fillOf(shape) : null;
      const out: Prim[] = [];
      if (fill) out.push({ t: 'path', d, fill, stroke: null });
      if ((shape.strokeWidth ?? 3) > 0)
        out.push({ t: 'path', d, fill: null, ...strokeOf(shape, ctx, drawnStrokeWidth(shape)) });
      return out;
    }
    case 'arc': {
      const d = arcD(shape.x, shape.y, Math.max(0, num(shape.r)), num(shape.startAngle), num(shape.endAngle));
      return [{ t: 'path', d, fill: null, ...strokeOf(shape, ctx, drawnStrokeWidth(shape)) }];
    }
    case 'shape': {
      const geo = shapeGeometry(shape, pts);
      const { box } = geo;
      const d =
        shape.shapeType === 'ellipse'
          ? ellipseD(box.x + box.w / 2, box.y + box.h / 2, Math.max(0, box.w / 2), Math.max(0, box.h / 2))
          : polyD(geo.outline!, box.x, box.y, true);
      const fill = fillOf(shape);
      const out: Prim[] = [];
      if (fill) out.push({ t: 'path', d, fill, stroke: null });
      if ((shape.strokeWidth ?? 2) > 0)
        out.push({ t: 'path', d, fill: null, ...strokeOf(shape, ctx, drawnStrokeWidth(shape)) });
      const label = str(shape.text);
      if (label.trim()) {
        const fitted = shapeLabelText(label, SANS, box.x, box.y, box.w, box.h);
        const color =
          fill && shape.fill === 'solid'
            ? stickyTextColor(shape.fillColor as number)
            : inkColor(shape.strokeColor ?? 0, ctx.paint);
        out.push(centredText(fitted.layout, SANS, fitted.fontSize, fitted.box, color));
      }
      return out;
    }
    case 'sticky': {
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
        { t: 'path', d: rectD(x, y, w, h), fill: { color: cssColor(shape.color, '#fff59d'), alpha: 1 }, stroke: null },
      ];
      const text = str(shape.text);
      if (!text) return out;
      const fitted = stickyText(text, SANS, x, y, w, h);
      const label = centredText(fitted.layout, SANS, fitted.fontSize, fitted.box, stickyTextColor(shape.color));
      out.push(fitted.overflows ? { t: 'clip', x, y, w, h, prims: [label] } : label);
      return out;
    }
    case 'text': {
      const fontSize = num(shape.fontSize, 16);
      const font = str(shape.font) || SANS;
      const w = num(shape.w);
      const layout = layoutText(str(shape.text), font, fontSize, w > 0 ? w : Infinity);
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
    }
    case 'formula': {
      const { box } = shapeGeometry(shape, pts);
      const svg = ctx.fragments?.get(shape.id);
      if (svg) return [{ t: 'svg', svg, x: box.x, y: box.y, w: box.w, h: box.h }];
      return placeholderBox(
        box,
        str(shape.latex),
        inkColor(shape.color ?? 0, ctx.paint),
        num(shape.fontSize) || 20,
        ctx,
        false,
      );
    }
    case 'graph': {
      const { box } = shapeGeometry(shape, pts);
      const svg = ctx.fragments?.get(shape.id);
      if (svg) return [{ t: 'svg', svg, x: box.x, y: box.y, w: box.w, h: box.h }];
      const { x, y, w, h } = box;
      const axes: StrokeStyle = {
        color: uiColors(ctx.paint).glyph,
        alpha: 1,
        width: 1,
        cap: 'butt',
        join: 'miter',
        dash: null,
      };
      return [
        {
          t: 'path',
          d: [MOVE, x, y + h / 2, LINE, x + w, y + h / 2, MOVE, x + w / 2, y, LINE, x + w / 2, y + h],
          fill: null,
          stroke: axes,
        },
        ...placeholderBox(
          box,
          str(shape.spec),
          inkColor(0x555555, ctx.paint),
          Math.max(8, Math.min(14, h / 10)),
          ctx,
          true,
        ),
      ];
    }
    case 'image':
    case 'documentPage': {
      const w = Math.max(0, num(shape.w));
      const h = Math.max(0, num(shape.h));
      const href = ctx.images?.get(shape.id);
      return href
        ? [{ t: 'image', href, x: shape.x, y: shape.y, w, h }]
        : assetPlaceholder(shape.x, shape.y, w, h, ctx);
    }
    default: {
      // a kind this version does not know: its bounds, dashed, as the canvas outlines it
      const b = item.bounds;
      const dash: StrokeStyle = { color: '#888888', alpha: 1, width: 1, cap: 'butt', join: 'miter', dash: [4, 4] };
      return [{ t: 'path', d: rectD(b.minX, b.minY, b.maxX - b.minX, b.maxY - b.minY), fill: null, stroke: dash }];
    }
  }
}

/** a scene item as a vector drawing */
export function shapeDrawing(item: SceneItem, ctx: VectorContext): ShapeDrawing {
  const shape = item.shape;
  const angle = num(shape.rotation);
  let rotation: ShapeDrawing['rotation'] = null;
  if (angle) {
    const { box } = shapeGeometry(shape, item.points);
    rotation = { angle, cx: box.x + box.w / 2, cy: box.y + box.h / 2 };
  }
  const opacity = typeof shape.opacity === 'number' ? Math.max(0, Math.min(1, shape.opacity)) : 1;
  return { id: shape.id, rotation, opacity, prims: shapePrims(item, ctx) };
}

// ---------------------------------------------------------------------------------------------
// Formulas and graphs

const UNSAFE_SVG = /<\s*(script|foreignObject|iframe|object|embed)\b|\son[a-z]+\s*=|javascript:/i;

/** a renderer's SVG fragment, or null when it carries anything active (scripts, handlers) */
export function safeFragment(svg: unknown): string | null {
  if (typeof svg !== 'string' || !svg.trim()) return null;
  return UNSAFE_SVG.test(svg) ? null : svg.replace(/^\s*<\?xml[^>]*\?>\s*/, '');
}

/** the vector fragments of the formulas and graphs among `items` (failures: null, a placeholder) */
export async function collectFragments(
  items: readonly SceneItem[],
  vectorFor: VectorFor | undefined,
  signal?: AbortSignal,
): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  if (!vectorFor) return out;
  for (const it of items) {
    if (it.shape.kind !== 'formula' && it.shape.kind !== 'graph') continue;
    if (signal?.aborted) break;
    try {
      out.set(it.shape.id, safeFragment(await vectorFor(it.shape)));
    } catch {
      out.set(it.shape.id, null);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Background (as background.ts drawBackground, in world units for a zoom)

interface Palette {
  minor: Paint;
  major: Paint;
  margin: Paint;
}
// background.ts palette() for the light theme, as colour + alpha
function palette(background: BoardBackground): Palette {
  if (background === 'oldPaper')
    return {
      minor: { color: '#785a28', alpha: 0.18 },
      major: { color: '#785a28', alpha: 0.28 },
      margin: { color: '#aa3c28', alpha: 0.35 },
    };
  if (background === 'blackboard')
    return {
      minor: { color: '#ffffff', alpha: 0.07 },
      major: { color: '#ffffff', alpha: 0.12 },
      margin: { color: '#ffffff', alpha: 0.2 },
    };
  return {
    minor: { color: '#000000', alpha: 0.07 },
    major: { color: '#000000', alpha: 0.14 },
    margin: { color: '#dc3c3c', alpha: 0.5 },
  };
}

/** past this many lines or dots a layer is left out (they would be a grey wash at that scale) */
const MAX_MARKS = 200_000;

function gridPrim(
  r: Rect,
  spacing: number,
  paint: Paint,
  alpha: number,
  width: number,
  vertical: boolean,
  horizontal: boolean,
  skipEvery = 0,
): Prim | null {
  if (alpha <= 0 || !(spacing > 0)) return null;
  const count =
    ((r.maxX - r.minX) / spacing) * (vertical ? 1 : 0) + ((r.maxY - r.minY) / spacing) * (horizontal ? 1 : 0);
  if (count > MAX_MARKS) return null;
  const d: PathData = [];
  const keep = (v: number) => !skipEvery || Math.round(v / spacing) % skipEvery !== 0;
  if (vertical)
    for (let x = Math.ceil(r.minX / spacing) * spacing; x <= r.maxX; x += spacing)
      if (keep(x)) d.push(MOVE, x, r.minY, LINE, x, r.maxY);
  if (horizontal)
    for (let y = Math.ceil(r.minY / spacing) * spacing; y <= r.maxY; y += spacing)
      if (keep(y)) d.push(MOVE, r.minX, y, LINE, r.maxX, y);
  if (!d.length) return null;
  const stroke: StrokeStyle = {
    color: paint.color,
    alpha: paint.alpha * alpha,
    width,
    cap: 'butt',
    join: 'miter',
    dash: null,
  };
  return { t: 'path', d, fill: null, stroke };
}

/**
 * The board background over `region` for `zoom` (screen px per world unit: grids thin out as on
 * screen, lines stay one screen pixel wide): the surface colour, then grid lines or dots.
 */
export function backgroundPrims(background: BoardBackground, region: Rect, zoom: number): Prim[] {
  const r = region;
  const z = Math.max(zoom, 1e-9);
  const px = 1 / z;
  const pal = palette(background);
  const out: (Prim | null)[] = [
    {
      t: 'path',
      d: rectD(r.minX, r.minY, r.maxX - r.minX, r.maxY - r.minY),
      fill: { color: surfaceColor(background, 'light'), alpha: 1 },
      stroke: null,
    },
  ];
  const grid = (s: GridSpacing, every: number) => {
    out.push(gridPrim(r, s.minor, pal.minor, s.minorAlpha, px, true, true, every));
    out.push(gridPrim(r, s.major, pal.major, s.majorAlpha, px, true, true));
  };
  switch (background) {
    case 'adaptiveGrid':
      grid(adaptiveGridSpacing(z), ADAPTIVE_MAJOR_EVERY);
      break;
    case 'graphGrid':
      grid(graphGridSpacing(z), GRAPH_MAJOR_EVERY);
      break;
    case 'squares': {
      const s = squaresSpacing(z);
      out.push(gridPrim(r, s.minor, pal.major, s.minorAlpha, px, true, true));
      break;
    }
    case 'dotGrid': {
      const s = dotGridSpacing(z);
      const cols = Math.floor(r.maxX / s.minor) - Math.ceil(r.minX / s.minor) + 1;
      const rows = Math.floor(r.maxY / s.minor) - Math.ceil(r.minY / s.minor) + 1;
      if (cols * rows > MAX_MARKS) break;
      const dot = Math.max(1.5, Math.min(3, s.minorPx / 12)) * px;
      const d: PathData = [];
      for (let y = Math.ceil(r.minY / s.minor) * s.minor; y <= r.maxY; y += s.minor)
        for (let x = Math.ceil(r.minX / s.minor) * s.minor; x <= r.maxX; x += s.minor)
          d.push(...rectD(x - dot / 2, y - dot / 2, dot, dot));
      if (d.length) out.push({ t: 'path', d, fill: pal.major, stroke: null });
      break;
    }
    case 'lines':
    case 'oldPaper': {
      const s = ruledSpacing(z);
      out.push(gridPrim(r, s.minor, background === 'oldPaper' ? pal.minor : pal.major, s.minorAlpha, px, false, true));
      if (background === 'lines' && MARGIN_X >= r.minX && MARGIN_X <= r.maxX)
        out.push({
          t: 'path',
          d: [MOVE, MARGIN_X, r.minY, LINE, MARGIN_X, r.maxY],
          fill: null,
          stroke: { ...pal.margin, width: px, cap: 'butt', join: 'miter', dash: null },
        });
      break;
    }
    default:
      break;
  }
  return out.filter((p): p is Prim => p !== null);
}

// ---------------------------------------------------------------------------------------------
// SVG

/** numbers in SVG and PDF: two decimals (far below a printed dot), no trailing zeros, fast */
export function fmt(v: number): string {
  const r = Math.round(v * 100);
  if (!Number.isFinite(r) || r === 0) return '0';
  const a = r < 0 ? -r : r;
  const i = Math.floor(a / 100);
  const f = a - i * 100;
  const s = f === 0 ? String(i) : f % 10 === 0 ? `${i}.${f / 10}` : `${i}.${f < 10 ? '0' : ''}${f}`;
  return r < 0 ? `-${s}` : s;
}

// characters XML 1.0 does not allow at all (control characters, lone surrogates, U+FFFE/FFFF)
const XML_INVALID =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** text for XML content and attribute values: escaped, invalid characters dropped */
export function xmlEscape(s: string): string {
  return s
    .replace(XML_INVALID, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function pathToSvg(d: PathData): string {
  let out = '';
  for (let i = 0; i < d.length;) {
    switch (d[i]) {
      case MOVE:
        out += 'M' + fmt(d[i + 1]!) + ' ' + fmt(d[i + 2]!);
        i += 3;
        break;
      case LINE:
        out += 'L' + fmt(d[i + 1]!) + ' ' + fmt(d[i + 2]!);
        i += 3;
        break;
      case CURVE:
        out += 'C' + fmt(d[i + 1]!) + ' ' + fmt(d[i + 2]!) + ' ' + fmt(d[i + 3]!) + ' ' + fmt(d[i + 4]!) + ' ';
        out += fmt(d[i + 5]!) + ' ' + fmt(d[i + 6]!);
        i += 7;
        break;
      default:
        out += 'Z';
        i += 1;
    }
  }
  return out;
}

/** the path as PDF operators (m, l, c, h), one per line */
export function pathToPdf(d: PathData): string {
  let out = '';
  for (let i = 0; i < d.length;) {
    switch (d[i]) {
      case MOVE:
        out += fmt(d[i + 1]!) + ' ' + fmt(d[i + 2]!) + ' m\n';
        i += 3;
        break;
      case LINE:
        out += fmt(d[i + 1]!) + ' ' + fmt(d[i + 2]!) + ' l\n';
        i += 3;
        break;
      case CURVE:
        out += fmt(d[i + 1]!) + ' ' + fmt(d[i + 2]!) + ' ' + fmt(d[i + 3]!) + ' ' + fmt(d[i + 4]!) + ' ';
        out += fmt(d[i + 5]!) + ' ' + fmt(d[i + 6]!) + ' c\n';
        i += 7;
        break;
      default:
        out += 'h\n';
        i += 1;
    }
  }
  return out;
}

/** the CSS font-family list of a board font (quoted, escaped) */
function fontFamily(font: string): string {
  const generic = /^(sans-serif|serif|monospace|cursive|fantasy|system-ui)$/;
  const name = generic.test(font) ? font : `'${font.replace(/['"\\]/g, '')}'`;
  return xmlEscape(`${name}, sans-serif`);
}

function primToSvg(p: Prim, ids: { next: number }): string {
  switch (p.t) {
    case 'path': {
      const a = [`d="${pathToSvg(p.d)}"`];
      if (p.fill) {
        a.push(`fill="${p.fill.color}"`);
        if (p.fill.alpha !== 1) a.push(`fill-opacity="${fmt(p.fill.alpha)}"`);
      } else a.push('fill="none"');
      if (p.stroke) {
        const s = p.stroke;
        a.push(
          `stroke="${s.color}"`,
          `stroke-width="${fmt(s.width)}"`,
          `stroke-linecap="${s.cap}"`,
          `stroke-linejoin="${s.join}"`,
        );
        if (s.alpha !== 1) a.push(`stroke-opacity="${fmt(s.alpha)}"`);
        if (s.dash) a.push(`stroke-dasharray="${s.dash.map((v) => (v < 0.01 ? '0.001' : fmt(v))).join(' ')}"`);
      }
      if (p.multiply) a.push('style="mix-blend-mode:multiply"');
      return `<path ${a.join(' ')}/>`;
    }
    case 'text': {
      const anchor = p.align === 'center' ? ' text-anchor="middle"' : '';
      const x = fmt(p.align === 'center' ? p.x + p.width / 2 : p.x);
      const head = `<text xml:space="preserve" font-family="${fontFamily(p.font)}" font-size="${fmt(p.fontSize)}" fill="${p.color}"${anchor}`;
      return p.lines
        .map((line, i) => {
          const y = fmt(p.top + p.lineHeight * (i + 0.5) + p.fontSize * BASELINE_SHIFT);
          return line ? `${head} x="${x}" y="${y}">${xmlEscape(line)}</text>` : '';
        })
        .join('');
    }
    case 'image':
      return `<image x="${fmt(p.x)}" y="${fmt(p.y)}" width="${fmt(p.w)}" height="${fmt(p.h)}" preserveAspectRatio="none" href="${xmlEscape(p.href)}"/>`;
    case 'svg':
      return placeFragment(p.svg, p.x, p.y, p.w, p.h);
    case 'clip': {
      const id = `c${ids.next++}`;
      const inner = p.prims.map((q) => primToSvg(q, ids)).join('');
      return `<clipPath id="${id}"><rect x="${fmt(p.x)}" y="${fmt(p.y)}" width="${fmt(p.w)}" height="${fmt(p.h)}"/></clipPath><g clip-path="url(#${id})">${inner}</g>`;
    }
  }
}

/** a fragment's root <svg> placed over the box (its own x, y, width, height replaced) */
export function placeFragment(svg: string, x: number, y: number, w: number, h: number): string {
  const place = `x="${fmt(x)}" y="${fmt(y)}" width="${fmt(w)}" height="${fmt(h)}"`;
  const root = /^\s*<svg\b([^>]*)>/i.exec(svg);
  if (!root) return `<svg ${place} overflow="visible">${svg}</svg>`;
  const attrs = root[1]!.replace(/\s(x|y|width|height)\s*=\s*("[^"]*"|'[^']*')/gi, '');
  return `<svg ${place}${attrs}>${svg.slice(root[0].length)}`;
}

/** a drawing as SVG elements (ids: a counter for clip-path ids unique in the document) */
export function drawingToSvg(d: ShapeDrawing, ids: { next: number } = { next: 0 }): string {
  const body = d.prims.map((p) => primToSvg(p, ids)).join('');
  if (!body) return '';
  const attrs: string[] = [];
  if (d.rotation)
    attrs.push(
      `transform="rotate(${fmt((d.rotation.angle * 180) / Math.PI)} ${fmt(d.rotation.cx)} ${fmt(d.rotation.cy)})"`,
    );
  if (d.opacity !== 1) attrs.push(`opacity="${fmt(d.opacity)}"`);
  return attrs.length ? `<g ${attrs.join(' ')}>${body}</g>` : body;
}

/** one shape as SVG elements */
export function shapeSvg(item: SceneItem, ctx: VectorContext, ids?: { next: number }): string {
  return drawingToSvg(shapeDrawing(item, ctx), ids);
}
