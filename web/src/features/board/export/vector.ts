/**
 * Shapes as vector drawings for the SVG and PDF exports: each kind's module draws its own
 * (ShapeUtil.vector, shapes/registry.ts) with the same geometry the painters draw (geometry.ts,
 * textLayout.ts, perfect-freehand, the line patterns and ink colours), described as data (paths,
 * text lines, images, SVG fragments: the drawing model in canvas/shapes/shared/vector.ts) that
 * svgExport writes as SVG elements and pdfExport as PDF path and text operators. World
 * coordinates throughout. Here: a drawing's rotation and opacity, the formulas' and graphs'
 * fragments, the background, and SVG.
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
import { shapeGeometry } from '../canvas/geometry';
import type { SceneItem } from '../canvas/scene';
import { utilOf } from '../canvas/shapes/registry';
import { num } from '../canvas/shapes/shared/geometry';
import {
  CURVE,
  LINE,
  MOVE,
  rectD,
  type Paint,
  type PathData,
  type Prim,
  type StrokeStyle,
  type VectorContext,
} from '../canvas/shapes/shared/vector';
import { surfaceColor, type PaintContext } from '../canvas/theme';

export {
  arcD,
  CLOSE,
  CURVE,
  ellipseD,
  LINE,
  MOVE,
  rectD,
  type Paint,
  type PathData,
  type Prim,
  type StrokeStyle,
  type VectorContext,
} from '../canvas/shapes/shared/vector';

export interface ShapeDrawing {
  id: string;
  /** turned by `angle` radians about (cx, cy), like the painters' rotate */
  rotation: { angle: number; cx: number; cy: number } | null;
  opacity: number;
  prims: Prim[];
}

/** renders a formula or graph as an SVG fragment (null: not possible, the placeholder is drawn) */
export type VectorFor = (shape: ShapeRecord) => Promise<string | null>;

/** where text's alphabetic baseline sits below the middle of its line, in em (canvas 'middle') */
export const BASELINE_SHIFT = 0.35;

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
// Shapes

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
  return { id: shape.id, rotation, opacity, prims: utilOf(shape.kind).vector(item, ctx) };
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
    if (!utilOf(it.shape.kind).typeset) continue;
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
