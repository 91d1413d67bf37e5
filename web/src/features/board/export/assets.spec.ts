/// <reference types="jest" />
jest.mock('../canvas/painters', () => ({ paintItem: jest.fn() }));
import { paintItem } from '../canvas/painters';
import type { SceneItem } from '../canvas/scene';
import { DEFAULT_PAINT_CONTEXT, type PaintContext } from '../canvas/theme';
import { typesetFirst } from './assets';
import { Slicer } from './slices';

const paint = paintItem as jest.MockedFunction<typeof paintItem>;
const item = (kind: string) => ({ shape: { id: kind, kind } }) as unknown as SceneItem;

beforeAll(() => {
  // jsdom has no canvas: the pass only needs a context to hand to the (mocked) painters
  HTMLCanvasElement.prototype.getContext = (() => ({})) as unknown as HTMLCanvasElement['getContext'];
});
afterEach(() => paint.mockReset());

test('a bitmap export waits until no formula or graph is still being typeset', async () => {
  let loading = 2;
  const wake: (() => void)[] = [];
  paint.mockImplementation((_g, _it, ctx?: PaintContext) => {
    if (loading > 0) {
      ctx!.onPending?.();
      wake.push(ctx!.onAsset);
    }
  });
  let done = false;
  const waiting = typesetFirst([item('formula'), item('pen'), item('graph')], DEFAULT_PAINT_CONTEXT, new Slicer()).then(
    () => (done = true),
  );
  await Promise.resolve();
  expect(done).toBe(false);
  // only formulas and graphs are asked for: pen strokes need nothing typeset
  expect(paint.mock.calls.map((c) => (c[1].shape as { kind: string }).kind)).toEqual(['formula', 'graph']);
  loading = 1;
  wake.shift()!();
  await new Promise((r) => setTimeout(r, 0));
  expect(done).toBe(false);
  loading = 0;
  wake.pop()!();
  await waiting;
  expect(done).toBe(true);
});

test('a board without formulas or graphs paints at once', async () => {
  await typesetFirst([item('pen'), item('text')], DEFAULT_PAINT_CONTEXT, new Slicer());
  expect(paint).not.toHaveBeenCalled();
});
