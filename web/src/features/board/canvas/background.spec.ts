/**
 * @jest-environment node
 */
/// <reference types="jest" />
/** Background spacing math: adaptive levels, graph paper fading, dots, line positions. */
import { BOARD_BACKGROUNDS } from '@wb/proto';
import {
  ADAPTIVE_MAJOR_EVERY,
  adaptiveGridSpacing,
  backgroundIsDark,
  dotGridSpacing,
  drawBackground,
  graphGridSpacing,
  gridLines,
  RULED,
  snapGrid,
  SQUARE,
  surfaceColor,
} from './background';

describe('background spacing', () => {
  it('adaptive grid stays 16–64 screen px and doubles/halves with zoom; major every 4', () => {
    for (let zoom = 0.05; zoom <= 20; zoom *= 1.07) {
      const s = adaptiveGridSpacing(zoom);
      expect(s.minorPx).toBeGreaterThanOrEqual(16 - 1e-6);
      expect(s.minorPx).toBeLessThanOrEqual(64);
      expect(s.major).toBe(s.minor * ADAPTIVE_MAJOR_EVERY);
      expect(Math.log2(s.minor / 32) % 1).toBeCloseTo(0);
    }
    expect(adaptiveGridSpacing(1).minor).toBe(16);
    expect(adaptiveGridSpacing(0.5).minor).toBe(32);
    expect(adaptiveGridSpacing(0.4).minor).toBe(64);
    expect(adaptiveGridSpacing(2).minor).toBe(8);
  });

  it('graph grid has fixed world spacing and fades out when dense', () => {
    expect(graphGridSpacing(1)).toMatchObject({ minor: 20, major: 100, minorAlpha: 1, majorAlpha: 1 });
    expect(graphGridSpacing(0.1).minorAlpha).toBe(0);
    expect(graphGridSpacing(0.1).majorAlpha).toBe(1);
    expect(graphGridSpacing(0.01).majorAlpha).toBe(0);
    const mid = graphGridSpacing(0.3).minorAlpha;
    expect(mid).toBeGreaterThan(0);
    expect(mid).toBeLessThan(1);
  });

  it('dots are at least 12 px apart', () => {
    for (const z of [0.05, 0.2, 0.5, 1, 4]) expect(dotGridSpacing(z).minorPx).toBeGreaterThanOrEqual(12);
  });

  it('grid lines cover the screen span', () => {
    const xs = gridLines(-15, 2, 10, 0, 100);
    expect(xs[0]).toBeLessThanOrEqual(-15);
    expect(xs.at(-1)).toBeGreaterThanOrEqual(35);
    expect(xs.every((v) => v % 10 === 0)).toBe(true);
    expect(gridLines(0, 1, 0, 0, 100)).toEqual([]);
  });

  it('every background draws, theme-aware, with dark surfaces known', () => {
    const calls: string[] = [];
    const g = new Proxy(
      {},
      {
        get: (_t, k) =>
          typeof k === 'string' &&
          /^[a-z]/.test(k) &&
          !['fillStyle', 'strokeStyle', 'lineWidth', 'globalAlpha'].includes(k)
            ? (..._a: unknown[]) => calls.push(k)
            : undefined,
        set: () => true,
      },
    ) as unknown as CanvasRenderingContext2D;
    for (const bg of BOARD_BACKGROUNDS)
      for (const theme of ['light', 'dark'] as const) {
        calls.length = 0;
        drawBackground(g, bg, theme, { x: -33, y: 17, zoom: 0.8 }, 800, 600);
        expect(calls[0]).toBe('fillRect');
        expect(surfaceColor(bg, theme)).toMatch(/^#[0-9a-f]{6}$/);
      }
    expect(surfaceColor('empty', 'dark')).not.toBe(surfaceColor('empty', 'light'));
    expect(backgroundIsDark('blackboard', 'light')).toBe(true);
    expect(backgroundIsDark('dotGrid', 'light')).toBe(false);
  });
});

describe('snapGrid', () => {
  it('snaps to the lines the background draws, and to nothing on plain ones', () => {
    expect(snapGrid('empty', 1)).toBeNull();
    expect(snapGrid('plainColor', 1)).toBeNull();
    expect(snapGrid('blackboard', 1)).toBeNull();
    expect(snapGrid('squares', 1)).toBe(SQUARE);
    expect(snapGrid('lines', 2)).toBe(RULED);
    for (const zoom of [0.1, 0.5, 1, 3]) {
      const px = snapGrid('adaptiveGrid', zoom)! * zoom;
      expect(px).toBeGreaterThanOrEqual(16);
      expect(px).toBeLessThan(64);
      expect(snapGrid('adaptiveGrid', zoom)).toBe(adaptiveGridSpacing(zoom).minor);
    }
  });
});
