/**
 * Drawing the instruments on the overlay (world transform set): a semi-transparent body, tick
 * marks and numbers that thin out as the zoom shrinks the scale, the live reading and the
 * handles. Sizes meant for the eye (text, handles, hairlines) are screen px divided by the zoom,
 * so everything stays crisp and legible from zoom 0.25 to 4. Someone else's instrument is drawn
 * lighter, in their colour, with their name and without handles.
 */
import type { InstrumentPayload } from '../../realtime/ephemeral';
import type { Point } from '../camera';
import {
  compassPencil,
  degrees,
  formatUnits,
  HANDLE_RADIUS_PX,
  protractorHandles,
  protractorReading,
  rulerHandles,
  rulerPoint,
  rulerWidth,
  TAU,
  type Compass,
  type Protractor,
  type Ruler,
} from './model';

export interface InstrumentStyle {
  zoom: number;
  /** world units per grid unit */
  unit: number;
  /** the surface is dark (dark theme, blackboard): light ink on a dark body */
  dark: boolean;
  /** someone else's: their colour and name, lighter, no handles */
  peer?: { color: string; name: string };
}

const ACCENT = '#2563eb';
const FONT = 'system-ui, -apple-system, "Segoe UI", sans-serif';
/** screen px: numbers on the scales, the reading label */
const SCALE_TEXT_PX = 10;
const LABEL_TEXT_PX = 12;
/** ruler ticks at these steps (grid units), numbers at the integer ones: the finest that fits */
const RULER_TICK_STEPS = [0.1, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
const RULER_LABEL_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
const MIN_TICK_PX = 6;
const MIN_LABEL_PX = 30;
/** protractor ticks and numbers (degrees) */
const PROTRACTOR_TICK_STEPS = [1, 5, 10, 30, 90];
const PROTRACTOR_LABEL_STEPS = [10, 30, 90];
const MIN_DEG_TICK_PX = 4;
const MIN_DEG_LABEL_PX = 28;

/** the finest step whose screen spacing is at least `minPx` (the last one otherwise) */
export function pickStep(steps: readonly number[], pxPerStepUnit: number, minPx: number): number {
  return steps.find((s) => s * pxPerStepUnit >= minPx) ?? steps[steps.length - 1]!;
}

function colors(s: InstrumentStyle) {
  if (s.peer) return { body: withAlpha(s.peer.color, 0.1), edge: s.peer.color, ink: s.peer.color, inkAlpha: 0.65 };
  return s.dark
    ? { body: 'rgba(51,65,85,0.55)', edge: '#94a3b8', ink: '#e5e7eb', inkAlpha: 1 }
    : { body: 'rgba(226,232,240,0.6)', edge: '#64748b', ink: '#1f2937', inkAlpha: 1 };
}

export function drawRuler(g: CanvasRenderingContext2D, r: Ruler, s: InstrumentStyle): void {
  const c = colors(s);
  const px = 1 / s.zoom;
  const w = rulerWidth(r);
  g.save();
  g.translate(r.x, r.y);
  g.rotate(r.angle);
  // body
  g.fillStyle = c.body;
  g.strokeStyle = c.edge;
  g.lineWidth = px;
  g.beginPath();
  g.rect(0, 0, r.length, w);
  g.fill();
  g.stroke();
  // scale along the measuring edge (y = 0), numbers below the ticks
  const unitPx = s.unit * s.zoom;
  const tick = pickStep(RULER_TICK_STEPS, unitPx, MIN_TICK_PX);
  const label = pickStep(RULER_LABEL_STEPS, unitPx, MIN_LABEL_PX);
  const count = Math.floor(r.length / s.unit / tick + 1e-6);
  const textPx = Math.min(SCALE_TEXT_PX * px, w * 0.28);
  g.globalAlpha = c.inkAlpha;
  g.strokeStyle = c.ink;
  g.fillStyle = c.ink;
  g.beginPath();
  for (let i = 0; i <= count; i++) {
    const u = i * tick;
    const x = u * s.unit;
    const len = isMultiple(u, label) ? 0.34 : isMultiple(u, 1) ? 0.22 : 0.12;
    g.moveTo(x, 0);
    g.lineTo(x, w * len);
  }
  g.stroke();
  g.font = `${textPx}px ${FONT}`;
  g.textAlign = 'center';
  g.textBaseline = 'top';
  for (let i = 0; i <= count; i++) {
    const u = i * tick;
    if (isMultiple(u, label)) g.fillText(String(Math.round(u)), u * s.unit, w * 0.38);
  }
  g.restore();
  // the length (grid units) and the direction, upright whatever the ruler's angle
  const at = rulerPoint(r, r.length / 2, w * 0.78);
  const deg = ((Math.round(-degrees(r.angle)) % 360) + 360) % 360;
  readingLabel(g, `${formatUnits(r.length, s.unit)} · ${deg}°`, at, s, c.ink);
  if (s.peer) nameTag(g, s.peer, rulerPoint(r, 0, w), s.zoom);
  else handles(g, rulerHandles(r, s.zoom), s.zoom);
}

/** `arm`: the measuring arm's world angle, or null */
export function drawProtractor(
  g: CanvasRenderingContext2D,
  q: Protractor,
  arm: number | null,
  s: InstrumentStyle,
): void {
  const c = colors(s);
  const px = 1 / s.zoom;
  const R = q.radius;
  g.save();
  g.translate(q.x, q.y);
  g.rotate(q.angle);
  // the half disc above the baseline (negative y in its frame), a hole around the centre
  g.fillStyle = c.body;
  g.strokeStyle = c.edge;
  g.lineWidth = px;
  g.beginPath();
  g.moveTo(R, 0);
  g.arc(0, 0, R, 0, -Math.PI, true);
  g.closePath();
  g.fill();
  g.stroke();
  g.beginPath();
  g.arc(0, 0, R * 0.3, 0, -Math.PI, true);
  g.stroke();
  // degree scale: 0° at the baseline's right end, counting up over the top
  const degPx = (R * s.zoom * Math.PI) / 180;
  const tick = pickStep(PROTRACTOR_TICK_STEPS, degPx, MIN_DEG_TICK_PX);
  const label = pickStep(PROTRACTOR_LABEL_STEPS, degPx, MIN_DEG_LABEL_PX);
  g.globalAlpha = c.inkAlpha;
  g.strokeStyle = c.ink;
  g.fillStyle = c.ink;
  g.beginPath();
  for (let d = 0; d <= 180; d += tick) {
    const len = d % label === 0 ? 0.12 : d % 5 === 0 ? 0.08 : 0.05;
    const a = -(d * Math.PI) / 180;
    g.moveTo(R * Math.cos(a), R * Math.sin(a));
    g.lineTo(R * (1 - len) * Math.cos(a), R * (1 - len) * Math.sin(a));
  }
  // the centre mark
  const m = Math.min(6 * px, R * 0.05);
  g.moveTo(-m, 0);
  g.lineTo(m, 0);
  g.moveTo(0, -m);
  g.lineTo(0, m);
  g.stroke();
  g.font = `${Math.min(SCALE_TEXT_PX * px, R * 0.07)}px ${FONT}`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  for (let d = 0; d <= 180; d += label) {
    const a = -(d * Math.PI) / 180;
    g.fillText(String(d), R * 0.8 * Math.cos(a), R * 0.8 * Math.sin(a));
  }
  g.restore();
  if (arm !== null && Number.isFinite(arm)) {
    const tip = { x: q.x + R * 1.08 * Math.cos(arm), y: q.y + R * 1.08 * Math.sin(arm) };
    g.save();
    g.strokeStyle = s.peer ? s.peer.color : ACCENT;
    g.lineWidth = 2 * px;
    g.beginPath();
    g.moveTo(q.x, q.y);
    g.lineTo(tip.x, tip.y);
    g.stroke();
    g.restore();
    const reading = protractorReading(tip, q);
    readingLabel(g, `${reading.toFixed(1)}°`, mid(q, tip, 0.45), s, s.peer ? s.peer.color : ACCENT);
  }
  if (s.peer) nameTag(g, s.peer, { x: q.x, y: q.y }, s.zoom);
  else handles(g, protractorHandles(q, s.zoom), s.zoom);
}

/** the needle, the two legs to a hinge, the pencil and the radius (grid units) with the sweep so far */
export function drawCompass(g: CanvasRenderingContext2D, c: Compass, s: InstrumentStyle): void {
  const col = colors(s);
  const px = 1 / s.zoom;
  const needle = { x: c.cx, y: c.cy };
  const pencil = compassPencil(c);
  // the hinge stands off the middle of the legs, on the left of needle → pencil
  const dx = pencil.x - needle.x;
  const dy = pencil.y - needle.y;
  const hinge = { x: (needle.x + pencil.x) / 2 + dy * 0.35, y: (needle.y + pencil.y) / 2 - dx * 0.35 };
  const accent = s.peer ? s.peer.color : ACCENT;
  g.save();
  g.globalAlpha = s.peer ? 0.6 : 0.85;
  g.lineCap = 'round';
  g.strokeStyle = col.edge;
  g.lineWidth = 4 * px;
  g.beginPath();
  g.moveTo(needle.x, needle.y);
  g.lineTo(hinge.x, hinge.y);
  g.lineTo(pencil.x, pencil.y);
  g.stroke();
  // the radius, dashed
  g.strokeStyle = accent;
  g.lineWidth = px;
  g.setLineDash([4 * px, 4 * px]);
  g.beginPath();
  g.moveTo(needle.x, needle.y);
  g.lineTo(pencil.x, pencil.y);
  g.stroke();
  g.setLineDash([]);
  if (s.peer && c.sweep !== 0 && c.radius > 0) {
    // the others see the sweep as a thin arc (the drawer sees their own stroke's preview)
    g.lineWidth = 2 * px;
    g.beginPath();
    g.arc(c.cx, c.cy, c.radius, c.startAngle, c.startAngle + c.sweep, c.sweep < 0);
    g.stroke();
  }
  g.globalAlpha = 1;
  g.fillStyle = col.ink;
  g.beginPath();
  g.arc(needle.x, needle.y, 3 * px, 0, TAU);
  g.fill();
  g.fillStyle = accent;
  g.beginPath();
  g.arc(pencil.x, pencil.y, (s.peer ? 4 : HANDLE_RADIUS_PX * 0.7) * px, 0, TAU);
  g.fill();
  g.restore();
  const sweep = c.sweep !== 0 ? ` · ${Math.round(Math.abs(degrees(c.sweep)))}°` : '';
  readingLabel(g, `${formatUnits(c.radius, s.unit)}${sweep}`, mid(needle, pencil, 0.5), s, col.ink);
  if (s.peer) nameTag(g, s.peer, hinge, s.zoom);
}

/** someone else's instrument as it came over the wire */
export function drawInstrument(g: CanvasRenderingContext2D, it: InstrumentPayload, s: InstrumentStyle): void {
  switch (it.type) {
    case 'ruler':
      return drawRuler(g, { x: it.x, y: it.y, angle: it.angle, length: it.size }, s);
    case 'protractor':
      return drawProtractor(
        g,
        { x: it.x, y: it.y, angle: it.angle, radius: it.size },
        Number.isFinite(it.extra) ? it.extra : null,
        s,
      );
    case 'compass':
      return drawCompass(
        g,
        { cx: it.x, cy: it.y, radius: it.size, startAngle: it.angle, sweep: Number.isFinite(it.extra) ? it.extra : 0 },
        s,
      );
  }
}

const isMultiple = (v: number, step: number): boolean => Math.abs(v / step - Math.round(v / step)) < 1e-6;
const mid = (a: Point, b: Point, t: number): Point => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });

/** a reading in a rounded plate, upright and the same size on screen at any zoom */
function readingLabel(g: CanvasRenderingContext2D, text: string, at: Point, s: InstrumentStyle, ink: string): void {
  const px = 1 / s.zoom;
  g.save();
  g.font = `600 ${LABEL_TEXT_PX * px}px ${FONT}`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  const w = g.measureText(text).width + 10 * px;
  const h = (LABEL_TEXT_PX + 6) * px;
  g.fillStyle = s.dark ? 'rgba(15,23,42,0.85)' : 'rgba(255,255,255,0.9)';
  g.beginPath();
  g.roundRect(at.x - w / 2, at.y - h / 2, w, h, 4 * px);
  g.fill();
  g.fillStyle = ink;
  g.globalAlpha = s.peer ? 0.8 : 1;
  g.fillText(text, at.x, at.y);
  g.restore();
}

/** the rotate handle (a turning arrow) and the close handle (×), fixed size on screen */
function handles(g: CanvasRenderingContext2D, h: { rotate: Point; close: Point }, zoom: number): void {
  const px = 1 / zoom;
  const r = HANDLE_RADIUS_PX * px;
  g.save();
  for (const [p, color] of [
    [h.rotate, ACCENT],
    [h.close, '#64748b'],
  ] as const) {
    g.fillStyle = color;
    g.beginPath();
    g.arc(p.x, p.y, r, 0, TAU);
    g.fill();
  }
  g.strokeStyle = '#ffffff';
  g.lineWidth = 1.6 * px;
  g.lineCap = 'round';
  g.beginPath();
  g.arc(h.rotate.x, h.rotate.y, r * 0.5, -Math.PI * 0.9, Math.PI * 0.5);
  const k = r * 0.45;
  g.moveTo(h.close.x - k, h.close.y - k);
  g.lineTo(h.close.x + k, h.close.y + k);
  g.moveTo(h.close.x + k, h.close.y - k);
  g.lineTo(h.close.x - k, h.close.y + k);
  g.stroke();
  g.restore();
}

/** whose instrument it is, like the name by a remote cursor */
function nameTag(g: CanvasRenderingContext2D, peer: { color: string; name: string }, at: Point, zoom: number): void {
  const px = 1 / zoom;
  g.save();
  g.font = `${11 * px}px ${FONT}`;
  g.textBaseline = 'top';
  const w = g.measureText(peer.name).width + 8 * px;
  g.fillStyle = peer.color;
  g.beginPath();
  g.roundRect(at.x + 4 * px, at.y + 4 * px, w, 16 * px, 3 * px);
  g.fill();
  g.fillStyle = '#ffffff';
  g.fillText(peer.name, at.x + 8 * px, at.y + 6.5 * px);
  g.restore();
}

/** '#rrggbb' → rgba() with an alpha (peer colours come as hex; anything else is used as is) */
function withAlpha(color: string, alpha: number): string {
  const m = /^#([0-9a-f]{6})$/i.exec(color);
  if (!m) return color;
  const v = parseInt(m[1]!, 16);
  return `rgba(${(v >> 16) & 255},${(v >> 8) & 255},${v & 255},${alpha})`;
}
