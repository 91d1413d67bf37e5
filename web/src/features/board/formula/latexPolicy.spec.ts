/**
 * @jest-environment node
 */
/// <reference types="jest" />
import { checkLatex, LATEX_LIMITS, type LatexRefusalCode } from './latexPolicy';

const SCHOOL = [
  'x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}',
  '\\int_0^1 x^2 \\, dx = \\frac{1}{3}',
  '\\int_{a}^{b} f(x)\\,dx = F(b) - F(a)',
  '\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix} \\begin{pmatrix} x \\\\ y \\end{pmatrix}',
  '\\det \\begin{vmatrix} a & b \\\\ c & d \\end{vmatrix} = ad - bc',
  '\\vec{a} \\cdot \\vec{b} = |\\vec{a}|\\,|\\vec{b}| \\cos\\theta',
  '\\overrightarrow{AB} + \\overrightarrow{BC} = \\overrightarrow{AC}',
  '\\lim_{x \\to 0} \\frac{\\sin x}{x} = 1',
  '\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}',
  '\\sqrt[3]{27} = 3',
  '\\sqrt[3]{}',
  '\\frac{1}{2} + \\frac{1}{3} = \\frac{5}{6}',
  '\\left( \\frac{a}{b} \\right)^{2} \\left\\{ x \\right\\}',
  'a^2 + b^2 = c^2 \\\\ c = \\sqrt{a^2 + b^2}',
  'x \\\\[2em] y',
  '\\begin{cases} x + y = 3 \\\\ x - y = 1 \\end{cases}',
  '\\hspace{2em} \\kern 3mu \\rule{1em}{0.5em}',
  '\\text{speed} = \\frac{\\text{distance}}{\\text{time}} % a comment with \\href in it',
  '',
];

const HOSTILE: [string, string, LatexRefusalCode][] = [
  ['a link', '\\href{javascript:alert(1)}{x}', 'forbidden-command'],
  ['a url', '\\url{https://example.com}', 'forbidden-command'],
  ['a CSS class', '\\class{x}{y}', 'forbidden-command'],
  ['raw style', '\\style{color:red}{x}', 'forbidden-command'],
  ['an html extension', '\\htmlStyle{color:red}{x}', 'forbidden-command'],
  ['package loading', '\\require{html}', 'forbidden-command'],
  ['a recursive macro', '\\def\\x{\\x}\\x', 'forbidden-command'],
  ['a new command', '\\newcommand{\\y}{\\y\\y}\\y', 'forbidden-command'],
  ['let', '\\let\\a\\b', 'forbidden-command'],
  ['unicode', '\\unicode{x1F600}', 'forbidden-command'],
  ['raw MathML token', '\\mmlToken{mi}[href="javascript:x"]{x}', 'forbidden-command'],
  ['hidden in text mode', '\\text{$\\href{javascript:x}{y}$}', 'forbidden-command'],
  ['an enormous rule', '\\rule{100000em}{100000em}', 'too-large'],
  ['a rule in points', '\\rule{1pt}{99999pt}', 'too-large'],
  ['an enormous space', '\\hspace{5000cm}', 'too-large'],
  ['an enormous kern', '\\kern 900em x', 'too-large'],
  ['a huge raise', '\\raise 100000em{x}', 'too-large'],
  ['huge row spacing', 'a \\\\[100000pt] b', 'too-large'],
  ['500-deep braces', '{'.repeat(500) + 'x' + '}'.repeat(500), 'too-deep'],
  ['deep \\left', '\\left('.repeat(30) + 'x' + '\\right)'.repeat(30), 'too-deep'],
  ['10,000 characters', 'x+'.repeat(5000), 'too-long'],
  ['too many rows', 'x \\\\ '.repeat(LATEX_LIMITS.maxRows + 1), 'too-many-rows'],
  ['too many cells', '\\begin{matrix}' + 'x&'.repeat(LATEX_LIMITS.maxCells + 1) + '\\end{matrix}', 'too-many-cells'],
  ['too many commands', '\\S'.repeat(LATEX_LIMITS.maxCommands + 1), 'too-many-commands'],
];

describe('checkLatex', () => {
  it.each(SCHOOL)('accepts school formulas: %s', (latex) => {
    expect(checkLatex(latex)).toEqual({ ok: true });
  });

  it.each(HOSTILE)('refuses %s', (_what, latex, code) => {
    const verdict = checkLatex(latex);
    expect(verdict).toMatchObject({ ok: false, code });
    if (!verdict.ok) expect(verdict.message).toMatch(/\S/);
  });

  it('names the refused command and the limits in its messages', () => {
    expect(checkLatex('\\href{javascript:alert(1)}{x}')).toMatchObject({
      message: '\\href is not allowed in formulas.',
    });
    expect(checkLatex('x'.repeat(10_000))).toMatchObject({ message: expect.stringContaining('10000 characters') });
    expect(checkLatex('\\rule{100000em}{1em}')).toMatchObject({ message: expect.stringContaining('\\rule') });
  });

  it('reads \\\\ as a row break, not as the start of a command', () => {
    // "\\href" is a row break followed by the letters h, r, e, f: harmless text
    expect(checkLatex('a \\\\href')).toEqual({ ok: true });
    expect(checkLatex('a \\\\ \\href{x}{y}')).toMatchObject({ ok: false, code: 'forbidden-command' });
  });

  it('allows sizes up to the limit and depth up to the limit', () => {
    expect(checkLatex(`\\rule{${LATEX_LIMITS.maxDimensionEm}em}{1em}`)).toEqual({ ok: true });
    const d = LATEX_LIMITS.maxDepth;
    expect(checkLatex('{'.repeat(d) + 'x' + '}'.repeat(d))).toEqual({ ok: true });
    expect(checkLatex('{'.repeat(d + 1) + 'x' + '}'.repeat(d + 1))).toMatchObject({ code: 'too-deep' });
    expect(checkLatex('x'.repeat(LATEX_LIMITS.maxLength))).toEqual({ ok: true });
  });
});
