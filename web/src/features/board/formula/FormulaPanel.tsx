/**
 * The formula panel: LaTeX in a textarea with a live preview, a palette for those who do not
 * know LaTeX, and the formula's colour, size and alignment. Typing is committed to the board
 * 300 ms after the last keystroke (a word is one undo step, others see it live), always with the
 * rendered size (w, h) so every peer's bounds match. Errors are shown under the input and never
 * reach the board (it shows the source until the LaTeX typesets again).
 */
import { FORMULA_ALIGNMENTS, SHAPE_LIMITS, type FormulaShape } from '@wb/proto';
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formulaSize } from '../canvas/geometry';
import { hex, inkColor } from '../canvas/theme';
import { checkLatex } from './latexPolicy';
import { renderFormula, type RenderedFormula } from './mathjax';
import { formulaBox } from './paintFormula';
import { insertSnippet, PALETTE } from './palette';
import './formula.css';

export type FormulaPatch = Partial<Pick<FormulaShape, 'latex' | 'fontSize' | 'color' | 'alignment' | 'w' | 'h'>>;

export interface FormulaPanelProps {
  shape: FormulaShape;
  update: (patch: FormulaPatch) => void;
  close: () => void;
}

/** typing is committed this long after the last keystroke */
export const COMMIT_DELAY_MS = 300;
const SIZES = [12, 16, 20, 24, 32, 40, 48, 64, 80, 96];
/** the LaTeX shown as an example in the empty input (the "e.g." around it is translated) */
const PLACEHOLDER_EXAMPLE = 'x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}';

const currentTheme = (): 'light' | 'dark' =>
  typeof document !== 'undefined' && document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';

/** the record's box for `latex` in this style: typeset size, or a guess from the source on error */
async function boxFor(latex: string, fontSize: number, alignment: string): Promise<{ w: number; h: number }> {
  const r = await renderFormula(latex, { fontSize, color: '#000000', alignment });
  if (r.error === undefined && r.width > 0) return formulaBox(r.width, r.height, fontSize);
  return latex.trim() ? formulaSize(latex, fontSize) : formulaBox(fontSize * 3.5, fontSize, fontSize);
}

export default function FormulaPanel({ shape, update, close }: FormulaPanelProps) {
  const { t } = useTranslation('board');
  const id = useId();
  const [latex, setLatex] = useState(shape.latex);
  const [preview, setPreview] = useState<RenderedFormula | null>(null);
  const [group, setGroup] = useState(PALETTE[0]!.id);
  const input = useRef<HTMLTextAreaElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<string | null>(null);
  const style = useRef(shape);
  useLayoutEffect(() => {
    style.current = shape;
  });
  // the colour picker reports every step of a drag: shown at once, committed once it rests
  const [color, setColor] = useState(shape.color);
  const colorTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pendingColor = useRef<number | null>(null);
  const flushColor = useCallback(() => {
    if (colorTimer.current) clearTimeout(colorTimer.current);
    colorTimer.current = null;
    const value = pendingColor.current;
    pendingColor.current = null;
    if (value !== null) update({ color: value });
  }, [update]);
  useEffect(() => setColor(shape.color), [shape.color]);
  const pickColor = (value: number) => {
    setColor(value);
    pendingColor.current = value;
    if (colorTimer.current) clearTimeout(colorTimer.current);
    colorTimer.current = setTimeout(flushColor, COMMIT_DELAY_MS);
  };

  // commit what was typed (with its rendered size); resolves once update() was called
  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const text = pending.current;
    if (text === null) return;
    pending.current = null;
    const s = style.current;
    const box = await boxFor(text, s.fontSize, s.alignment);
    update({ latex: text, ...box });
  }, [update]);

  // someone else changed the LaTeX while nothing of ours is pending: show theirs
  useEffect(() => {
    if (pending.current === null) setLatex(shape.latex);
  }, [shape.latex]);

  // the live preview, newest keystroke wins
  useEffect(() => {
    let live = true;
    void renderFormula(latex, {
      fontSize: 24,
      // as it will look on a plain board in this theme (the panel's background is the card colour)
      color: inkColor(color, { theme: currentTheme(), background: 'empty' }),
      alignment: shape.alignment,
    }).then((r) => {
      if (live) setPreview(r);
    });
    return () => {
      live = false;
    };
  }, [latex, color, shape.alignment]);

  // an unmount (the board closed the panel) still commits the last keystrokes
  useEffect(
    () => () => {
      flushColor();
      void flush();
    },
    [flush, flushColor],
  );

  const edit = (text: string) => {
    const capped = text.slice(0, SHAPE_LIMITS.maxText);
    setLatex(capped);
    pending.current = capped;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), COMMIT_DELAY_MS);
  };

  const insert = (snippet: string) => {
    const el = input.current;
    const start = el ? el.selectionStart : latex.length;
    const end = el ? el.selectionEnd : latex.length;
    const next = insertSnippet(latex, start, end, snippet);
    edit(next.value);
    // after React has put the new value in the textarea
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.selectionStart, next.selectionEnd);
    });
  };

  const restyle = async (patch: { fontSize?: number; alignment?: string }) => {
    await flush();
    const s = style.current;
    const fontSize = patch.fontSize ?? s.fontSize;
    const alignment = patch.alignment ?? s.alignment;
    update({ ...patch, ...(await boxFor(latex, fontSize, alignment)) });
  };

  const done = async () => {
    flushColor();
    await flush();
    close();
  };

  const verdict = checkLatex(latex);
  const error = !verdict.ok ? verdict.message : (preview?.error ?? null);
  const activeGroup = PALETTE.find((g) => g.id === group) ?? PALETTE[0]!;
  const sizes = SIZES.includes(Math.round(shape.fontSize))
    ? SIZES
    : [...SIZES, Math.round(shape.fontSize)].sort((a, b) => a - b);

  return (
    // Escape pressed in any of its controls bubbles here and closes it; the region itself takes no input
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <section
      className="shape-panel formula-panel"
      aria-label={t('formula.editor')}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          void done();
        }
      }}
    >
      <div className="formula-panel-head">
        <h2 className="formula-panel-title">{t('formula.title')}</h2>
        <button type="button" className="formula-done" onClick={() => void done()}>
          {t('formula.done')}
        </button>
      </div>

      <label className="formula-label" htmlFor={`${id}-latex`}>
        {t('formula.latex')}
      </label>
      <textarea
        id={`${id}-latex`}
        ref={input}
        className="formula-input"
        value={latex}
        rows={3}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        // the panel opens when the user asks to edit the formula: typing starts here
        // eslint-disable-next-line jsx-a11y/no-autofocus
        autoFocus
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        placeholder={t('formula.example', { example: PLACEHOLDER_EXAMPLE })}
        onChange={(e) => edit(e.target.value)}
      />
      {error && (
        <p id={`${id}-error`} className="formula-error" role="alert">
          {error}
        </p>
      )}

      <div className="formula-preview" aria-label={t('formula.preview')} role="img">
        {preview?.svg && !error ? (
          <img
            alt={latex}
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(preview.svg)}`}
            width={preview.width}
            height={preview.height}
          />
        ) : (
          <span className="formula-preview-empty">{latex.trim() ? '…' : t('formula.previewEmpty')}</span>
        )}
      </div>

      <div className="formula-groups" role="group" aria-label={t('formula.groups')}>
        {PALETTE.map((g) => (
          <button
            key={g.id}
            type="button"
            className="formula-group"
            aria-pressed={g.id === activeGroup.id}
            onClick={() => setGroup(g.id)}
          >
            {t(`formula.group.${g.id}`)}
          </button>
        ))}
      </div>
      <div className="formula-palette" role="group" aria-label={t(`formula.group.${activeGroup.id}`)}>
        {activeGroup.entries.map((entry) => (
          <button
            key={entry.latex}
            type="button"
            className="formula-symbol"
            aria-label={entry.label}
            title={`${entry.label}: ${entry.latex.replaceAll('□', '…')}`}
            onClick={() => insert(entry.latex)}
          >
            {entry.glyph}
          </button>
        ))}
      </div>

      <div className="formula-style">
        <label>
          <span>{t('formula.colour')}</span>
          <input
            type="color"
            value={hex(color)}
            onChange={(e) => pickColor(Number.parseInt(e.target.value.slice(1), 16))}
          />
        </label>
        <label>
          <span>{t('formula.size')}</span>
          <select
            value={Math.round(shape.fontSize)}
            onChange={(e) => void restyle({ fontSize: Number(e.target.value) })}
          >
            {sizes.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{t('formula.alignment')}</span>
          <select value={shape.alignment} onChange={(e) => void restyle({ alignment: e.target.value })}>
            {FORMULA_ALIGNMENTS.map((a) => (
              <option key={a} value={a}>
                {t(`formula.align.${a}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
    </section>
  );
}
