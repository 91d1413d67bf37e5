/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/**
 * The real MathJax (mathjax-full) in Node, loaded the way the board loads it.
 */
import { readFileSync } from 'node:fs';
import { isMathJaxLoaded, renderFormula, withRows } from './mathjax';

const opts = { fontSize: 20, color: '#112233', alignment: 'equation' };

describe('renderFormula', () => {
  it('loads MathJax on the first render only', async () => {
    expect(isMathJaxLoaded()).toBe(false);
    const empty = await renderFormula('  ', opts);
    expect(empty).toEqual({ svg: '', width: 0, height: 0 });
    // nothing to typeset: MathJax is not needed yet
    expect(isMathJaxLoaded()).toBe(false);
    await renderFormula('x', opts);
    expect(isMathJaxLoaded()).toBe(true);
  });

  it('typesets to a self-contained SVG in the given colour, sized in world units', async () => {
    const r = await renderFormula('x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}', opts);
    expect(r.error).toBeUndefined();
    expect(r.svg).toMatch(/^<svg /);
    expect(r.svg).toContain('<path');
    // fontCache 'none': no <use> of shared glyph definitions outside this SVG
    expect(r.svg).not.toContain('<use');
    expect(r.svg).not.toContain('currentColor');
    expect(r.svg).toContain('#112233');
    expect(r.svg).toContain(`width="${r.width}" height="${r.height}"`);
    // a display fraction is taller than a line of text and wider than a few characters
    expect(r.height).toBeGreaterThan(opts.fontSize * 1.5);
    expect(r.width).toBeGreaterThan(opts.fontSize * 4);
  });

  it('grows with the font size', async () => {
    const small = await renderFormula('\\sum_{k=1}^{n} k^2', { ...opts, fontSize: 20 });
    const big = await renderFormula('\\sum_{k=1}^{n} k^2', { ...opts, fontSize: 40 });
    expect(big.width).toBeCloseTo(small.width * 2, 0);
    expect(big.height).toBeCloseTo(small.height * 2, 0);
  });

  it('memoises by LaTeX, size, colour and alignment', async () => {
    const a = await renderFormula('\\alpha + \\beta', opts);
    expect(await renderFormula('\\alpha + \\beta', opts)).toBe(a);
    expect(await renderFormula('\\alpha + \\beta', { ...opts, color: '#ff0000' })).not.toBe(a);
  });

  it('returns TeX errors as messages, never as red boxes or throws', async () => {
    const missing = await renderFormula('\\frac{1}{', opts);
    expect(missing).toMatchObject({ svg: '', width: 0, height: 0, error: expect.stringMatching(/close brace/i) });
    const unknown = await renderFormula('\\notacommand x', opts);
    expect(unknown.error).toMatch(/undefined control sequence \\notacommand/i);
  });

  it('does not know the dangerous packages, and refuses hostile input before MathJax sees it', async () => {
    // even with the policy bypassed, MathJax itself has no \href, \def, \require, \unicode, \color
    const { texToSvg } = await import('./mathjaxEngine');
    for (const latex of ['\\href{javascript:alert(1)}{x}', '\\def\\x{y}\\x', '\\require{html}', '\\unicode{65}'])
      expect(() => texToSvg(latex)).toThrow(/undefined control sequence/i);
    expect((await renderFormula('\\href{javascript:alert(1)}{x}', opts)).error).toMatch(/not allowed/);
    expect((await renderFormula('\\rule{100000em}{100000em}', opts)).error).toMatch(/too large/);
    expect((await renderFormula('{'.repeat(500) + 'x' + '}'.repeat(500), opts)).error).toMatch(/nested/);
    expect((await renderFormula('x'.repeat(10_000), opts)).error).toMatch(/too long/);
  });

  it('lays out rows by the alignment', async () => {
    expect(withRows('x', 'left')).toBe('x');
    expect(withRows('{a \\\\ b}', 'left')).toBe('{a \\\\ b}');
    expect(withRows('a\\\\b', 'equation')).toBe('\\begin{gathered}a\\\\b\\end{gathered}');
    expect(withRows('a\\\\b', 'left')).toBe('\\begin{aligned}&a\\\\&b\\end{aligned}');
    expect(withRows('a\\\\b', 'right')).toBe('\\begin{aligned}a\\\\b\\end{aligned}');
    expect(withRows('x&=1\\\\y&=2', 'center')).toBe('\\begin{aligned}x&=1\\\\y&=2\\end{aligned}');
    expect(withRows('\\begin{cases}a\\\\b\\end{cases}', 'left')).toBe('\\begin{cases}a\\\\b\\end{cases}');
    const one = await renderFormula('a^2+b^2', opts);
    const two = await renderFormula('a^2+b^2 \\\\ c^2', opts);
    expect(two.height).toBeGreaterThan(one.height * 1.5);
  });

  it('runs without eval or new Function (the board CSP has no unsafe-eval)', () => {
    const loaded = Object.keys(require.cache).filter((f) => f.includes('mathjax-full'));
    expect(loaded.length).toBeGreaterThan(50);
    for (const file of loaded)
      expect([file, /\beval\(|new Function\(/.test(readFileSync(file, 'utf8'))]).toEqual([file, false]);
  });
});
