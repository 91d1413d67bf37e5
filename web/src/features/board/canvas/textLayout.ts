/**
 * Text wrapping shared by the painters, hit tests and the text tool, so what is drawn, what is
 * hit and what is edited have the same lines. Measures with one shared canvas context; without
 * a canvas (jsdom, Node) every character is estimated at 0.55 em, which keeps tests and the
 * realtime-free geometry deterministic.
 */

export interface TextLayout {
  lines: string[];
  /** widest line, in the font's units (world units when fontSize is in world units) */
  width: number;
  height: number;
  lineHeight: number;
  /** some word was wider than maxWidth and was broken between characters */
  broken: boolean;
}

/** line height as a multiple of the font size */
export const LINE_HEIGHT = 1.25;
const ESTIMATE_EM = 0.55;

type Measurer = (s: string) => number;
let ctx2d: CanvasRenderingContext2D | null | undefined;

function measureContext(): CanvasRenderingContext2D | null {
  if (ctx2d !== undefined) return ctx2d;
  ctx2d = null;
  try {
    if (typeof OffscreenCanvas !== 'undefined') {
      ctx2d = new OffscreenCanvas(1, 1).getContext('2d') as unknown as CanvasRenderingContext2D | null;
    } else if (typeof document !== 'undefined') {
      // jsdom returns null (with a "not implemented" warning) here: we fall back to estimates
      const c = document.createElement('canvas');
      const proto = Object.getPrototypeOf(c) as { getContext?: unknown };
      if (typeof proto.getContext === 'function' && !/jsdom/i.test(navigator.userAgent)) ctx2d = c.getContext('2d');
    }
  } catch {
    ctx2d = null;
  }
  return ctx2d;
}

/** CSS font of a board font name at a size */
export function cssFont(font: string, fontSize: number): string {
  const family = /^[\w-]+$/.test(font) ? font : `"${font.replace(/"/g, '')}"`;
  return `${fontSize}px ${family}, sans-serif`;
}

let currentFont = '';
function measurer(font: string, fontSize: number): Measurer {
  const g = measureContext();
  if (!g) return (s) => s.length * ESTIMATE_EM * fontSize;
  const css = cssFont(font, fontSize);
  // setting ctx.font parses the CSS font each time: only when it changes
  return (s) => {
    if (currentFont !== css) g.font = currentFont = css;
    return g.measureText(s).width;
  };
}

// Layouts are asked for on every frame (painters, LOD bars) and per hit test: keep the recent ones.
const cache = new Map<string, TextLayout>();
// a 20,000-object board has ~5,000 text-bearing shapes: its preview and then its document are
// laid out with the same keys (S9), so the second pass should find them all
const CACHE_MAX = 25_000;

/**
 * Word widths per font: wrapping adds them up instead of measuring the growing line again for
 * every word (measureText dominated opening a board with thousands of text boxes), and the lines
 * of wrapped text are as wide as their words. Kerning across a word boundary is ignored. Widths
 * are measured once per font at REFERENCE_SIZE and scaled: a sticky note's fitted size is
 * searched over many sizes, which then cost no measuring at all.
 */
const wordWidths = new Map<string, Map<string, number>>();
const WORDS_MAX = 20_000;
const REFERENCE_SIZE = 100;

function wordMeasurer(font: string, fontSize: number): Measurer {
  let widths = wordWidths.get(font);
  if (!widths) {
    if (wordWidths.size >= 64) wordWidths.delete(wordWidths.keys().next().value as string);
    wordWidths.set(font, (widths = new Map()));
  }
  const cached = widths;
  const measure = measurer(font, REFERENCE_SIZE);
  const scale = fontSize / REFERENCE_SIZE;
  return (word) => {
    let w = cached.get(word);
    if (w === undefined) {
      w = measure(word);
      if (cached.size >= WORDS_MAX) cached.clear();
      cached.set(word, w);
    }
    return w * scale;
  };
}

const isSpace = (s: string) => /^\s+$/.test(s);

/** Wrap `text` (newlines kept) to `maxWidth` (Infinity: no wrapping); long words break by character. */
export function layoutText(text: string, font: string, fontSize: number, maxWidth: number): TextLayout {
  const key = `${font}\u0000${fontSize}\u0000${maxWidth}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const measure = measurer(font, fontSize);
  const wordWidth = wordMeasurer(font, fontSize);
  const lines: string[] = [];
  let width = 0;
  let broken = false;
  /** `known`: the line's width as the sum of its words (wrapped lines), else it is measured */
  const push = (line: string, known?: number) => {
    lines.push(line);
    const w = known ?? measure(line);
    if (w > width) width = w;
  };
  /** a word wider than the box: whole lines of it are pushed, the rest starts the next line */
  const breakWord = (word: string): string => {
    broken = true;
    let part = '';
    for (const ch of word) {
      if (part && measure(part + ch) > maxWidth) {
        push(part);
        part = '';
      }
      part += ch;
    }
    return part;
  };
  for (const para of text.split('\n')) {
    if (!(maxWidth < Infinity)) {
      push(para);
      continue;
    }
    let line = '';
    let lineWidth = 0;
    // the width up to the line's last word: what trimEnd() leaves (thousands of text boxes on a
    // big board: measuring every wrapped line again was most of the layout time)
    let wordsWidth = 0;
    for (const word of para.split(/(\s+)/)) {
      if (word === '') continue;
      const w = wordWidth(word);
      const space = isSpace(word);
      if (line === '' || lineWidth + w <= maxWidth) {
        if (line === '' && w > maxWidth && !space) {
          line = breakWord(word);
          lineWidth = wordsWidth = measure(line);
        } else {
          line += word;
          lineWidth += w;
          if (!space) wordsWidth = lineWidth;
        }
        continue;
      }
      push(line.trimEnd(), wordsWidth);
      line = space ? '' : word;
      lineWidth = wordsWidth = line ? w : 0;
      if (lineWidth > maxWidth) {
        line = breakWord(line);
        lineWidth = wordsWidth = measure(line);
      }
    }
    push(line.trimEnd(), wordsWidth);
  }
  const lineHeight = fontSize * LINE_HEIGHT;
  const out: TextLayout = { lines, width, height: lines.length * lineHeight, lineHeight, broken };
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, out);
  return out;
}

/** text fitted in a box: its size, its lines, and whether they are taller than the box */
export interface FittedText {
  fontSize: number;
  layout: TextLayout;
  overflows: boolean;
}

const fits = (l: TextLayout, w: number, h: number) => !l.broken && l.height <= h && l.width <= w + 0.5;

/**
 * Sticky notes and shape labels (the painters and every export use this, so the screen, PNG, SVG
 * and PDF break the same lines): the largest font size in [min, max] at which the text fits the
 * w × h box with every word whole, found by binary search. Only when that is impossible even at
 * `min` (a single word wider than the box, or too much text) is the text laid out at `min`, where
 * a word wider than the box breaks between characters and what is too tall overflows.
 */
export function fitText(text: string, font: string, w: number, h: number, min = 10, max = 48): FittedText {
  const done = (fontSize: number): FittedText => {
    const layout = layoutText(text, font, fontSize, w);
    return { fontSize, layout, overflows: layout.height > h };
  };
  if (!text) return done(max);
  if (!fits(layoutText(text, font, min, w), w, h)) return done(min);
  let lo = min;
  let hi = max;
  if (fits(layoutText(text, font, hi, w), w, h)) return done(hi);
  while (hi - lo > 0.5) {
    const mid = (lo + hi) / 2;
    if (fits(layoutText(text, font, mid, w), w, h)) lo = mid;
    else hi = mid;
  }
  return done(Math.max(min, Math.floor(lo * 2) / 2));
}

/** a sticky note's text inset from its edges, as a share of its smaller side */
export const STICKY_PAD = 0.08;

/** a sticky note's text: its box (inset by STICKY_PAD) and its fitted lines, 10–48 units */
export function stickyText(
  text: string,
  font: string,
  x: number,
  y: number,
  w: number,
  h: number,
): FittedText & { box: { x: number; y: number; w: number; h: number } } {
  const pad = Math.min(w, h) * STICKY_PAD;
  const box = { x: x + pad, y: y + pad, w: w - 2 * pad, h: h - 2 * pad };
  return { box, ...fitText(text, font, box.w, box.h, 10, 48) };
}

/** a shape's label: inside the inner 80 % of its box, 6–24 units */
export function shapeLabelText(
  text: string,
  font: string,
  x: number,
  y: number,
  w: number,
  h: number,
): FittedText & { box: { x: number; y: number; w: number; h: number } } {
  const box = { x: x + w * 0.1, y: y + h * 0.1, w: w * 0.8, h: h * 0.8 };
  return { box, ...fitText(text, font, box.w, box.h, 6, 24) };
}

/** The fitted font size of fitText. */
export function fitFontSize(text: string, font: string, w: number, h: number, min = 10, max = 48): number {
  return fitText(text, font, w, h, min, max).fontSize;
}
