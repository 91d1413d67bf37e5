/// <reference types="jest" />
import { MAX_CANVAS_AREA, MAX_CANVAS_SIDE, pngSize } from './pngExport';

test('the pixel size is the region times the scale', () => {
  expect(pngSize({ minX: -10, minY: 0, maxX: 990, maxY: 500 }, 2)).toEqual({
    scale: 2,
    width: 2000,
    height: 1000,
    lowered: false,
  });
});

test('the scale is lowered to fit the longest side and the area Chromium allows', () => {
  const wide = pngSize({ minX: 0, minY: 0, maxX: 20_000, maxY: 1000 }, 4);
  expect(wide.lowered).toBe(true);
  expect(wide.width).toBeLessThanOrEqual(MAX_CANVAS_SIDE);
  expect(wide.width).toBeGreaterThan(MAX_CANVAS_SIDE * 0.99);
  const big = pngSize({ minX: 0, minY: 0, maxX: 8_000, maxY: 9_000 }, 2);
  expect(big.lowered).toBe(true);
  expect(Math.max(big.width, big.height)).toBeLessThanOrEqual(MAX_CANVAS_SIDE);
  expect(big.width * big.height).toBeLessThanOrEqual(MAX_CANVAS_AREA);
  expect(big.height).toBeGreaterThan(MAX_CANVAS_SIDE * 0.99);
});

test('an empty region is a clear error', () => {
  expect(() => pngSize({ minX: 0, minY: 0, maxX: 0, maxY: 10 }, 1)).toThrow(expect.objectContaining({ code: 'empty' }));
});

test('a pixel budget lowers the scale further', () => {
  const s = pngSize({ minX: 0, minY: 0, maxX: 4000, maxY: 3000 }, 2, 3_000_000);
  expect(s.lowered).toBe(true);
  expect(s.width * s.height).toBeLessThanOrEqual(3_000_000);
  expect(s.width * s.height).toBeGreaterThan(2_990_000);
});
