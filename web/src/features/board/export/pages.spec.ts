/// <reference types="jest" />
import {
  documentPages,
  exportItems,
  exportRegion,
  fitToPage,
  MAX_PAGES,
  OVERLAP,
  pageSize,
  PT_PER_UNIT,
  REGION_PADDING,
  splitIntoPages,
  splitPageCount,
  splitScale,
} from './pages';
import { rec, sceneOf } from './exportTesting';

const a4 = pageSize('a4', 'portrait', 20);

test('paper sizes and orientation', () => {
  expect(pageSize('a4', 'portrait')).toMatchObject({ width: 595.28, height: 841.89 });
  expect(pageSize('a4', 'landscape')).toMatchObject({ width: 841.89, height: 595.28 });
  expect(pageSize('letter', 'landscape')).toMatchObject({ width: 792, height: 612 });
});

test('fitting scales the region into the margins and centres it', () => {
  const p = fitToPage({ minX: 100, minY: 0, maxX: 1100, maxY: 500 }, a4);
  // width-bound: (595.28 − 40) / 1000
  expect(p.scale).toBeCloseTo(0.55528, 5);
  expect(p.x).toBeCloseTo(20, 6);
  expect(p.y).toBeCloseTo(20 + (801.89 - 500 * p.scale) / 2, 6);
  const tall = fitToPage({ minX: 0, minY: 0, maxX: 100, maxY: 2000 }, a4);
  expect(tall.scale).toBeCloseTo(801.89 / 2000, 6);
  expect(tall.y).toBeCloseTo(20, 6);
});

test('splitting tiles the region in reading order with an overlap, covering all of it', () => {
  const region = { minX: 0, minY: 0, maxX: 1500, maxY: 1200 };
  const pages = splitIntoPages(region, a4, 1);
  // content 555.28 × 801.89 pt, steps 537.28 and 783.89: 3 columns, 2 rows
  expect(pages).toHaveLength(6);
  expect(splitPageCount(region, a4, 1)).toBe(6);
  expect(pages.map((p) => [Math.round(p.region.minX), Math.round(p.region.minY)])).toEqual([
    [0, 0],
    [537, 0],
    [1075, 0],
    [0, 784],
    [537, 784],
    [1075, 784],
  ]);
  // neighbours overlap by OVERLAP points, the last tiles end at the region's edge
  expect(pages[0]!.region.maxX - pages[1]!.region.minX).toBeCloseTo(OVERLAP, 6);
  expect(pages[2]!.region.maxX).toBe(1500);
  expect(pages[5]!.region.maxY).toBe(1200);
  for (const p of pages) expect([p.x, p.y, p.scale]).toEqual([20, 20, 1]);
});

test('a region smaller than a page is one page', () => {
  expect(splitIntoPages({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, a4, PT_PER_UNIT)).toHaveLength(1);
});

test('the split scale is 100 % unless that needs more than MAX_PAGES pages', () => {
  expect(splitScale({ minX: 0, minY: 0, maxX: 2000, maxY: 1000 }, a4)).toBe(PT_PER_UNIT);
  const huge = { minX: 0, minY: 0, maxX: 20_000, maxY: 15_000 };
  const s = splitScale(huge, a4);
  expect(s).toBeLessThan(PT_PER_UNIT);
  expect(splitPageCount(huge, a4, s)).toBeLessThanOrEqual(MAX_PAGES);
  expect(splitPageCount(huge, a4, s / 0.9)).toBeGreaterThan(MAX_PAGES);
});

test('regions: whole board and selection padded, the view as it is, null when empty', () => {
  const a = rec.shape({ x: 0, y: 0, w: 100, h: 100, strokeWidth: 0 });
  const b = rec.shape({ x: 1000, y: 500, w: 100, h: 100, strokeWidth: 0 });
  const scene = sceneOf([a, b]);
  const all = exportRegion(scene, 'board', new Set(), { minX: 0, minY: 0, maxX: 1, maxY: 1 })!;
  expect(all.minX).toBeCloseTo(-1 - REGION_PADDING);
  expect(all.maxX).toBeCloseTo(1101 + REGION_PADDING);
  const sel = exportRegion(scene, 'selection', new Set([b.id]), { minX: 0, minY: 0, maxX: 1, maxY: 1 })!;
  expect(sel.minX).toBeCloseTo(999 - REGION_PADDING);
  expect(sel.maxY).toBeCloseTo(601 + REGION_PADDING);
  const view = { minX: -50, minY: -50, maxX: 300, maxY: 200 };
  expect(exportRegion(scene, 'view', new Set(), view)).toEqual(view);
  expect(exportRegion(scene, 'selection', new Set(), view)).toBeNull();
  expect(exportRegion(sceneOf([]), 'board', new Set(), view)).toBeNull();
  // a selection exports the selected shapes only, even where others overlap its region
  expect(exportItems(scene, all, new Set([b.id])).map((it) => it.shape.id)).toEqual([b.id]);
  expect(exportItems(scene, all)).toHaveLength(2);
});

test('document pages: one per documentPage record in z order, its box as the region', () => {
  const p1 = rec.documentPage(1, 0, 0);
  const p2 = rec.documentPage(2, 0, 900, { rotation: Math.PI / 2 });
  const scene = sceneOf([p1, rec.pen([0, 0, 10, 10]), p2]);
  const pages = documentPages(scene);
  expect(pages.map((p) => p.id)).toEqual([p1.id, p2.id]);
  expect(pages[0]!.region).toEqual({ minX: 0, minY: 0, maxX: 595, maxY: 842 });
  // turned a quarter: its bounds are landscape
  expect(pages[1]!.region.maxX - pages[1]!.region.minX).toBeGreaterThan(pages[1]!.region.maxY - pages[1]!.region.minY);
});
