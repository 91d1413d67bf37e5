import { DEFAULT_PAINT_CONTEXT, type PaintContext } from '../canvas/theme';
import { GraphImageCache, MAX_GRAPH_BITMAP, scaleBucket, svgDataUrl } from './graphImages';
import { paintGraph } from './paintGraph';

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320" viewBox="0 0 480 320"><path d="M0,0"/></svg>';

/** a render and an image loader the test settles by hand */
function fakes() {
  const renders: { args: unknown[]; resolve: (svg: string) => void; reject: (e: Error) => void }[] = [];
  const loads: { url: string; resolve: () => void; reject: () => void }[] = [];
  const render = jest.fn(
    (...args: unknown[]) =>
      new Promise<string>((resolve, reject) => {
        renders.push({ args, resolve, reject });
      }),
  );
  const load = jest.fn(
    (url: string) =>
      new Promise<HTMLImageElement>((resolve, reject) => {
        const img = { url } as unknown as HTMLImageElement;
        loads.push({ url, resolve: () => resolve(img), reject: () => reject(new Error('decode')) });
      }),
  );
  return { renders, loads, cache: new GraphImageCache(render, load), render, load };
}
const settle = () => new Promise<void>((r) => setTimeout(r, 0));

test('scaleBucket: powers of two from 1, within the bitmap limit', () => {
  expect(scaleBucket(0.3, 480, 320)).toBe(1);
  expect(scaleBucket(1, 480, 320)).toBe(1);
  expect(scaleBucket(1.2, 480, 320)).toBe(2);
  expect(scaleBucket(3, 480, 320)).toBe(4);
  expect(scaleBucket(100, 480, 320)).toBe(8);
  expect(scaleBucket(8, 1000, 300)).toBe(4);
  expect(scaleBucket(8, MAX_GRAPH_BITMAP * 2, 10)).toBe(1);
  expect(scaleBucket(NaN, 480, 320)).toBe(1);
});

test('svgDataUrl scales the size, not the layout (the viewBox stays)', () => {
  const url = svgDataUrl(SVG, 2);
  const svg = decodeURIComponent(url.slice('data:image/svg+xml;charset=utf-8,'.length));
  expect(svg).toContain('width="960" height="640" viewBox="0 0 480 320"');
  expect(svgDataUrl(SVG, 1)).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(SVG)}`);
});

describe('GraphImageCache', () => {
  test('renders once per spec, size and theme, one at a time; tells the asker when ready', async () => {
    const { cache, renders, loads } = fakes();
    const ready = jest.fn();
    expect(cache.get('{"a":1}', 480, 320, false, 1, ready)).toEqual({ state: 'loading', image: null, message: null });
    cache.get('{"a":1}', 480, 320, false, 1, ready);
    cache.get('{"b":1}', 480, 320, true, 1);
    expect(renders.map((r) => r.args)).toEqual([['{"a":1}', 480, 320, { dark: false }]]);
    expect(cache.pending).toBe(2);

    renders[0]!.resolve(SVG);
    await settle();
    expect(ready).toHaveBeenCalledTimes(1);
    // the second render starts only now
    expect(renders.map((r) => r.args[3])).toEqual([{ dark: false }, { dark: true }]);

    // asked again (the redraw): the image at this zoom is decoded
    expect(cache.get('{"a":1}', 480, 320, false, 1, ready).state).toBe('loading');
    expect(loads.map((l) => l.url)).toEqual([svgDataUrl(SVG, 1)]);
    loads[0]!.resolve();
    await settle();
    expect(ready).toHaveBeenCalledTimes(2);
    const done = cache.get('{"a":1}', 480, 320, false, 1, ready);
    expect(done.state).toBe('ready');
    expect((done.image as unknown as { url: string }).url).toBe(svgDataUrl(SVG, 1));
  });

  test('zooming in decodes a sharper image and shows the old one meanwhile', async () => {
    const { cache, renders, loads } = fakes();
    cache.get('s', 480, 320, false, 1);
    renders[0]!.resolve(SVG);
    await settle();
    cache.get('s', 480, 320, false, 1);
    loads[0]!.resolve();
    await settle();
    const ready = jest.fn();
    const zoomed = cache.get('s', 480, 320, false, 3, ready);
    expect(zoomed.state).toBe('ready');
    expect((zoomed.image as unknown as { url: string }).url).toBe(svgDataUrl(SVG, 1));
    expect(loads[1]!.url).toBe(svgDataUrl(SVG, 4));
    loads[1]!.resolve();
    await settle();
    expect(ready).toHaveBeenCalledTimes(1);
    expect((cache.get('s', 480, 320, false, 3).image as unknown as { url: string }).url).toBe(svgDataUrl(SVG, 4));
    expect(renders).toHaveLength(1);
  });

  test('a failed render or decode is an error with a message, and the queue goes on', async () => {
    const { cache, renders, loads } = fakes();
    cache.get('bad', 480, 320, false, 1);
    cache.get('next', 480, 320, false, 1);
    renders[0]!.reject(new Error('Failed to fetch dynamically imported module'));
    await settle();
    expect(cache.get('bad', 480, 320, false, 1)).toEqual({
      state: 'error',
      image: null,
      message: 'The graph tool could not be loaded.',
    });
    expect(renders).toHaveLength(2);
    renders[1]!.resolve(SVG);
    await settle();
    cache.get('next', 480, 320, false, 1);
    loads[0]!.reject();
    await settle();
    expect(cache.get('next', 480, 320, false, 1)).toMatchObject({
      state: 'error',
      message: 'The graph could not be drawn.',
    });
  });

  test('resizing renders only the newest waiting size and shows the old image stretched meanwhile', async () => {
    const { cache, renders, loads } = fakes();
    cache.get('s', 480, 320, false, 1);
    renders[0]!.resolve(SVG);
    await settle();
    cache.get('s', 480, 320, false, 1);
    loads[0]!.resolve();
    await settle();
    // a live resize: 500, 520, 540 wide while 500 renders
    for (const w of [500, 520, 540]) {
      const shown = cache.get('s', w, 320, false, 1);
      expect(shown.state).toBe('loading');
      expect((shown.image as unknown as { url: string }).url).toBe(svgDataUrl(SVG, 1));
    }
    renders[1]!.resolve(SVG);
    await settle();
    expect(renders.map((r) => r.args[1])).toEqual([480, 500, 540]);
  });

  test('a render that throws synchronously does not escape', async () => {
    const cache = new GraphImageCache(() => {
      throw new Error('boom');
    });
    expect(() => cache.get('x', 100, 100, false, 1)).not.toThrow();
    await settle();
    expect(cache.get('x', 100, 100, false, 1)).toMatchObject({
      state: 'error',
      message: 'The graph could not be drawn.',
    });
  });

  test('old settled entries are evicted; a re-asked one is rendered again', async () => {
    const render = jest.fn(() => Promise.resolve(SVG));
    const cache = new GraphImageCache(render, () => new Promise(() => undefined), 2);
    for (const s of ['a', 'b', 'c']) {
      cache.get(s, 100, 100, false, 1);
      await settle();
    }
    expect(render).toHaveBeenCalledTimes(3);
    cache.get('a', 100, 100, false, 1);
    await settle();
    expect(render).toHaveBeenCalledTimes(4);
    cache.get('c', 100, 100, false, 1);
    expect(render).toHaveBeenCalledTimes(4);
  });
});

describe('paintGraph', () => {
  function recorder() {
    const calls: string[] = [];
    const g = new Proxy(
      {},
      {
        get:
          (_t, prop: string) =>
          (...args: unknown[]) =>
            void calls.push(
              `${prop}(${args.map((a) => (typeof a === 'object' ? 'img' : String(a as string | number))).join(',')})`,
            ),
        set: (_t, prop: string, value: unknown) => {
          calls.push(`${prop}=${String(value as string | number)}`);
          return true;
        },
      },
    ) as unknown as CanvasRenderingContext2D;
    return { g, calls };
  }
  const shape = { spec: 's', x: 10, y: 20, w: 480, h: 320 };
  const ctx = (o: Partial<PaintContext> = {}): PaintContext => ({ ...DEFAULT_PAINT_CONTEXT, ...o });

  test('while loading: a frame with axes, and a redraw is asked for when ready', async () => {
    const { cache, renders } = fakes();
    const { g, calls } = recorder();
    const onAsset = jest.fn();
    paintGraph(g, shape, ctx({ onAsset }), cache);
    expect(calls).toContain('strokeRect(10,20,480,320)');
    expect(calls).toContain('moveTo(10,180)');
    expect(calls.some((c) => c.startsWith('drawImage'))).toBe(false);
    renders[0]!.resolve(SVG);
    await settle();
    expect(onAsset).toHaveBeenCalled();
  });

  test('when ready: the image in the box; dark surfaces ask for the dark rendering', async () => {
    const { cache, renders, loads } = fakes();
    paintGraph(recorder().g, shape, ctx({ theme: 'dark' }), cache);
    expect(renders[0]!.args[3]).toEqual({ dark: true });
    renders[0]!.resolve(SVG);
    await settle();
    paintGraph(recorder().g, shape, ctx({ theme: 'dark' }), cache);
    loads[0]!.resolve();
    await settle();
    const { g, calls } = recorder();
    paintGraph(g, shape, ctx({ theme: 'dark' }), cache);
    expect(calls).toEqual(['drawImage(img,10,20,480,320)']);
  });

  test('an error is written in the box, never thrown', async () => {
    const { cache, renders } = fakes();
    paintGraph(recorder().g, shape, ctx(), cache);
    renders[0]!.reject(new Error('bad'));
    await settle();
    const { g, calls } = recorder();
    expect(() => paintGraph(g, shape, ctx(), cache)).not.toThrow();
    expect(calls.find((c) => c.startsWith('fillText'))).toBe('fillText(The graph could not be drawn.,250,194,466)');
  });
});
