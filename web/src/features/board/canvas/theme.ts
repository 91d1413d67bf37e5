/**
 * Colours of the board surface per theme and background, and ink that stays readable on it:
 * stored colours never change, only how they are drawn (a black pen stroke on the blackboard is
 * drawn light, a white one on paper is drawn dark).
 */
import type { BoardBackground } from '@wb/proto';

/** What every painter needs besides the shape. */
export interface PaintContext {
  theme: 'light' | 'dark';
  background: BoardBackground;
  /** screen pixels per world unit (level of detail, hairlines) */
  zoom: number;
  /** an image finished loading (or failed): the caller redraws */
  onAsset: () => void;
  /**
   * a painter drew a placeholder for something still loading (a formula being typeset, a graph
   * being plotted): an export waits for these before it paints for real
   */
  onPending?: () => void;
}

export const DEFAULT_PAINT_CONTEXT: PaintContext = {
  theme: 'light',
  background: 'empty',
  zoom: 1,
  onAsset: () => undefined,
};

/** The board surface colour under the shapes (#rrggbb). */
export function surfaceColor(background: BoardBackground, theme: 'light' | 'dark'): string {
  const dark = theme === 'dark';
  switch (background) {
    case 'oldPaper':
      return dark ? '#d9c9a3' : '#f3e7c9';
    case 'blackboard':
      return dark ? '#1f2b26' : '#2b3a33';
    case 'plainColor':
      return dark ? '#26303a' : '#eef3f8';
    default:
      return dark ? '#1e1f22' : '#ffffff';
  }
}

/** Is the surface dark (decides how ink is drawn)? */
export function backgroundIsDark(background: BoardBackground, theme: 'light' | 'dark'): boolean {
  if (background === 'blackboard') return true;
  if (background === 'oldPaper') return false;
  return theme === 'dark';
}

/** Relative luminance (WCAG) of 0xRRGGBB, 0…1. */
export function luminance(color: number): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin((color >> 16) & 255) + 0.7152 * lin((color >> 8) & 255) + 0.0722 * lin(color & 255);
}

/** the same hue and saturation with lightness inverted (L → 1 − L), as 0xRRGGBB */
export function invertLightness(color: number): number {
  const r = ((color >> 16) & 255) / 255;
  const g = ((color >> 8) & 255) / 255;
  const b = (color & 255) / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  let h = 0;
  let s = 0;
  if (d > 0) {
    s = d / (1 - Math.abs(2 * l - 1));
    h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    h *= 60;
    if (h < 0) h += 360;
  }
  const l2 = 1 - l;
  const c = (1 - Math.abs(2 * l2 - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l2 - c / 2;
  const [r1, g1, b1] =
    h < 60
      ? [c, x, 0]
      : h < 120
        ? [x, c, 0]
        : h < 180
          ? [0, c, x]
          : h < 240
            ? [0, x, c]
            : h < 300
              ? [x, 0, c]
              : [c, 0, x];
  const to = (v: number) => Math.max(0, Math.min(255, Math.round((v + m) * 255)));
  return (to(r1) << 16) | (to(g1) << 8) | to(b1);
}

export function hex(color: number): string {
  return `#${(color & 0xffffff).toString(16).padStart(6, '0')}`;
}

/** 0xRRGGBB → rgba() with an alpha */
export function rgba(color: number, alpha: number): string {
  return `rgba(${(color >> 16) & 255},${(color >> 8) & 255},${color & 255},${alpha})`;
}

const DARK_INK = 0.25;
const LIGHT_INK = 0.8;
// painters ask for the same few colours thousands of times per frame
const inkCache = new Map<number, string>();

/**
 * The CSS colour to draw ink of `color` with on this surface: very dark ink (luminance < 0.25)
 * on a dark surface and near-white ink (> 0.8) on a light one have their lightness inverted.
 */
export function inkColor(color: number, ctx: Pick<PaintContext, 'theme' | 'background'>): string {
  const c = color & 0xffffff;
  const dark = backgroundIsDark(ctx.background, ctx.theme);
  const key = dark ? c + 0x1000000 : c;
  let out = inkCache.get(key);
  if (out === undefined) {
    const lum = luminance(c);
    out = hex((dark && lum < DARK_INK) || (!dark && lum > LIGHT_INK) ? invertLightness(c) : c);
    if (inkCache.size > 4096) inkCache.clear();
    inkCache.set(key, out);
  }
  return out;
}

/** Text on a sticky note: dark on its colour, light only when the note itself is dark. */
export function stickyTextColor(noteColor: number): string {
  return luminance(noteColor & 0xffffff) < 0.18 ? '#f5f5f5' : '#1f1f1f';
}

/** Neutral colours of placeholders, LOD bars and frames per theme. */
export function uiColors(ctx: Pick<PaintContext, 'theme' | 'background'>): {
  placeholder: string;
  glyph: string;
  frame: string;
  textBar: string;
} {
  const dark = backgroundIsDark(ctx.background, ctx.theme);
  return dark
    ? { placeholder: '#3a3d42', glyph: '#8a8f98', frame: '#6b7079', textBar: 'rgba(220,220,220,0.45)' }
    : { placeholder: '#e6e7ea', glyph: '#9aa0a8', frame: '#b8bcc4', textBar: 'rgba(60,60,60,0.35)' };
}
