/**
 * The board background, drawn in screen space beneath the shapes for a camera. Line and dot
 * spacing is pure math (exported and unit tested); drawing only touches the visible lines, and
 * can be limited to a region (the strips the renderer repaints after a pan).
 */
import type { BoardBackground } from '@wb/proto';
import type { Camera } from './camera';
import { backgroundIsDark, surfaceColor } from './theme';

export { backgroundIsDark, surfaceColor } from './theme';

export interface GridSpacing {
  /** world units between minor lines (or dots) */
  minor: number;
  /** world units between major lines */
  major: number;
  /** screen pixels between minor lines */
  minorPx: number;
  /** 0…1: how visible minor and major lines are (dense grids fade out) */
  minorAlpha: number;
  majorAlpha: number;
}

/** adaptive grid: base spacing at zoom 1 (world units), kept 16–64 screen px, major every 4 */
export const ADAPTIVE_BASE = 32;
export const ADAPTIVE_MIN_PX = 16;
export const ADAPTIVE_MAX_PX = 64;
export const ADAPTIVE_MAJOR_EVERY = 4;

/**
 * Adaptive grid spacing: the base spacing doubled or halved until it is 16–64 screen px apart
 * (the smallest such power of two, so zooming in subdivides as soon as there is room).
 */
export function adaptiveGridSpacing(zoom: number): GridSpacing {
  const z = Math.max(zoom, 1e-9);
  const k = Math.ceil(Math.log2(ADAPTIVE_MIN_PX / (ADAPTIVE_BASE * z)));
  let minor = ADAPTIVE_BASE * 2 ** k;
  // floating point at exact powers of two: keep the invariant
  if (minor * z < ADAPTIVE_MIN_PX - 1e-9) minor *= 2;
  const minorPx = minor * z;
  // minor lines fade in as they open up from 16 to 32 px, so a level change does not pop
  const minorAlpha = Math.min(1, Math.max(0.35, (minorPx - ADAPTIVE_MIN_PX) / ADAPTIVE_MIN_PX));
  return { minor, major: minor * ADAPTIVE_MAJOR_EVERY, minorPx, minorAlpha, majorAlpha: 1 };
}

/** graph paper: fixed world spacing, minor 20, major every 5 */
export const GRAPH_MINOR = 20;
export const GRAPH_MAJOR_EVERY = 5;
/** below this many screen px lines fade out, fully gone at half of it */
export const FADE_PX = 8;

const fade = (px: number): number => Math.min(1, Math.max(0, (px - FADE_PX / 2) / (FADE_PX / 2)));

export function graphGridSpacing(zoom: number): GridSpacing {
  const minorPx = GRAPH_MINOR * zoom;
  return {
    minor: GRAPH_MINOR,
    major: GRAPH_MINOR * GRAPH_MAJOR_EVERY,
    minorPx,
    minorAlpha: fade(minorPx),
    majorAlpha: fade(minorPx * GRAPH_MAJOR_EVERY),
  };
}

/** dots: 24 world units apart, doubled while closer than 12 screen px (dots would turn grey) */
export const DOT_BASE = 24;
export const DOT_MIN_PX = 12;
export function dotGridSpacing(zoom: number): GridSpacing {
  const z = Math.max(zoom, 1e-9);
  let minor = DOT_BASE;
  while (minor * z < DOT_MIN_PX) minor *= 2;
  return { minor, major: minor, minorPx: minor * z, minorAlpha: 1, majorAlpha: 1 };
}

/** squared exercise-book paper: 5 mm-ish squares, fading when dense */
export const SQUARE = 40;
export function squaresSpacing(zoom: number): GridSpacing {
  const minorPx = SQUARE * zoom;
  return { minor: SQUARE, major: SQUARE, minorPx, minorAlpha: fade(minorPx), majorAlpha: fade(minorPx) };
}

/** ruled paper: lines 32 world units apart, margin line at world x = 0 */
export const RULED = 32;
export const MARGIN_X = 0;
export function ruledSpacing(zoom: number): GridSpacing {
  const minorPx = RULED * zoom;
  return { minor: RULED, major: RULED, minorPx, minorAlpha: fade(minorPx), majorAlpha: fade(minorPx) };
}

/** The grid snapping uses: the lines the background draws at this zoom (null: nothing to snap to). */
export function snapGrid(bg: BoardBackground, zoom: number): number | null {
  switch (bg) {
    case 'adaptiveGrid':
      return adaptiveGridSpacing(zoom).minor;
    case 'graphGrid':
      return graphGridSpacing(zoom).minor;
    case 'dotGrid':
      return dotGridSpacing(zoom).minor;
    case 'squares':
      return SQUARE;
    case 'lines':
      return RULED;
    default:
      return null;
  }
}

/** the world coordinates of the grid lines of `spacing` whose screen position lies in [from, to) */
export function gridLines(originWorld: number, zoom: number, spacing: number, fromPx: number, toPx: number): number[] {
  const out: number[] = [];
  if (!(spacing > 0) || !(zoom > 0)) return out;
  const first = Math.floor((originWorld + fromPx / zoom) / spacing);
  const last = Math.ceil((originWorld + toPx / zoom) / spacing);
  // a guard for absurd inputs: never more lines than pixels
  if (last - first > toPx - fromPx + 2) return out;
  for (let i = first; i <= last; i++) out.push(i * spacing);
  return out;
}

export interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Palette {
  minor: string;
  major: string;
  margin: string;
}

function palette(background: BoardBackground, theme: 'light' | 'dark'): Palette {
  if (background === 'oldPaper')
    return { minor: 'rgba(120,90,40,0.18)', major: 'rgba(120,90,40,0.28)', margin: 'rgba(170,60,40,0.35)' };
  if (background === 'blackboard')
    return { minor: 'rgba(255,255,255,0.07)', major: 'rgba(255,255,255,0.12)', margin: 'rgba(255,255,255,0.2)' };
  return backgroundIsDark(background, theme)
    ? { minor: 'rgba(255,255,255,0.08)', major: 'rgba(255,255,255,0.16)', margin: 'rgba(255,120,120,0.45)' }
    : { minor: 'rgba(0,0,0,0.07)', major: 'rgba(0,0,0,0.14)', margin: 'rgba(220,60,60,0.5)' };
}

/** crisp 1 px lines: at half pixels of the (CSS px) screen */
const crisp = (v: number) => Math.round(v) + 0.5;

function lines(
  g: CanvasRenderingContext2D,
  camera: Camera,
  r: Region,
  spacing: number,
  color: string,
  alpha: number,
  vertical: boolean,
  horizontal: boolean,
  skipEvery = 0,
): void {
  if (alpha <= 0) return;
  const z = camera.zoom;
  g.beginPath();
  if (vertical)
    for (const wx of gridLines(camera.x, z, spacing, r.x, r.x + r.w)) {
      if (skipEvery && Math.round(wx / spacing) % skipEvery === 0) continue;
      const sx = crisp((wx - camera.x) * z);
      g.moveTo(sx, r.y);
      g.lineTo(sx, r.y + r.h);
    }
  if (horizontal)
    for (const wy of gridLines(camera.y, z, spacing, r.y, r.y + r.h)) {
      if (skipEvery && Math.round(wy / spacing) % skipEvery === 0) continue;
      const sy = crisp((wy - camera.y) * z);
      g.moveTo(r.x, sy);
      g.lineTo(r.x + r.w, sy);
    }
  g.globalAlpha = alpha;
  g.strokeStyle = color;
  g.lineWidth = 1;
  g.stroke();
  g.globalAlpha = 1;
}

/**
 * Paint the background for `camera` into `region` (CSS px of the screen; default all of it).
 * The context's transform maps CSS px to the canvas (the device pixel ratio, no camera).
 */
export function drawBackground(
  g: CanvasRenderingContext2D,
  background: BoardBackground,
  theme: 'light' | 'dark',
  camera: Camera,
  width: number,
  height: number,
  region: Region = { x: 0, y: 0, w: width, h: height },
): void {
  const r = region;
  const pal = palette(background, theme);
  g.fillStyle = surfaceColor(background, theme);
  g.fillRect(r.x, r.y, r.w, r.h);
  const z = camera.zoom;
  switch (background) {
    case 'adaptiveGrid': {
      const s = adaptiveGridSpacing(z);
      lines(g, camera, r, s.minor, pal.minor, s.minorAlpha, true, true, ADAPTIVE_MAJOR_EVERY);
      lines(g, camera, r, s.major, pal.major, s.majorAlpha, true, true);
      break;
    }
    case 'graphGrid': {
      const s = graphGridSpacing(z);
      lines(g, camera, r, s.minor, pal.minor, s.minorAlpha, true, true, GRAPH_MAJOR_EVERY);
      lines(g, camera, r, s.major, pal.major, s.majorAlpha, true, true);
      break;
    }
    case 'squares': {
      const s = squaresSpacing(z);
      lines(g, camera, r, s.minor, pal.major, s.minorAlpha, true, true);
      break;
    }
    case 'dotGrid': {
      const s = dotGridSpacing(z);
      const xs = gridLines(camera.x, z, s.minor, r.x - 2, r.x + r.w + 2);
      const ys = gridLines(camera.y, z, s.minor, r.y - 2, r.y + r.h + 2);
      const d = Math.max(1.5, Math.min(3, s.minorPx / 12));
      g.fillStyle = pal.major;
      for (const wy of ys) {
        const sy = Math.round((wy - camera.y) * z) - d / 2;
        for (const wx of xs) g.fillRect(Math.round((wx - camera.x) * z) - d / 2, sy, d, d);
      }
      break;
    }
    case 'lines':
    case 'oldPaper': {
      const s = ruledSpacing(z);
      lines(g, camera, r, s.minor, background === 'oldPaper' ? pal.minor : pal.major, s.minorAlpha, false, true);
      const mx = crisp((MARGIN_X - camera.x) * z);
      if (background === 'lines' && mx >= r.x - 1 && mx <= r.x + r.w + 1) {
        g.beginPath();
        g.moveTo(mx, r.y);
        g.lineTo(mx, r.y + r.h);
        g.strokeStyle = pal.margin;
        g.lineWidth = 1;
        g.stroke();
      }
      break;
    }
    default:
      // empty, blackboard, plainColor: the surface colour is all
      break;
  }
}
