/**
 * The formula palette as data: what a teacher who does not know LaTeX clicks to build a formula.
 * Every snippet is LaTeX the policy and MathJax accept (palette.spec.ts typesets them all); SLOT
 * marks where something goes. Inserting puts the caret into the first slot, or wraps the selected
 * text into it (select `x`, click √ → `\sqrt{x}`).
 */

/** marks a slot in a snippet; never inserted */
export const SLOT = '□';

export interface PaletteEntry {
  /** what the button shows */
  glyph: string;
  /** LaTeX with SLOT markers */
  latex: string;
  /** the button's accessible name and tooltip (English for now: not translated, see README) */
  label: string;
}

/** a group's stable id; its label is the `board` string `formula.group.<id>` (FormulaPanel) */
export type PaletteGroupId =
  | 'fractions'
  | 'roots'
  | 'powers'
  | 'greek'
  | 'operators'
  | 'relations'
  | 'arrows'
  | 'brackets'
  | 'matrices'
  | 'big'
  | 'vectors';

export interface PaletteGroup {
  id: PaletteGroupId;
  entries: readonly PaletteEntry[];
}

const e = (glyph: string, latex: string, label: string): PaletteEntry => ({ glyph, latex, label });

export const PALETTE: readonly PaletteGroup[] = [
  {
    id: 'fractions',
    entries: [
      e('a⁄b', '\\frac{□}{□}', 'Fraction'),
      e('a b⁄c', '□\\frac{□}{□}', 'Mixed number'),
      e('a/b', '□/□', 'Slash fraction'),
      e('∂⁄∂x', '\\frac{\\partial □}{\\partial □}', 'Partial derivative'),
      e('d⁄dx', '\\frac{d□}{d□}', 'Derivative'),
    ],
  },
  {
    id: 'roots',
    entries: [
      e('√', '\\sqrt{□}', 'Square root'),
      e('∛', '\\sqrt[3]{□}', 'Cube root'),
      e('ⁿ√', '\\sqrt[□]{□}', 'n-th root'),
    ],
  },
  {
    id: 'powers',
    entries: [
      e('xⁿ', '{□}^{□}', 'Power'),
      e('x²', '{□}^{2}', 'Square'),
      e('x³', '{□}^{3}', 'Cube'),
      e('xₙ', '{□}_{□}', 'Index (subscript)'),
      e('xₙᵐ', '{□}_{□}^{□}', 'Index and power'),
      e('eˣ', 'e^{□}', 'Exponential'),
      e('x⁻¹', '{□}^{-1}', 'Inverse'),
      e('°', '□^{\\circ}', 'Degrees'),
    ],
  },
  {
    id: 'greek',
    entries: [
      e('α', '\\alpha', 'alpha'),
      e('β', '\\beta', 'beta'),
      e('γ', '\\gamma', 'gamma'),
      e('δ', '\\delta', 'delta'),
      e('ε', '\\varepsilon', 'epsilon'),
      e('θ', '\\theta', 'theta'),
      e('λ', '\\lambda', 'lambda'),
      e('μ', '\\mu', 'mu'),
      e('π', '\\pi', 'pi'),
      e('ρ', '\\rho', 'rho'),
      e('σ', '\\sigma', 'sigma'),
      e('τ', '\\tau', 'tau'),
      e('φ', '\\varphi', 'phi'),
      e('ω', '\\omega', 'omega'),
      e('Γ', '\\Gamma', 'capital gamma'),
      e('Δ', '\\Delta', 'capital delta'),
      e('Θ', '\\Theta', 'capital theta'),
      e('Λ', '\\Lambda', 'capital lambda'),
      e('Π', '\\Pi', 'capital pi'),
      e('Σ', '\\Sigma', 'capital sigma'),
      e('Φ', '\\Phi', 'capital phi'),
      e('Ω', '\\Omega', 'capital omega'),
    ],
  },
  {
    id: 'operators',
    entries: [
      e('±', '\\pm', 'Plus or minus'),
      e('∓', '\\mp', 'Minus or plus'),
      e('×', '\\times', 'Times'),
      e('÷', '\\div', 'Divided by'),
      e('·', '\\cdot', 'Dot (multiplication)'),
      e('∘', '\\circ', 'Composition'),
      e('∞', '\\infty', 'Infinity'),
      e('∂', '\\partial', 'Partial'),
      e('∇', '\\nabla', 'Nabla'),
      e('…', '\\ldots', 'Dots'),
      e('|x|', '\\left|□\\right|', 'Absolute value'),
      e('n!', '□!', 'Factorial'),
      e('%', '\\%', 'Percent'),
      e('sin', '\\sin', 'Sine'),
      e('cos', '\\cos', 'Cosine'),
      e('tan', '\\tan', 'Tangent'),
      e('ln', '\\ln', 'Natural logarithm'),
      e('logₐ', '\\log_{□}', 'Logarithm to a base'),
      e('abc', '\\text{□}', 'Text'),
    ],
  },
  {
    id: 'relations',
    entries: [
      e('≠', '\\neq', 'Not equal'),
      e('≈', '\\approx', 'Approximately equal'),
      e('≡', '\\equiv', 'Identical'),
      e('≤', '\\leq', 'Less than or equal'),
      e('≥', '\\geq', 'Greater than or equal'),
      e('≪', '\\ll', 'Much less than'),
      e('≫', '\\gg', 'Much greater than'),
      e('∼', '\\sim', 'Similar'),
      e('≅', '\\cong', 'Congruent'),
      e('∝', '\\propto', 'Proportional to'),
      e('∈', '\\in', 'Element of'),
      e('∉', '\\notin', 'Not an element of'),
      e('⊂', '\\subset', 'Subset'),
      e('⊆', '\\subseteq', 'Subset or equal'),
      e('∪', '\\cup', 'Union'),
      e('∩', '\\cap', 'Intersection'),
      e('∅', '\\emptyset', 'Empty set'),
      e('∥', '\\parallel', 'Parallel'),
      e('⊥', '\\perp', 'Perpendicular'),
      e('∠', '\\angle', 'Angle'),
      e('△', '\\triangle', 'Triangle'),
      e('ℝ', '\\mathbb{R}', 'Real numbers'),
      e('ℕ', '\\mathbb{N}', 'Natural numbers'),
    ],
  },
  {
    id: 'arrows',
    entries: [
      e('→', '\\to', 'Arrow right'),
      e('←', '\\leftarrow', 'Arrow left'),
      e('↔', '\\leftrightarrow', 'Arrow both ways'),
      e('⇒', '\\Rightarrow', 'Implies'),
      e('⇐', '\\Leftarrow', 'Is implied by'),
      e('⇔', '\\Leftrightarrow', 'If and only if'),
      e('↦', '\\mapsto', 'Maps to'),
      e('↑', '\\uparrow', 'Arrow up'),
      e('↓', '\\downarrow', 'Arrow down'),
      e('→ᵃ', '\\xrightarrow{□}', 'Arrow with a label'),
    ],
  },
  {
    id: 'brackets',
    entries: [
      e('( )', '\\left(□\\right)', 'Parentheses'),
      e('[ ]', '\\left[□\\right]', 'Square brackets'),
      e('{ }', '\\left\\{□\\right\\}', 'Braces'),
      e('⟨ ⟩', '\\left\\langle □\\right\\rangle', 'Angle brackets'),
      e('‖ ‖', '\\left\\|□\\right\\|', 'Norm'),
      e('⌊ ⌋', '\\left\\lfloor □\\right\\rfloor', 'Floor'),
      e('⌈ ⌉', '\\left\\lceil □\\right\\rceil', 'Ceiling'),
      e('(ⁿₖ)', '\\binom{□}{□}', 'Binomial coefficient'),
    ],
  },
  {
    id: 'matrices',
    entries: [
      e('(2×2)', '\\begin{pmatrix} □ & □ \\\\ □ & □ \\end{pmatrix}', 'Matrix 2×2'),
      e('(3×3)', '\\begin{pmatrix} □ & □ & □ \\\\ □ & □ & □ \\\\ □ & □ & □ \\end{pmatrix}', 'Matrix 3×3'),
      e('[2×2]', '\\begin{bmatrix} □ & □ \\\\ □ & □ \\end{bmatrix}', 'Matrix 2×2 in square brackets'),
      e('|2×2|', '\\begin{vmatrix} □ & □ \\\\ □ & □ \\end{vmatrix}', 'Determinant 2×2'),
      e('{ cases', '\\begin{cases} □ & □ \\\\ □ & □ \\end{cases}', 'Cases'),
      e('{ system', '\\begin{cases} □ \\\\ □ \\end{cases}', 'System of equations'),
      e('=⋮', '\\begin{aligned} □ &= □ \\\\ □ &= □ \\end{aligned}', 'Aligned equations'),
    ],
  },
  {
    id: 'big',
    entries: [
      e('∑', '\\sum_{□}^{□}', 'Sum'),
      e('∏', '\\prod_{□}^{□}', 'Product'),
      e('∫', '\\int', 'Integral'),
      e('∫ₐᵇ', '\\int_{□}^{□} □ \\, d□', 'Definite integral'),
      e('∬', '\\iint', 'Double integral'),
      e('∮', '\\oint', 'Contour integral'),
      e('lim', '\\lim_{□ \\to □}', 'Limit'),
      e('max', '\\max', 'Maximum'),
      e('min', '\\min', 'Minimum'),
    ],
  },
  {
    id: 'vectors',
    entries: [
      e('v⃗', '\\vec{□}', 'Vector'),
      e('AB⃗', '\\overrightarrow{□}', 'Vector from A to B'),
      e('𝐯', '\\boldsymbol{□}', 'Bold vector'),
      e('|v⃗|', '\\left|\\vec{□}\\right|', 'Magnitude'),
      e('v̂', '\\hat{□}', 'Unit vector'),
      e('x̄', '\\overline{□}', 'Bar'),
      e('ẋ', '\\dot{□}', 'Dot (time derivative)'),
      e('(x y)ᵀ', '\\begin{pmatrix} □ \\\\ □ \\end{pmatrix}', 'Column vector'),
    ],
  },
];

export interface TextEdit {
  value: string;
  selectionStart: number;
  selectionEnd: number;
}

const endsWithCommand = /\\[a-zA-Z]+$/;

/**
 * `value` with `snippet` inserted over the selection [start, end). The selected text fills the
 * first slot; the caret goes to the first empty slot (or after the insertion). A space keeps a
 * command from running into a following or preceding letter (`\alpha x`, not `\alphax`).
 */
export function insertSnippet(value: string, start: number, end: number, snippet: string): TextEdit {
  const from = Math.max(0, Math.min(start, end, value.length));
  const to = Math.min(value.length, Math.max(start, end));
  const selected = value.slice(from, to);
  let parts = snippet.split(SLOT);
  if (selected && parts.length > 1) parts = [parts[0]! + selected + parts[1]!, ...parts.slice(2)];
  let text = parts.join('');
  const before = value.slice(0, from);
  const after = value.slice(to);
  let lead = '';
  if (endsWithCommand.test(before) && /^[a-zA-Z]/.test(text)) lead = ' ';
  if (endsWithCommand.test(text) && /^[a-zA-Z]/.test(after)) text += ' ';
  // caret: the first slot still empty, else the end of the insertion
  const caret = from + lead.length + (parts.length > 1 ? parts[0]!.length : text.length);
  return { value: before + lead + text + after, selectionStart: caret, selectionEnd: caret };
}
