/**
 * What LaTeX a formula may contain, checked before MathJax sees it. MathJax itself is configured
 * without the dangerous packages (html, newcommand, require, unicode…), so those commands are
 * already unknown to it; this check gives a clear message for them and bounds what MathJax would
 * accept but a board cannot afford: enormous rules and spaces, deep nesting, huge matrices and
 * very long sources (a record may hold 20,000 characters, a formula never needs that many).
 *
 * Pure and synchronous: the panel runs it on every keystroke and the renderer before every render.
 */

export const LATEX_LIMITS = {
  /** characters of source (the quadratic formula is ~40) */
  maxLength: 2000,
  /** nesting of { }, \left…\right and \begin…\end together */
  maxDepth: 24,
  /** \\ row breaks in the whole formula */
  maxRows: 60,
  /** & cell separators in the whole formula */
  maxCells: 400,
  /** \frac, \sqrt and other commands in total (unbraced \sqrt\sqrt… nests without braces) */
  maxCommands: 400,
  /** the largest \rule, \hspace, \kern, \raise… or \\[…] length, in em */
  maxDimensionEm: 40,
} as const;

export type LatexRefusalCode =
  | 'too-long'
  | 'too-deep'
  | 'forbidden-command'
  | 'too-large'
  | 'too-many-rows'
  | 'too-many-cells'
  | 'too-many-commands';

export type LatexVerdict = { ok: true } | { ok: false; code: LatexRefusalCode; message: string };

/**
 * Commands that link, style with raw CSS/HTML, define macros or load packages. They are refused
 * by name so the message says why (MathJax would only say "undefined control sequence").
 */
const FORBIDDEN = new Set([
  'href',
  'url',
  'class',
  'cssId',
  'style',
  'data',
  'require',
  'unicode',
  'mmlToken',
  'def',
  'gdef',
  'edef',
  'xdef',
  'let',
  'futurelet',
  'newcommand',
  'renewcommand',
  'providecommand',
  'newenvironment',
  'renewenvironment',
  'DeclareMathOperator',
  'Newextarrow',
  'csname',
  'expandafter',
  'catcode',
  'input',
  'include',
  'write',
  'immediate',
  'openout',
  'special',
  'texttip',
  'mathtip',
  'toggle',
  'bbox',
]);
/** \htmlClass, \htmlStyle, \htmlData… */
const FORBIDDEN_PREFIXES = ['html'];

/** commands whose arguments are lengths (MathJax base: rules, spaces, kerns, raises) */
const SIZED = new Set([
  'rule',
  'Rule',
  'Space',
  'hspace',
  'hskip',
  'mskip',
  'kern',
  'mkern',
  'raise',
  'lower',
  'raisebox',
  'moveleft',
  'moveright',
]);

/** em per unit (TeX at 10 pt; MathJax's conversions, rounded) */
const EM_PER_UNIT: Record<string, number> = {
  em: 1,
  ex: 0.43,
  mu: 1 / 18,
  pt: 0.1,
  bp: 0.1,
  dd: 0.107,
  pc: 1.2,
  cc: 1.28,
  px: 0.0625,
  in: 7.2,
  cm: 2.835,
  mm: 0.2835,
  sp: 0.1 / 65536,
};
const DIMENSION = /([-+]?\s*(?:\d+\.?\d*|\.\d+))\s*([a-z]{2})/g;

const refuse = (code: LatexRefusalCode, message: string): LatexVerdict => ({ ok: false, code, message });

/** the largest length (in em) written in `text`, 0 when none */
function largestEm(text: string): number {
  let max = 0;
  for (const m of text.matchAll(DIMENSION)) {
    const perUnit = EM_PER_UNIT[m[2]!];
    if (perUnit === undefined) continue;
    const value = Math.abs(Number.parseFloat(m[1]!.replace(/\s+/g, ''))) * perUnit;
    if (value > max) max = value;
  }
  return max;
}

/** the text of up to `count` arguments after position `i` ({…}, […] or a bare length) */
function argumentsAt(s: string, i: number, count: number): string {
  let out = '';
  let at = i;
  for (let n = 0; n < count; n++) {
    while (at < s.length && s[at] === ' ') at++;
    const open = s[at];
    if (open === '{' || open === '[') {
      const close = open === '{' ? '}' : ']';
      let depth = 0;
      const start = at;
      for (; at < s.length; at++) {
        if (s[at] === '\\') at++;
        else if (s[at] === open) depth++;
        else if (s[at] === close && --depth === 0) break;
      }
      out += s.slice(start, ++at) + ' ';
    } else {
      // a bare length: \kern 3em, \raise-2pt
      const m = /^[-+]?\s*(?:\d+\.?\d*|\.\d+)\s*[a-z]{2}/.exec(s.slice(at, at + 64));
      if (!m) break;
      out += m[0] + ' ';
      at += m[0].length;
    }
  }
  return out;
}

/** Is this LaTeX safe and small enough to typeset on a board? */
export function checkLatex(latex: string): LatexVerdict {
  if (latex.length > LATEX_LIMITS.maxLength)
    return refuse(
      'too-long',
      `The formula is too long (${latex.length} characters; at most ${LATEX_LIMITS.maxLength}).`,
    );
  let depth = 0;
  let maxDepth = 0;
  let rows = 0;
  let cells = 0;
  let commands = 0;
  const deeper = (by: number) => {
    depth += by;
    if (depth > maxDepth) maxDepth = depth;
  };
  for (let i = 0; i < latex.length; i++) {
    const c = latex[i];
    if (c === '%') {
      // a comment hides the rest of the line from MathJax; it is still counted for length
      while (i < latex.length && latex[i] !== '\n') i++;
    } else if (c === '{') deeper(1);
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (c === '&') cells++;
    else if (c === '\\') {
      const m = /^[a-zA-Z]+/.exec(latex.slice(i + 1, i + 1 + 64));
      if (!m) {
        // a control symbol: \\ (a row, maybe with a [length]), \{, \}, \,, \% …
        const next = latex[i + 1];
        if (next === '\\') {
          rows++;
          if (largestEm(argumentsAtBracket(latex, i + 2)) > LATEX_LIMITS.maxDimensionEm) return tooLarge('\\\\');
        }
        i++;
        continue;
      }
      const name = m[0];
      i += name.length;
      commands++;
      if (FORBIDDEN.has(name) || FORBIDDEN_PREFIXES.some((p) => name.startsWith(p)))
        return refuse('forbidden-command', `\\${name} is not allowed in formulas.`);
      if (name === 'left' || name === 'begin') deeper(1);
      else if (name === 'right' || name === 'end') depth = Math.max(0, depth - 1);
      else if (SIZED.has(name) && largestEm(argumentsAt(latex, i + 1, 3)) > LATEX_LIMITS.maxDimensionEm)
        return tooLarge(`\\${name}`);
    }
    if (maxDepth > LATEX_LIMITS.maxDepth)
      return refuse('too-deep', `The formula is nested too deeply (at most ${LATEX_LIMITS.maxDepth} levels).`);
  }
  if (rows > LATEX_LIMITS.maxRows)
    return refuse('too-many-rows', `The formula has too many rows (${rows}; at most ${LATEX_LIMITS.maxRows}).`);
  if (cells > LATEX_LIMITS.maxCells)
    return refuse('too-many-cells', `The formula has too many cells (${cells}; at most ${LATEX_LIMITS.maxCells}).`);
  if (commands > LATEX_LIMITS.maxCommands)
    return refuse(
      'too-many-commands',
      `The formula has too many commands (${commands}; at most ${LATEX_LIMITS.maxCommands}).`,
    );
  return { ok: true };
}

function argumentsAtBracket(s: string, i: number): string {
  let at = i;
  while (at < s.length && s[at] === ' ') at++;
  return s[at] === '[' ? argumentsAt(s, at, 1) : '';
}

function tooLarge(command: string): LatexVerdict {
  return refuse('too-large', `${command} is too large (at most ${LATEX_LIMITS.maxDimensionEm} em).`);
}
