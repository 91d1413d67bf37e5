/// <reference types="jest" />
/** Where files land: natural aspect ratios, a column of pages with a gap, measuring, drag payloads. */
import {
  FALLBACK_PAGE_ASPECT,
  PAGE_GAP,
  PAGE_WIDTH,
  columnLayout,
  decodeDrag,
  dragPayloadOf,
  encodeDrag,
  imageShape,
  pageAspects,
  pageShape,
} from './placement';

const ID = 'a'.repeat(64);
const VIEW = { minX: 0, minY: 0, maxX: 2000, maxY: 1500 };

describe('imageShape', () => {
  test('keeps the natural aspect, centred on the point, longest side 800', () => {
    const s = imageShape(ID, 2, { x: 100, y: 50 }, VIEW);
    expect(s).toEqual({ kind: 'image', fileId: ID, x: -300, y: -150, w: 800, h: 400 });
    const tall = imageShape(ID, 0.5, { x: 0, y: 0 }, VIEW);
    expect([tall.w, tall.h]).toEqual([400, 800]);
  });
  test('fits within 70 % of a small (zoomed-in) view', () => {
    const s = imageShape(ID, 16 / 9, { x: 0, y: 0 }, { minX: 0, minY: 0, maxX: 200, maxY: 100 });
    expect(s.w).toBeCloseTo(70 * (16 / 9));
    expect(s.h).toBeCloseTo(70);
    expect(s.w / s.h).toBeCloseTo(16 / 9);
  });
  test('an unmeasurable image gets 4:3', () => {
    const s = imageShape(ID, NaN, { x: 0, y: 0 }, VIEW);
    expect(s.w / s.h).toBeCloseTo(4 / 3);
  });
});

describe('columnLayout', () => {
  test('pages 800 wide, heights from each page, the first centred on the point, a gap between', () => {
    const items = [
      { kind: 'documentPage' as const, fileId: ID, page: 0, aspect: 0.5 },
      { kind: 'documentPage' as const, fileId: ID, page: 1, aspect: 2 },
      { kind: 'documentPage' as const, fileId: ID, page: 2, aspect: 1 },
    ];
    const shapes = columnLayout(items, { x: 1000, y: 0 });
    expect(shapes.map((s) => [s.kind, 'page' in s ? s.page : -1, s.x, s.y, s.w, s.h])).toEqual([
      ['documentPage', 0, 600, -800, PAGE_WIDTH, 1600],
      ['documentPage', 1, 600, 800 + PAGE_GAP, PAGE_WIDTH, 400],
      ['documentPage', 2, 600, 800 + PAGE_GAP + 400 + PAGE_GAP, PAGE_WIDTH, 800],
    ]);
  });
  test('images keep their ratio within the column width; nothing gives nothing', () => {
    const [img] = columnLayout([{ kind: 'image', fileId: ID, aspect: 0.5 }], { x: 0, y: 0 });
    expect(img).toMatchObject({ kind: 'image', w: 400, h: 800, x: -200, y: -400 });
    expect(columnLayout([], { x: 0, y: 0 })).toEqual([]);
  });
  test('pageShape: one page centred, A4 when unknown', () => {
    const s = pageShape(ID, 4, NaN, { x: 0, y: 0 });
    expect(s).toMatchObject({ kind: 'documentPage', page: 4, w: 800 });
    expect(s.w / s.h).toBeCloseTo(FALLBACK_PAGE_ASPECT);
  });
});

describe('pageAspects', () => {
  test('measures every page thumbnail a few at a time; failures take the first known aspect', async () => {
    let active = 0;
    let peak = 0;
    const asked: string[] = [];
    const measure = async (url: string) => {
      asked.push(url);
      active += 1;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 1));
      active -= 1;
      if (url.includes('-1-')) throw new Error('404');
      return url.includes('-2-') ? 2 : 0.75;
    };
    const aspects = await pageAspects(ID, 6, measure, 3);
    expect(aspects).toEqual([0.75, 0.75, 2, 0.75, 0.75, 0.75]);
    expect(asked.sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `/docs/${ID}-${i}-thumb.webp`));
    expect(peak).toBe(3);
  });
  test('nothing measurable: A4', async () => {
    expect(await pageAspects(ID, 2, () => Promise.reject(new Error('x')))).toEqual([
      FALLBACK_PAGE_ASPECT,
      FALLBACK_PAGE_ASPECT,
    ]);
  });
});

describe('drag payload', () => {
  test('round trip; junk and foreign ids are refused', () => {
    for (const p of [
      { kind: 'image', fileId: ID },
      { kind: 'documentPage', fileId: ID, page: 3 },
      { kind: 'document', fileId: ID, pages: 12 },
    ] as const)
      expect(decodeDrag(encodeDrag(p))).toEqual(p);
    expect(decodeDrag('not json')).toBeNull();
    expect(decodeDrag(JSON.stringify({ kind: 'image', fileId: '../etc/passwd' }))).toBeNull();
    expect(decodeDrag(JSON.stringify({ kind: 'documentPage', fileId: ID, page: -1 }))).toBeNull();
    expect(decodeDrag(JSON.stringify({ kind: 'document', fileId: ID, pages: 0 }))).toBeNull();
    expect(decodeDrag(JSON.stringify({ kind: 'pen', fileId: ID }))).toBeNull();
  });
  test('a card drags by its image id (never the content hash): an image, its one page, or the whole document', () => {
    expect(dragPayloadOf({ imageId: ID, isImage: 1, pages: 1 })).toEqual({ kind: 'image', fileId: ID });
    expect(dragPayloadOf({ imageId: ID, isImage: 0, pages: 1 })).toEqual({ kind: 'documentPage', fileId: ID, page: 0 });
    expect(dragPayloadOf({ imageId: ID, isImage: 0, pages: 5 })).toEqual({ kind: 'document', fileId: ID, pages: 5 });
  });
});
