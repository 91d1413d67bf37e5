/**
 * @jest-environment node
 */
/// <reference types="jest" />
/**
 * The image cache's states and what the painter draws in each, with the real MathJax behind a
 * stand-in image loader (Node has no <img>).
 */
import type { FormulaShape } from '@wb/proto';
import { DEFAULT_PAINT_CONTEXT, type PaintContext } from '../canvas/theme';
import { FormulaImageCache, type LoadSvgFn } from './formulaImages';
import { renderFormula } from './mathjax';
import { formulaBox, FORMULA_PAD_EM, paintFormula } from './paintFormula';

/** a stand-in for an SVG <img>: remembers the markup it was made from */
const fakeLoad: LoadSvgFn = (svg) => Promise.resolve({ svg } as unknown as HTMLImageElement);

function recorder() {
  const calls: [string, ...unknown[]][] = [];
  const g = new Proxy(
    {},
    {
      get:
        (_t, name: string) =>
        (...args: unknown[]) =>
          void calls.push([name, ...args]),
      set: (_t, name: string, value) => {
        calls.push([`=${name}`, value]);
        return true;
      },
    },
  ) as unknown as CanvasRenderingContext2D;
  return { g, calls, named: (n: string) => calls.filter((c) => c[0] === n) };
}

const shape = (o: Partial<FormulaShape> = {}): FormulaShape => ({
  id: 'f',
  kind: 'formula',
  creator: 1,
  z: 'a0',
  x: 10,
  y: 20,
  latex: '\\frac{a}{b}',
  fontSize: 20,
  color: 0x000000,
  alignment: 'equation',
  ...o,
});

/** settle the cache's promises */
const settled = () => new Promise((r) => setTimeout(r, 0));

describe('FormulaImageCache', () => {
  it('is loading, then ready with the typeset size; onReady runs once', async () => {
    const cache = new FormulaImageCache(renderFormula, fakeLoad);
    const onReady = jest.fn();
    const opts = { fontSize: 20, color: '#000000', alignment: 'equation' };
    const first = cache.get('x^2', opts, onReady);
    expect(first.state).toBe('loading');
    cache.get('x^2', opts, onReady);
    await renderFormula('x^2', opts);
    await settled();
    expect(onReady).toHaveBeenCalledTimes(1);
    const ready = cache.get('x^2', opts);
    expect(ready.state).toBe('ready');
    expect(ready.width).toBeGreaterThan(0);
    expect((ready.image as unknown as { svg: string }).svg).toContain('<path');
  });

  it('is an error (with the TeX message) for LaTeX that does not typeset', async () => {
    const cache = new FormulaImageCache(renderFormula, fakeLoad);
    const onReady = jest.fn();
    cache.get('\\frac{1}{', { fontSize: 20, color: '#000000', alignment: 'equation' }, onReady);
    await renderFormula('\\frac{1}{', { fontSize: 20, color: '#000000', alignment: 'equation' });
    await settled();
    expect(onReady).toHaveBeenCalledTimes(1);
    expect(cache.get('\\frac{1}{', { fontSize: 20, color: '#000000', alignment: 'equation' })).toMatchObject({
      state: 'error',
      image: null,
      error: expect.stringMatching(/brace/i),
    });
  });

  it('evicts settled images beyond its size', async () => {
    const cache = new FormulaImageCache(renderFormula, fakeLoad, 2);
    const opts = { fontSize: 20, color: '#000000', alignment: 'equation' };
    for (const l of ['a', 'b', 'c']) cache.get(l, opts);
    await Promise.all(['a', 'b', 'c'].map((l) => renderFormula(l, opts)));
    await settled();
    cache.get('d', opts);
    // "a" was settled and oldest: asked again, it starts over
    expect(cache.get('a', opts).state).toBe('loading');
  });
});

describe('paintFormula', () => {
  const box = { x: 10, y: 20, w: 200, h: 60 };

  it('shows the source in a frame while MathJax loads, then the image in the box', async () => {
    const cache = new FormulaImageCache(renderFormula, fakeLoad);
    const onAsset = jest.fn();
    const ctx: PaintContext = { ...DEFAULT_PAINT_CONTEXT, onAsset };
    const before = recorder();
    paintFormula(before.g, shape(), box, ctx, cache);
    expect(before.named('fillText').map((c) => c[1])).toEqual(['\\frac{a}{b}']);
    expect(before.named('drawImage')).toHaveLength(0);
    await renderFormula('\\frac{a}{b}', { fontSize: 20, color: '#000000', alignment: 'equation' });
    await settled();
    expect(onAsset).toHaveBeenCalled();
    const after = recorder();
    paintFormula(after.g, shape(), box, ctx, cache);
    const [[, , x, y, w, h]] = after.named('drawImage') as [string, unknown, number, number, number, number][];
    // inside the box's padding, centred (equation)
    const pad = FORMULA_PAD_EM * 20;
    expect(x).toBeGreaterThanOrEqual(box.x + pad - 1e-9);
    expect(x + w).toBeLessThanOrEqual(box.x + box.w - pad + 1e-9);
    expect(y + h / 2).toBeCloseTo(box.y + box.h / 2);
    expect(x + w / 2).toBeCloseTo(box.x + box.w / 2);
    expect(after.named('fillText')).toHaveLength(0);
  });

  it('aligns the image left or right in a wider box', async () => {
    const cache = new FormulaImageCache(renderFormula, fakeLoad);
    const ctx = DEFAULT_PAINT_CONTEXT;
    for (const alignment of ['left', 'right']) await renderFormula('x', { fontSize: 20, color: '#000000', alignment });
    paintFormula(recorder().g, shape({ latex: 'x', alignment: 'left' }), box, ctx, cache);
    paintFormula(recorder().g, shape({ latex: 'x', alignment: 'right' }), box, ctx, cache);
    await settled();
    const left = recorder();
    paintFormula(left.g, shape({ latex: 'x', alignment: 'left' }), box, ctx, cache);
    const right = recorder();
    paintFormula(right.g, shape({ latex: 'x', alignment: 'right' }), box, ctx, cache);
    const [, , lx] = left.named('drawImage')[0] as [string, unknown, number, number, number];
    const [, , rx, , rw] = right.named('drawImage')[0] as [string, unknown, number, number, number];
    expect(lx).toBeCloseTo(box.x + FORMULA_PAD_EM * 20);
    expect(rx + rw).toBeCloseTo(box.x + box.w - FORMULA_PAD_EM * 20);
  });

  it('renders in ink readable on the surface: black turns light on the blackboard', async () => {
    const seen: string[] = [];
    const cache = new FormulaImageCache((latex, opts) => {
      seen.push(opts.color);
      return renderFormula(latex, opts);
    }, fakeLoad);
    paintFormula(recorder().g, shape(), box, { ...DEFAULT_PAINT_CONTEXT, background: 'blackboard' }, cache);
    paintFormula(recorder().g, shape(), box, DEFAULT_PAINT_CONTEXT, cache);
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe('#000000');
    expect(seen[0]).not.toBe('#000000');
  });

  it('keeps showing the source when the LaTeX has an error; an empty formula is a frame', async () => {
    const cache = new FormulaImageCache(renderFormula, fakeLoad);
    paintFormula(recorder().g, shape({ latex: '\\frac{' }), box, DEFAULT_PAINT_CONTEXT, cache);
    await renderFormula('\\frac{', { fontSize: 20, color: '#000000', alignment: 'equation' });
    await settled();
    const bad = recorder();
    paintFormula(bad.g, shape({ latex: '\\frac{' }), box, DEFAULT_PAINT_CONTEXT, cache);
    expect(bad.named('fillText').map((c) => c[1])).toEqual(['\\frac{']);
    const empty = recorder();
    paintFormula(empty.g, shape({ latex: '' }), box, DEFAULT_PAINT_CONTEXT, cache);
    expect(empty.named('rect')).toEqual([['rect', box.x, box.y, box.w, box.h]]);
    expect(empty.named('fillText')).toHaveLength(0);
  });

  it('formulaBox pads the typeset size by FORMULA_PAD_EM on every side', () => {
    expect(formulaBox(100, 30, 20)).toEqual({ w: 100 + 4 * FORMULA_PAD_EM * 10, h: 30 + 4 * FORMULA_PAD_EM * 10 });
  });
});
