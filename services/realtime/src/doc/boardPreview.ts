/**
 * Dashboard previews: a board's shape records (renderSnapshot.ts, z order) drawn as a small SVG
 * that fits the content's bounding box, then encoded as WebP by sharp. Runs in the render worker
 * thread (renderWorker.ts), never on the node's event loop.
 *
 * A sketch, not the editor's painter: strokes, lines, connectors and outlines as paths of their
 * colour and width, geometric shapes, stickies and text boxes with their text; formulas, graphs,
 * images and document pages as grey placeholders of their bounds.
 */
import sharp from 'sharp';
import { unpackPoints } from '@wb/proto';
import type { BoardBackground, RenderRecord } from '@wb/proto';

export const PREVIEW_WIDTH = 320;
export const PREVIEW_HEIGHT = 200;
/** empty margin around the content, in preview pixels */
const MARGIN = 8;
/** below this many world units across, content is not magnified further (a dot stays a dot) */
const MIN_EXTENT = 200;

/** The light-theme board surface (web canvas/theme.ts surfaceColor): what a dashboard tile shows. */
export function previewSurface(background: BoardBackground): string {
  switch (background) {
    case 'oldPaper':
      return '#f3e7c9';
    case 'blackboard':
      return '#2b3a33';
    case 'plainColor':
      return '#eef3f8';
    default:
      return '#ffffff';
  }
}

const num = (v: unknown, d = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const hex = (c: number): string => `#${(c & 0xffffff).toString(16).padStart(6, '0')}`;
function luminance(c: number): number {
  return (0.2126 * ((c >> 16) & 255) + 0.7152 * ((c >> 8) & 255) + 0.0722 * (c & 255)) / 255;
}
/** ink that stays visible: black on the blackboard is drawn light, white on paper dark (as the board does) */
function ink(color: unknown, dark: boolean): string {
  const c = num(color) & 0xffffff;
  if (dark && luminance(c) < 0.25) return '#eeeeee';
  if (!dark && luminance(c) > 0.9) return '#333333';
  return hex(c);
}
const esc = (s: string): string => s.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

function pointsOf(r: RenderRecord): Float32Array | null {
  if (!(r.points instanceof Uint8Array)) return null;
  try {
    return unpackPoints(r.points);
  } catch {
    return null;
  }
}

/** world bounds of a record (rotation ignored: a preview does not need it exact) */
function boundsOf(r: RenderRecord, pts: Float32Array | null): Box | null {
  const x = num(r.x);
  const y = num(r.y);
  if (pts && pts.length >= 2) {
    const b = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
    for (let i = 0; i + 1 < pts.length; i += 2) {
      b.minX = Math.min(b.minX, x + pts[i]!);
      b.maxX = Math.max(b.maxX, x + pts[i]!);
      b.minY = Math.min(b.minY, y + pts[i + 1]!);
      b.maxY = Math.max(b.maxY, y + pts[i + 1]!);
    }
    return b;
  }
  if (r.kind === 'arc') {
    const rad = num(r.r);
    return { minX: x - rad, minY: y - rad, maxX: x + rad, maxY: y + rad };
  }
  const w = num(r.w, r.kind === 'formula' ? 120 : 0);
  const h = num(r.h, r.kind === 'text' || r.kind === 'formula' ? num(r.fontSize, 16) * 1.4 : 0);
  if (w <= 0 && h <= 0) return null;
  return { minX: x, minY: y, maxX: x + w, maxY: y + h };
}

function polyline(pts: Float32Array, ox: number, oy: number, closed: boolean): string {
  let d = '';
  for (let i = 0; i + 1 < pts.length; i += 2)
    d += `${i === 0 ? 'M' : 'L'}${(pts[i]! + ox).toFixed(1)} ${(pts[i + 1]! + oy).toFixed(1)}`;
  if (pts.length === 2) d += 'h0.01'; // a dot: a round cap draws it
  return closed ? `${d}Z` : d;
}

/** a closed geometric shape in its box, as SVG path data */
function geometricPath(type: unknown, x: number, y: number, w: number, h: number): string {
  const p = (pairs: number[][]) =>
    `M${pairs.map(([u, v]) => `${(x + u! * w).toFixed(1)} ${(y + v! * h).toFixed(1)}`).join('L')}Z`;
  switch (type) {
    case 'triangle':
      return p([
        [0.5, 0],
        [1, 1],
        [0, 1],
      ]);
    case 'diamond':
      return p([
        [0.5, 0],
        [1, 0.5],
        [0.5, 1],
        [0, 0.5],
      ]);
    case 'hexagon':
      return p([
        [0.25, 0],
        [0.75, 0],
        [1, 0.5],
        [0.75, 1],
        [0.25, 1],
        [0, 0.5],
      ]);
    case 'arrow':
      return p([
        [0, 0.3],
        [0.6, 0.3],
        [0.6, 0],
        [1, 0.5],
        [0.6, 1],
        [0.6, 0.7],
        [0, 0.7],
      ]);
    case 'star': {
      const pts: number[][] = [];
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        const k = i % 2 ? 0.2 : 0.5;
        pts.push([0.5 + k * Math.cos(a), 0.5 + k * Math.sin(a)]);
      }
      return p(pts);
    }
    default:
      return '';
  }
}

/** the first lines of a text, as <text> rows inside a box */
function textRows(text: unknown, x: number, y: number, w: number, size: number, fill: string, maxRows: number): string {
  if (typeof text !== 'string' || !text.trim()) return '';
  const perRow = Math.max(1, Math.floor(w / (size * 0.55)));
  const rows: string[] = [];
  for (const line of text.split('\n')) {
    for (let i = 0; i < Math.max(1, line.length) && rows.length < maxRows; i += perRow)
      rows.push(line.slice(i, i + perRow));
    if (rows.length >= maxRows) break;
  }
  return rows
    .map(
      (row, i) =>
        `<text x="${x.toFixed(1)}" y="${(y + size * (i + 1) * 1.2).toFixed(1)}" font-size="${size.toFixed(1)}" font-family="sans-serif" fill="${fill}">${esc(row)}</text>`,
    )
    .join('');
}

function shapeSvg(r: RenderRecord, pts: Float32Array | null, box: Box, dark: boolean): string {
  const x = num(r.x);
  const y = num(r.y);
  const sw = num(r.strokeWidth, 3) * (r.linePattern === 'marker' ? 2 : r.linePattern === 'highlighter' ? 4 : 1);
  const stroke = ink(r.strokeColor, dark);
  const fill = typeof r.fillColor === 'number' && r.fill !== 'none' ? hex(r.fillColor) : 'none';
  const fillOpacity = r.fill === 'semi' ? ' fill-opacity="0.3"' : '';
  const line = `fill="none" stroke="${stroke}" stroke-width="${sw}" stroke-linecap="round" stroke-linejoin="round"`;
  const w = box.maxX - box.minX;
  const h = box.maxY - box.minY;
  switch (r.kind) {
    case 'pen':
    case 'line':
    case 'polyline':
    case 'curve':
    case 'connector':
      if (!pts) return '';
      return `<path d="${polyline(pts, x, y, !!r.closed)}" ${line}${r.linePattern === 'highlighter' ? ' stroke-opacity="0.35"' : ''}/>`;
    case 'arc': {
      const rad = num(r.r);
      const a0 = num(r.startAngle);
      const a1 = num(r.endAngle);
      const large = Math.abs(a1 - a0) % (2 * Math.PI) > Math.PI ? 1 : 0;
      if (Math.abs(a1 - a0) >= 2 * Math.PI - 1e-6) return `<circle cx="${x}" cy="${y}" r="${rad}" ${line}/>`;
      const p = (a: number) => `${(x + rad * Math.cos(a)).toFixed(1)} ${(y + rad * Math.sin(a)).toFixed(1)}`;
      return `<path d="M${p(a0)}A${rad} ${rad} 0 ${large} ${a1 > a0 ? 1 : 0} ${p(a1)}" ${line}/>`;
    }
    case 'shape': {
      const body =
        r.shapeType === 'rectangle'
          ? `<rect x="${x}" y="${y}" width="${w}" height="${h}"`
          : r.shapeType === 'ellipse'
            ? `<ellipse cx="${x + w / 2}" cy="${y + h / 2}" rx="${w / 2}" ry="${h / 2}"`
            : `<path d="${geometricPath(r.shapeType, x, y, w, h)}"`;
      return `${body} fill="${fill}"${fillOpacity} stroke="${stroke}" stroke-width="${sw}"/>`;
    }
    case 'sticky': {
      const c = num(r.color, 0xfff176);
      const size = Math.max(8, Math.min(w, h) / 8);
      const text = luminance(c) < 0.18 ? '#f5f5f5' : '#1f1f1f';
      return `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${hex(c)}"/>${textRows(r.text, x + size / 2, y, w - size, size, text, Math.floor(h / (size * 1.2)) - 1)}`;
    }
    case 'text': {
      const size = num(r.fontSize, 16);
      return textRows(r.text, x, y, Math.max(w, size * 10), size, ink(r.color, dark), 20);
    }
    default:
      // formula, graph, image, document page: their bounds
      return `<rect x="${box.minX}" y="${box.minY}" width="${w}" height="${h}" fill="#9e9e9e" fill-opacity="0.25" stroke="#9e9e9e" stroke-width="${Math.max(w, h) / 100}"/>`;
  }
}

/** The preview SVG of a board's records (in z order). */
export function previewSvg(records: readonly RenderRecord[], background: BoardBackground): string {
  const surface = previewSurface(background);
  const dark = background === 'blackboard';
  const all: Box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  const parts: string[] = [];
  for (const r of records) {
    const pts = pointsOf(r);
    const box = boundsOf(r, pts);
    if (!box) continue;
    const sw = num(r.strokeWidth, 3) * 2;
    all.minX = Math.min(all.minX, box.minX - sw);
    all.minY = Math.min(all.minY, box.minY - sw);
    all.maxX = Math.max(all.maxX, box.maxX + sw);
    all.maxY = Math.max(all.maxY, box.maxY + sw);
    const svg = shapeSvg(r, pts, box, dark);
    if (!svg) continue;
    const opacity = typeof r.opacity === 'number' && r.opacity < 1 ? ` opacity="${r.opacity}"` : '';
    const rotation = num(r.rotation);
    const transform = rotation
      ? ` transform="rotate(${((rotation * 180) / Math.PI).toFixed(2)} ${(box.minX + box.maxX) / 2} ${(box.minY + box.maxY) / 2})"`
      : '';
    parts.push(opacity || transform ? `<g${opacity}${transform}>${svg}</g>` : svg);
  }
  const W = PREVIEW_WIDTH;
  const H = PREVIEW_HEIGHT;
  let content = '';
  if (parts.length > 0 && Number.isFinite(all.minX)) {
    // fit the content's box, centred, never magnified past MIN_EXTENT world units
    const cw = Math.max(all.maxX - all.minX, MIN_EXTENT);
    const ch = Math.max(all.maxY - all.minY, MIN_EXTENT * (H / W));
    const scale = Math.min((W - 2 * MARGIN) / cw, (H - 2 * MARGIN) / ch);
    const tx = W / 2 - ((all.minX + all.maxX) / 2) * scale;
    const ty = H / 2 - ((all.minY + all.maxY) / 2) * scale;
    content = `<g transform="matrix(${scale} 0 0 ${scale} ${tx} ${ty})">${parts.join('')}</g>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><rect width="${W}" height="${H}" fill="${surface}"/>${content}</svg>`;
}

/** The preview WebP of a board's records. */
export async function previewWebp(records: readonly RenderRecord[], background: BoardBackground): Promise<Uint8Array> {
  const out = await sharp(Buffer.from(previewSvg(records, background)))
    .webp({ quality: 80 })
    .toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
