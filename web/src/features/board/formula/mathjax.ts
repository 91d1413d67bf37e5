/**
 * Formulas typeset by MathJax, loaded on first use: this module is small and may be imported by
 * the board; the ~0.5 MB MathJax engine (mathjaxEngine.ts) is fetched by the first renderFormula.
 *
 * A result is a self-contained SVG in the given colour, sized in world units at the given font
 * size (MathJax's viewBox is in thousandths of an em). Bad or refused LaTeX comes back as
 * `error` with an empty SVG; nothing here throws.
 */
import { checkLatex } from './latexPolicy';

export interface FormulaRenderOptions {
  /** world units per em */
  fontSize: number;
  /** CSS colour of the ink (#rrggbb) */
  color: string;
  /** FORMULA_ALIGNMENTS: how the rows of a multi-line formula line up */
  alignment: string;
}

export interface RenderedFormula {
  /** <svg> markup, '' when empty or on error */
  svg: string;
  /** world units */
  width: number;
  height: number;
  /** why it could not be typeset (a TeX error or a refusal), readable */
  error?: string;
}

type Engine = typeof import('./mathjaxEngine');
let engine: Engine | null = null;
let loading: Promise<Engine> | null = null;

export function isMathJaxLoaded(): boolean {
  return engine !== null;
}

/** load MathJax (once); later calls share the first load */
export function loadMathJax(): Promise<Engine> {
  loading ??= import('./mathjaxEngine').then(
    (m) => (engine = m),
    (err: unknown) => {
      loading = null; // a failed chunk load (offline) may be retried by the next render
      throw err;
    },
  );
  return loading;
}

const MEMO_SIZE = 300;
const memo = new Map<string, RenderedFormula>();

/** Typeset `latex`; memoised by (latex, size, colour, alignment). */
export async function renderFormula(latex: string, opts: FormulaRenderOptions): Promise<RenderedFormula> {
  const key = `${opts.fontSize}\u0000${opts.color}\u0000${opts.alignment}\u0000${latex}`;
  const hit = memo.get(key);
  if (hit) {
    // most recently used last, so the oldest entries are evicted first
    memo.delete(key);
    memo.set(key, hit);
    return hit;
  }
  const out = await typeset(latex, opts);
  memo.set(key, out);
  if (memo.size > MEMO_SIZE) memo.delete(memo.keys().next().value!);
  return out;
}

async function typeset(latex: string, opts: FormulaRenderOptions): Promise<RenderedFormula> {
  if (!latex.trim()) return { svg: '', width: 0, height: 0 };
  const verdict = checkLatex(latex);
  if (!verdict.ok) return failed(verdict.message);
  let mj: Engine;
  try {
    mj = await loadMathJax();
  } catch {
    return failed('The formula renderer could not be loaded. Check the connection and try again.');
  }
  let markup: string;
  try {
    markup = mj.texToSvg(withRows(latex, opts.alignment));
  } catch (err) {
    // MathJax's TexError is not an Error subclass; it does carry a message
    const message = (err as { message?: unknown } | null)?.message;
    return failed(typeof message === 'string' && message ? message : 'The formula could not be typeset.');
  }
  return sizedSvg(markup, opts);
}

const failed = (error: string): RenderedFormula => ({ svg: '', width: 0, height: 0, error });

/** set the SVG's size in world units and its ink colour (an <img> has no CSS currentColor) */
function sizedSvg(markup: string, opts: FormulaRenderOptions): RenderedFormula {
  const box = /viewBox="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"/.exec(markup);
  if (!box) return failed('The formula could not be typeset.');
  const round = (v: number) => Math.round(v * 100) / 100;
  const width = round((Number(box[3]) / 1000) * opts.fontSize);
  const height = round((Number(box[4]) / 1000) * opts.fontSize);
  const color = /^#[0-9a-fA-F]{3,8}$/.test(opts.color) ? opts.color : '#000000';
  const svg = markup
    .replace(/^<svg style="[^"]*"/, '<svg')
    .replace(/ width="[^"]*" height="[^"]*"/, ` width="${width}" height="${height}"`)
    .replaceAll('currentColor', color);
  return { svg, width, height };
}

/**
 * A formula with top-level rows (`a \\ b`) typeset as rows: MathJax ignores a bare `\\` in
 * display math. `&` lines rows up at those points (aligned); otherwise the rows are centred
 * (equation, center), flush left or flush right (left, right).
 */
export function withRows(latex: string, alignment: string): string {
  const rows = topLevelRows(latex);
  if (rows.length < 2) return latex;
  if (rows.some((r) => hasTopLevel(r, '&')) || alignment === 'right')
    return `\\begin{aligned}${rows.join('\\\\')}\\end{aligned}`;
  if (alignment === 'left') return `\\begin{aligned}${rows.map((r) => `&${r}`).join('\\\\')}\\end{aligned}`;
  return `\\begin{gathered}${rows.join('\\\\')}\\end{gathered}`;
}

/** split at `\\` outside braces and environments (a `\\[1em]` spacing stays with its row) */
function topLevelRows(latex: string): string[] {
  const rows: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < latex.length; i++) {
    const c = latex[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === '\\') {
      if (latex.startsWith('\\begin', i)) depth++;
      else if (latex.startsWith('\\end', i)) depth--;
      else if (latex[i + 1] === '\\' && depth === 0) {
        rows.push(latex.slice(start, i));
        start = i + 2;
      }
      i++;
    }
  }
  rows.push(latex.slice(start));
  return rows;
}

function hasTopLevel(row: string, ch: string): boolean {
  let depth = 0;
  for (let i = 0; i < row.length; i++) {
    const c = row[i];
    if (c === '\\') {
      if (row.startsWith('\\begin', i)) depth++;
      else if (row.startsWith('\\end', i)) depth--;
      i++;
    } else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ch && depth === 0) return true;
  }
  return false;
}
