/**
 * @jest-environment node
 */
/// <reference types="jest" />
import { checkLatex } from './latexPolicy';
import { renderFormula } from './mathjax';
import { insertSnippet, PALETTE, SLOT } from './palette';

describe('the palette', () => {
  it('covers every group the issue asks for, each entry labelled', () => {
    expect(PALETTE.map((g) => g.id)).toEqual([
      'fractions',
      'roots',
      'powers',
      'greek',
      'operators',
      'relations',
      'arrows',
      'brackets',
      'matrices',
      'big',
      'vectors',
    ]);
    for (const g of PALETTE) {
      expect(g.entries.length).toBeGreaterThan(2);
      for (const e of g.entries) expect([e.glyph.trim() !== '', e.label.trim() !== '']).toEqual([true, true]);
    }
  });

  it('inserts only LaTeX the policy accepts and MathJax typesets', async () => {
    for (const g of PALETTE)
      for (const e of g.entries) {
        const latex = insertSnippet('', 0, 0, e.latex).value.replaceAll(SLOT, '');
        const filled = e.latex.replaceAll(SLOT, 'x');
        expect([e.label, checkLatex(filled).ok]).toEqual([e.label, true]);
        const r = await renderFormula(filled, { fontSize: 20, color: '#000000', alignment: 'equation' });
        expect([e.label, r.error]).toEqual([e.label, undefined]);
        // empty slots are left as {} (valid TeX for most; never the slot marker)
        expect(latex).not.toContain(SLOT);
      }
  });
});

describe('insertSnippet', () => {
  it('inserts at the caret and puts the caret into the first slot', () => {
    expect(insertSnippet('x = ', 4, 4, '\\frac{□}{□}')).toEqual({
      value: 'x = \\frac{}{}',
      selectionStart: 10,
      selectionEnd: 10,
    });
    expect(insertSnippet('ab', 1, 1, '\\sqrt[3]{□}')).toEqual({
      value: 'a\\sqrt[3]{}b',
      selectionStart: 10,
      selectionEnd: 10,
    });
  });

  it('wraps the selection into the first slot; the caret goes to the next one', () => {
    // select "x+1", click the fraction: \frac{x+1}{|}
    expect(insertSnippet('y = x+1', 4, 7, '\\frac{□}{□}')).toEqual({
      value: 'y = \\frac{x+1}{}',
      selectionStart: 15,
      selectionEnd: 15,
    });
    // one slot: the caret goes after the insertion
    expect(insertSnippet('v', 0, 1, '\\vec{□}')).toEqual({ value: '\\vec{v}', selectionStart: 7, selectionEnd: 7 });
    // a backwards selection counts the same
    expect(insertSnippet('v', 1, 0, '\\vec{□}').value).toBe('\\vec{v}');
  });

  it('replaces the selection with a symbol and puts the caret after it', () => {
    expect(insertSnippet('a * b', 2, 3, '\\cdot')).toEqual({ value: 'a \\cdot b', selectionStart: 7, selectionEnd: 7 });
  });

  it('keeps commands from running into letters', () => {
    expect(insertSnippet('x', 0, 0, '\\alpha').value).toBe('\\alpha x');
    expect(insertSnippet('\\pi', 3, 3, 'e^{□}')).toEqual({ value: '\\pi e^{}', selectionStart: 7, selectionEnd: 7 });
    expect(insertSnippet('2', 0, 0, '\\alpha').value).toBe('\\alpha2');
  });

  it('clamps a caret outside the text', () => {
    expect(insertSnippet('ab', 99, 99, '\\pm').value).toBe('ab\\pm');
  });
});
