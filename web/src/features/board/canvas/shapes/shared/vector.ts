/**
 * The vector drawing model every shape kind exports to (no kind of its own, no registry): paths,
 * text lines, images, SVG fragments and clips in world coordinates, which export/svgExport.ts
 * writes as SVG elements and export/pdfExport.ts as PDF operators; and the builders the kinds'
 * `vector` functions share (paths, line patterns and fills as the painters draw them, arrowheads,
 * centred text, the formula/graph placeholder). export/vector.ts dispatches to the kinds.
 */
import type { ShapeRecord } from '@wb/proto';
import { layoutText, type TextLayout } from '../../textLayout';
import { backgroundIsDark, inkColor, uiColors, type PaintContext } from '../../theme';
import { cssColor, FORMULA_FONT, isFilled } from './geometry';

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
// ---------------------------------------------------------------------------------------------
// Paths

export function polyD(pts: ArrayLike<number>, ox: number, oy: number, closed: boolean): PathData {
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

/** the arrowheads of a line or connector (filled triangles), as shared/paint.ts arrowHeads */
export function arrowHeadsD(
  path: ArrayLike<number>,
  ox: number,
  oy: number,
  start: boolean,
  end: boolean,
  size: number,
) {
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
// Styles (as shared/paint.ts applyPattern / fillStyleOf)

export function strokeOf(
  shape: ShapeRecord,
  ctx: VectorContext,
  width: number,
): { stroke: StrokeStyle; multiply: boolean } {
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

export function fillOf(shape: ShapeRecord): Paint | null {
  if (!isFilled(shape)) return null;
  return { color: cssColor(shape.fillColor), alpha: shape.fill === 'semi' ? 0.3 : 1 };
}

/** a string field's value ('' when it is not a string) */
export const textValue = (v: unknown): string => (typeof v === 'string' ? v : '');

/** centred lines in a box (labels, sticky notes: laid out by textLayout's fitText, as the painters) */
export function centredTextPrim(
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
export function placeholderBox(
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
