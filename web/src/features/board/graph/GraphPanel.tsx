/**
 * The graph panel: the functions (expression with its error under it, kind, colour, derivative,
 * tangent), the visible x/y ranges, grid, axes and labels. Every change is one `update` of the
 * shape's spec; typing is committed 300 ms after the last keystroke (a word is one undo step).
 * Without the `advancedGraphs` plan feature the advanced controls (more functions, colours,
 * parametric/polar/implicit/points, derivative, tangent) are shown but ask for the upgrade.
 */
import type { GraphShape } from '@wb/proto';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  GRAPH_COLORS,
  GRAPH_KINDS,
  MAX_GRAPH_EXPR,
  MAX_GRAPH_FUNCTIONS,
  MAX_GRAPH_LABEL,
  parseGraphSpec,
  serializeGraphSpec,
  specProblem,
  type GraphFunction,
  type GraphKind,
  type GraphSpec,
} from './graphSpec';
import { compileGraphFunction } from './plot';
import './graph.css';

export interface GraphPanelProps {
  shape: GraphShape;
  update: (patch: Partial<Pick<GraphShape, 'spec' | 'w' | 'h'>>) => void;
  close: () => void;
  advancedGraphs: boolean;
  onUpgrade: () => void;
}

/** the parameter interval of parametric and polar curves when none is set (plot.ts draws the same) */
const DEFAULT_CURVE_RANGE: [number, number] = [0, 2 * Math.PI];

/** typing is committed this long after the last keystroke */
export const GRAPH_COMMIT_DELAY_MS = 300;

/**
 * An expression input's label: the math as is, words through the `board` strings
 * (`graph.expr.<kind>`). Kind names are `graph.kind.<kind>`.
 */
const EXPR_LABELS: Record<GraphKind, { math: string } | { key: 'graph.expr.implicit' | 'graph.expr.points' }> = {
  function: { math: 'y =' },
  parametric: { math: 'x(t) =' },
  polar: { math: 'r(θ) =' },
  implicit: { key: 'graph.expr.implicit' },
  points: { key: 'graph.expr.points' },
};
/** the examples shown in empty inputs (the "e.g." around them is translated) */
const PLACEHOLDERS: Record<GraphKind, string> = {
  function: '2x^2 - sin x',
  parametric: 'cos t',
  polar: '1 + cos θ',
  implicit: 'x^2 + y^2 = 9',
  points: '(1, 2) (3, -1)',
};
/** the swatches' accessible names: the `board` strings `graph.colors.<name>` */
const COLOR_NAMES: Record<string, string> = {
  '#2563eb': 'blue',
  '#dc2626': 'red',
  '#059669': 'green',
  '#d97706': 'orange',
  '#7c3aed': 'violet',
  '#db2777': 'pink',
  '#0891b2': 'teal',
};

/** starting expressions of a kind, so a switched function draws something */
const KIND_EXAMPLES: Record<GraphKind, Pick<GraphFunction, 'expr' | 'exprY'>> = {
  function: { expr: 'x^2' },
  parametric: { expr: 'cos t', exprY: 'sin t' },
  polar: { expr: '1 + cos θ' },
  implicit: { expr: 'x^2 + y^2 = 9' },
  points: { expr: '(1, 2) (3, -1)' },
};

function nextId(spec: GraphSpec): string {
  for (let i = 1; ; i++) if (!spec.functions.some((f) => f.id === `f${i}`)) return `f${i}`;
}

export default function GraphPanel({ shape, update, close, advancedGraphs, onUpgrade }: GraphPanelProps) {
  const { t } = useTranslation('board');
  const id = useId();
  const [loaded] = useState(() => parseGraphSpec(shape.spec));
  const [draft, setDraft] = useState<GraphSpec>(loaded.spec);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<GraphSpec | null>(null);

  const flush = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const next = pending.current;
    pending.current = null;
    if (!next) return;
    const json = serializeGraphSpec(next);
    // an invalid draft (a range the wrong way round) stays in the panel with its message
    if (json !== null) update({ spec: json });
  }, [update]);

  // someone else (or pan/zoom on the board) changed the spec while nothing of ours is pending
  useEffect(() => {
    if (pending.current === null) setDraft(parseGraphSpec(shape.spec).spec);
  }, [shape.spec]);

  // closing the panel still commits the last keystrokes
  useEffect(() => () => flush(), [flush]);

  /** a change: typing waits for a pause, a click is committed at once */
  const change = (next: GraphSpec, typing: boolean) => {
    setDraft(next);
    pending.current = next;
    if (timer.current) clearTimeout(timer.current);
    if (typing) timer.current = setTimeout(flush, GRAPH_COMMIT_DELAY_MS);
    else flush();
  };
  const setFunction = (fid: string, patch: Partial<GraphFunction>, typing: boolean) =>
    change({ ...draft, functions: draft.functions.map((f) => (f.id === fid ? { ...f, ...patch } : f)) }, typing);
  /** advanced controls ask for the upgrade instead of acting */
  const advanced = (action: () => void) => {
    if (advancedGraphs) action();
    else onUpgrade();
  };

  const addFunction = () =>
    advanced(() => {
      if (draft.functions.length >= MAX_GRAPH_FUNCTIONS) return;
      const used = new Set(draft.functions.map((f) => f.color));
      const color = GRAPH_COLORS.find((c) => !used.has(c)) ?? GRAPH_COLORS[0]!;
      change(
        { ...draft, functions: [...draft.functions, { id: nextId(draft), kind: 'function', expr: '', color }] },
        false,
      );
    });
  const removeFunction = (fid: string) =>
    change({ ...draft, functions: draft.functions.filter((f) => f.id !== fid) }, false);
  const setKind = (f: GraphFunction, kind: GraphKind) => {
    const apply = () => {
      // a new kind starts from its example, without the old kind's extras
      const next: GraphFunction = { id: f.id, kind, color: f.color, ...KIND_EXAMPLES[kind] };
      change(
        {
          ...draft,
          functions: draft.functions.map((g) => (g.id === f.id ? next : g)),
        },
        false,
      );
    };
    if (kind === 'function') apply();
    else advanced(apply);
  };

  const done = () => {
    flush();
    close();
  };

  const problem = specProblem(draft);
  const gateNote = `${id}-upgrade`;
  const advancedProps = advancedGraphs ? {} : { 'aria-describedby': gateNote, 'data-needs-upgrade': true };

  return (
    // Escape pressed in any of its controls bubbles here and closes it; the region itself takes no input
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <section
      className="shape-panel graph-panel"
      aria-label={t('graph.editor')}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          done();
        }
      }}
    >
      <div className="graph-panel-head">
        <h2 className="graph-panel-title">{t('graph.title')}</h2>
        <button type="button" className="graph-done" onClick={done}>
          {t('graph.done')}
        </button>
      </div>
      {loaded.problem && (
        <p className="graph-note">
          {loaded.problem} {t('graph.defaultShown')}
        </p>
      )}
      {!advancedGraphs && (
        <p id={gateNote} className="graph-note">
          {t('graph.upgradeNote')}
        </p>
      )}

      <ol className="graph-functions" aria-label={t('graph.functions')}>
        {draft.functions.map((f, index) => (
          <FunctionRow
            key={f.id}
            fn={f}
            index={index}
            removable={draft.functions.length > 1}
            advancedProps={advancedProps}
            onChange={(patch, typing) => setFunction(f.id, patch, typing)}
            onKind={(kind) => setKind(f, kind)}
            onAdvanced={(patch, typing) => advanced(() => setFunction(f.id, patch, !!typing))}
            onRemove={() => removeFunction(f.id)}
          />
        ))}
      </ol>
      <button
        type="button"
        className="graph-add"
        onClick={addFunction}
        disabled={draft.functions.length >= MAX_GRAPH_FUNCTIONS}
        {...advancedProps}
      >
        {t('graph.addFunction')}
      </button>

      <fieldset className="graph-ranges">
        <legend>{t('graph.visibleRange')}</legend>
        <RangeField label="x" value={draft.x} onChange={(x) => change({ ...draft, x }, true)} />
        <RangeField label="y" value={draft.y} onChange={(y) => change({ ...draft, y }, true)} />
      </fieldset>
      {problem && (
        <p className="graph-error" role="alert">
          {problem[0]!.toUpperCase() + problem.slice(1)}.
        </p>
      )}

      <div className="graph-toggles">
        <label>
          <input
            type="checkbox"
            checked={draft.grid}
            onChange={(e) => change({ ...draft, grid: e.target.checked }, false)}
          />
          {t('graph.grid')}
        </label>
        <label>
          <input
            type="checkbox"
            checked={draft.axes}
            onChange={(e) => change({ ...draft, axes: e.target.checked }, false)}
          />
          {t('graph.axes')}
        </label>
      </div>
      <div className="graph-labels">
        <label>
          {t('graph.xAxisLabel')}
          <input
            type="text"
            value={draft.xLabel}
            maxLength={MAX_GRAPH_LABEL}
            onChange={(e) => change({ ...draft, xLabel: e.target.value }, true)}
          />
        </label>
        <label>
          {t('graph.yAxisLabel')}
          <input
            type="text"
            value={draft.yLabel}
            maxLength={MAX_GRAPH_LABEL}
            onChange={(e) => change({ ...draft, yLabel: e.target.value }, true)}
          />
        </label>
      </div>
    </section>
  );
}

interface FunctionRowProps {
  fn: GraphFunction;
  index: number;
  removable: boolean;
  advancedProps: Record<string, unknown>;
  onChange: (patch: Partial<GraphFunction>, typing: boolean) => void;
  onKind: (kind: GraphKind) => void;
  onAdvanced: (patch: Partial<GraphFunction>, typing?: boolean) => void;
  onRemove: () => void;
}

function FunctionRow({
  fn,
  index,
  removable,
  advancedProps,
  onChange,
  onKind,
  onAdvanced,
  onRemove,
}: FunctionRowProps) {
  const { t } = useTranslation('board');
  const id = useId();
  const n = index + 1;
  const compiled = compileGraphFunction(fn);
  const error = compiled.ok ? null : compiled.problem;
  const field = (key: 'expr' | 'exprY', label: string, placeholder: string) => {
    const mine = error?.field === key ? error : null;
    return (
      <div className="graph-field">
        <label htmlFor={`${id}-${key}`} className="graph-label">
          {label}
        </label>
        <input
          id={`${id}-${key}`}
          className="graph-input"
          type="text"
          value={(key === 'expr' ? fn.expr : fn.exprY) ?? ''}
          maxLength={MAX_GRAPH_EXPR}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          placeholder={placeholder}
          aria-label={t('graph.fn.field', { n, label })}
          aria-invalid={mine ? true : undefined}
          aria-describedby={mine ? `${id}-${key}-error` : undefined}
          onChange={(e) => onChange({ [key]: e.target.value }, true)}
        />
        {mine && (
          <p id={`${id}-${key}-error`} className="graph-error" role="alert">
            {mine.message}
          </p>
        )}
      </div>
    );
  };
  const tangentOn = fn.tangentAt !== undefined;
  const exprKey = EXPR_LABELS[fn.kind];
  const exprLabel = 'math' in exprKey ? exprKey.math : t(exprKey.key);

  return (
    <li className="graph-function" style={{ borderLeftColor: fn.color }}>
      <div className="graph-function-head">
        <select
          aria-label={t('graph.fn.kind', { n })}
          value={fn.kind}
          onChange={(e) => onKind(e.target.value as GraphKind)}
        >
          {GRAPH_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`graph.kind.${k}`)}
            </option>
          ))}
        </select>
        {removable && (
          <button type="button" className="graph-remove" aria-label={t('graph.fn.remove', { n })} onClick={onRemove}>
            ×
          </button>
        )}
      </div>
      {field('expr', exprLabel, t('graph.example', { example: PLACEHOLDERS[fn.kind] }))}
      {fn.kind === 'parametric' && field('exprY', 'y(t) =', t('graph.example', { example: 'sin t' }))}

      <div className="graph-colors" role="group" aria-label={t('graph.fn.colour', { n })}>
        {GRAPH_COLORS.map((c) => (
          <button
            key={c}
            type="button"
            className="graph-swatch"
            style={{ background: c }}
            aria-label={COLOR_NAMES[c] ? t(`graph.colors.${COLOR_NAMES[c]}`) : c}
            aria-pressed={fn.color.toLowerCase() === c}
            onClick={() => onAdvanced({ color: c })}
            {...advancedProps}
          />
        ))}
      </div>

      {fn.kind === 'function' && (
        <div className="graph-extras">
          <label {...advancedProps}>
            <input
              type="checkbox"
              checked={!!fn.derivative}
              onChange={(e) => onAdvanced({ derivative: e.target.checked })}
            />
            {t('graph.derivative')}
          </label>
          <label {...advancedProps}>
            <input
              type="checkbox"
              checked={tangentOn}
              onChange={(e) => onAdvanced({ tangentAt: e.target.checked ? 1 : undefined })}
            />
            {t('graph.tangentAt')}
          </label>
          {tangentOn && (
            <NumberInput
              label={t('graph.fn.tangentAt', { n })}
              value={fn.tangentAt!}
              onChange={(v) => onAdvanced({ tangentAt: v }, true)}
            />
          )}
        </div>
      )}
      {(fn.kind === 'parametric' || fn.kind === 'polar') && (
        <fieldset className="graph-curve-range">
          <legend>{t('graph.curveRange')}</legend>
          {/* how much of the curve is drawn: 0 … 2π by default, e.g. 0 … 6π for a spiral */}
          <RangeField
            label={fn.kind === 'polar' ? 'θ' : 't'}
            value={fn.range ?? DEFAULT_CURVE_RANGE}
            onChange={(range) => onAdvanced({ range }, true)}
          />
        </fieldset>
      )}
    </li>
  );
}

function RangeField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: [number, number];
  onChange: (value: [number, number]) => void;
}) {
  const { t } = useTranslation('board');
  return (
    <div className="graph-range">
      <NumberInput
        label={t('graph.range.from', { axis: label })}
        value={value[0]}
        onChange={(v) => onChange([v, value[1]])}
      />
      <span aria-hidden="true">≤ {label} ≤</span>
      <NumberInput
        label={t('graph.range.to', { axis: label })}
        value={value[1]}
        onChange={(v) => onChange([value[0], v])}
      />
    </div>
  );
}

/** a number typed as text (so "-" and "1." can be typed); only finite numbers are passed on */
function NumberInput({ label, value, onChange }: { label: string; value: number; onChange: (value: number) => void }) {
  const [text, setText] = useState(() => formatNumber(value));
  // the value changed from outside (pan, zoom, someone else): show it unless it is what we typed
  useEffect(() => {
    setText((t) => (Number(t) === value ? t : formatNumber(value)));
  }, [value]);
  const valid = text.trim() !== '' && Number.isFinite(Number(text));
  return (
    <input
      type="text"
      inputMode="decimal"
      className="graph-number"
      aria-label={label}
      aria-invalid={valid ? undefined : true}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const v = Number(e.target.value);
        if (e.target.value.trim() !== '' && Number.isFinite(v)) onChange(v);
      }}
    />
  );
}

/** short, readable numbers for ranges moved by pan and zoom */
function formatNumber(v: number): string {
  return String(Number(v.toPrecision(6)));
}
