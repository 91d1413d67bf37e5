/**
 * The style of the current tool, or of the selection when shapes are selected (the editor restyles
 * them in one change). Only the sections that apply are shown. The page saves the style (settings
 * for people with an account, localStorage for guests): this panel only calls editor.setStyle.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { X } from 'lucide-react';
import { FILL_STYLES, GEOMETRIC_SHAPES, LINE_PATTERNS, type Settings, type ShapeKind } from '@wb/proto';
import { ICON_PROPS } from '../../../ui/icons';
import type { EditorApi, EditorState } from '../canvas/editorApi';
import type { ToolId, ToolStyle } from '../canvas/tools/types';
import { fromHex, fromRgb, toHex, toRgb, useEditorState } from './editorHooks';
import { STICKY_COLORS } from './styleSettings';

export { STICKY_COLORS };

export type PenPreset = Settings['penPresets'][number];

export const PALETTE = [
  0x000000, 0xffffff, 0x9e9e9e, 0xe53935, 0xfb8c00, 0xfdd835, 0x43a047, 0x00acc1, 0x1e88e5, 0x8e24aa,
] as const;
/** each swatch's accessible name: the board strings' `colors.<name>` */
const COLOR_NAMES: Readonly<Record<number, string>> = {
  0x000000: 'black',
  0xffffff: 'white',
  0x9e9e9e: 'grey',
  0xe53935: 'red',
  0xfb8c00: 'orange',
  0xfdd835: 'yellow',
  0x43a047: 'green',
  0x00acc1: 'teal',
  0x1e88e5: 'blue',
  0x8e24aa: 'purple',
  0xfff59d: 'noteYellow',
  0xffcc80: 'noteOrange',
  0xf8bbd0: 'notePink',
  0xc5e1a5: 'noteGreen',
  0xb3e5fc: 'noteBlue',
  0xd1c4e9: 'noteLavender',
};
export const colorName = (c: number): string | undefined => COLOR_NAMES[c];

export const FONTS = ['Open Sans', 'Arial', 'Georgia', 'Times New Roman', 'Courier New', 'Verdana'] as const;

const SHAPE_TOOLS: readonly string[] = GEOMETRIC_SHAPES;
const STROKE_TOOLS = new Set<string>(['pen', 'line', 'polyline', 'curve', 'connector', ...GEOMETRIC_SHAPES]);
const STROKE_KINDS = new Set<ShapeKind>(['pen', 'line', 'arc', 'polyline', 'curve', 'connector', 'shape']);

/** what the panel edits: the selection's kinds, else the tool's */
export function styleSections(state: Pick<EditorState, 'tool' | 'selection'>) {
  const kinds = state.selection.count > 0 ? state.selection.kinds : null;
  const tool: ToolId = state.tool;
  const has = (k: ShapeKind) => !!kinds?.includes(k);
  return {
    stroke: kinds ? kinds.some((k) => STROKE_KINDS.has(k)) : STROKE_TOOLS.has(tool),
    fill: kinds ? has('shape') : SHAPE_TOOLS.includes(tool),
    text: kinds ? has('text') : tool === 'text',
    sticky: kinds ? has('sticky') : tool === 'sticky',
    connector: kinds ? has('connector') || has('line') : tool === 'connector' || tool === 'line',
    pen: kinds ? has('pen') : tool === 'pen',
  };
}

export interface StylePanelProps {
  editor: EditorApi;
  /** the user's pen presets (keys 1–9 pick them) */
  presets: readonly PenPreset[];
  /** the plan's limits.maxPresets */
  maxPresets: number;
  /** null for guests: presets live in the account's settings */
  onSavePresets: ((presets: PenPreset[]) => void) | null;
  /** saving one more preset than the plan allows */
  onUpgrade: () => void;
  onClose?: () => void;
}

export function StylePanel({ editor, presets, maxPresets, onSavePresets, onUpgrade, onClose }: StylePanelProps) {
  const { t } = useTranslation('board');
  const state = useEditorState(editor, (s) => ({
    tool: s.tool,
    selection: s.selection,
    style: s.style,
    penOnly: s.penOnly,
  }));
  const s = state.style;
  const show = styleSections(state);
  const set = (patch: Partial<ToolStyle>) => editor.setStyle(patch);
  const ids = useId();
  if (!Object.values(show).some(Boolean)) return null;
  const title =
    state.selection.count > 0 ? t('style.selection', { count: state.selection.count }) : t(`tools.${state.tool}`);

  return (
    <section className="board-panel style-panel" aria-labelledby={`${ids}-title`} data-testid="style-panel">
      <header className="board-panel-head">
        <h2 id={`${ids}-title`}>{title}</h2>
        {onClose ? (
          <button type="button" className="tool" aria-label={t('style.close')} onClick={onClose}>
            <X {...ICON_PROPS} size={16} />
          </button>
        ) : null}
      </header>
      {show.stroke ? (
        <>
          <Swatches
            label={t('style.strokeColor')}
            colors={PALETTE}
            value={s.strokeColor}
            onChange={(c) => set({ strokeColor: c })}
            custom
          />
          <div className="style-row">
            <label htmlFor={`${ids}-width`}>{t('style.width')}</label>
            <input
              id={`${ids}-width`}
              type="range"
              min={1}
              max={50}
              value={Math.min(50, s.strokeWidth)}
              onChange={(e) => set({ strokeWidth: Number(e.target.value) })}
            />
            <output htmlFor={`${ids}-width`}>{s.strokeWidth}</output>
          </div>
          <Choice
            label={t('style.pattern')}
            values={LINE_PATTERNS}
            value={s.linePattern}
            text={(v) => t(`style.pattern_${v}`)}
            onChange={(v) => set({ linePattern: v })}
          />
        </>
      ) : null}
      {show.pen ? (
        <>
          <Toggle label={t('style.fixedWidth')} on={s.fixedWidth} onChange={(v) => set({ fixedWidth: v })} />
          <Toggle
            label={t('style.penOnly')}
            hint={t('style.penOnlyHint')}
            on={state.penOnly}
            onChange={(v) => editor.setPenOnly(v)}
          />
        </>
      ) : null}
      {show.fill ? (
        <>
          <Choice
            label={t('style.fill')}
            values={FILL_STYLES}
            value={s.fill}
            text={(v) => t(`style.fill_${v}`)}
            onChange={(v) => set({ fill: v, fillColor: v === 'none' ? s.fillColor : (s.fillColor ?? s.strokeColor) })}
          />
          {s.fill !== 'none' ? (
            <Swatches
              label={t('style.fillColor')}
              colors={PALETTE}
              value={s.fillColor ?? s.strokeColor}
              onChange={(c) => set({ fillColor: c })}
              custom
            />
          ) : null}
        </>
      ) : null}
      {show.text ? (
        <>
          <div className="style-row">
            <label htmlFor={`${ids}-font`}>{t('style.font')}</label>
            <select id={`${ids}-font`} value={s.textFont} onChange={(e) => set({ textFont: e.target.value })}>
              {(FONTS as readonly string[]).includes(s.textFont) ? null : (
                <option value={s.textFont}>{s.textFont}</option>
              )}
              {FONTS.map((f) => (
                <option key={f} value={f} style={{ fontFamily: f }}>
                  {f}
                </option>
              ))}
            </select>
          </div>
          <div className="style-row">
            <label htmlFor={`${ids}-size`}>{t('style.textSize')}</label>
            <input
              id={`${ids}-size`}
              type="number"
              min={6}
              max={200}
              value={s.textSize}
              onChange={(e) => {
                const n = Math.round(Number(e.target.value));
                if (n >= 6 && n <= 200) set({ textSize: n });
              }}
            />
          </div>
          <Swatches
            label={t('style.textColor')}
            colors={PALETTE}
            value={s.textColor}
            onChange={(c) => set({ textColor: c })}
            custom
          />
        </>
      ) : null}
      {show.sticky ? (
        <Swatches
          label={t('style.stickyColor')}
          colors={STICKY_COLORS}
          value={s.stickyColor}
          onChange={(c) => set({ stickyColor: c })}
        />
      ) : null}
      {show.connector ? (
        <>
          <Choice
            label={t('style.route')}
            values={['straight', 'elbow'] as const}
            value={s.elbow ? 'elbow' : 'straight'}
            text={(v) => t(`style.route_${v}`)}
            onChange={(v) => set({ elbow: v === 'elbow' })}
          />
          <Toggle label={t('style.arrowStart')} on={s.arrowStart} onChange={(v) => set({ arrowStart: v })} />
          <Toggle label={t('style.arrowEnd')} on={s.arrowEnd} onChange={(v) => set({ arrowEnd: v })} />
        </>
      ) : null}
      {/* pen presets belong to the pen: shapes and lines keep their own style */}
      {show.pen ? (
        <Presets
          style={s}
          presets={presets}
          maxPresets={maxPresets}
          onApply={(p) => set({ strokeColor: fromRgb(p.color), strokeWidth: p.width, linePattern: p.pattern })}
          onSave={onSavePresets}
          onUpgrade={onUpgrade}
        />
      ) : null}
    </section>
  );
}

function Swatches({
  label,
  colors,
  value,
  onChange,
  custom,
}: {
  label: string;
  colors: readonly number[];
  value: number;
  onChange: (c: number) => void;
  custom?: boolean;
}) {
  const { t } = useTranslation('board');
  const id = useId();
  return (
    <fieldset className="style-swatches">
      <legend>{label}</legend>
      <div className="swatches">
        {colors.map((c) => (
          <button
            key={c}
            type="button"
            className="swatch"
            style={{ ['--swatch' as string]: toHex(c) }}
            aria-label={COLOR_NAMES[c] ? t(`colors.${COLOR_NAMES[c]}`) : toHex(c)}
            title={COLOR_NAMES[c] ? t(`colors.${COLOR_NAMES[c]}`) : undefined}
            aria-pressed={value === c}
            onClick={() => onChange(c)}
          />
        ))}
        {custom ? (
          <>
            <label htmlFor={id} className="sr-only">
              {t('style.customColor')}
            </label>
            <input
              id={id}
              type="color"
              className="swatch-custom"
              title={t('style.customColor')}
              value={toHex(value)}
              onChange={(e) => onChange(fromHex(e.target.value))}
            />
          </>
        ) : null}
      </div>
    </fieldset>
  );
}

function Choice<T extends string>({
  label,
  values,
  value,
  text,
  onChange,
}: {
  label: string;
  values: readonly T[];
  value: T;
  text: (v: T) => string;
  onChange: (v: T) => void;
}) {
  return (
    <fieldset className="style-choice">
      <legend>{label}</legend>
      <div className="segmented">
        {values.map((v) => (
          <button key={v} type="button" aria-pressed={value === v} onClick={() => onChange(v)}>
            {text(v)}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

function Toggle({
  label,
  hint,
  on,
  onChange,
}: {
  label: string;
  hint?: string;
  on: boolean;
  onChange: (on: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="style-toggle">
      <input id={id} type="checkbox" checked={on} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>
        {label}
        {hint ? <small className="muted"> {hint}</small> : null}
      </label>
    </div>
  );
}

/** Pen presets: keys 1–9 pick them (the editor handles the keys); saving is capped by the plan. */
function Presets({
  style,
  presets,
  maxPresets,
  onApply,
  onSave,
  onUpgrade,
}: {
  style: ToolStyle;
  presets: readonly PenPreset[];
  maxPresets: number;
  onApply: (p: PenPreset) => void;
  onSave: ((presets: PenPreset[]) => void) | null;
  onUpgrade: () => void;
}) {
  const { t } = useTranslation('board');
  const [note, setNote] = useState<string>();
  const pattern = (LINE_PATTERNS as readonly string[]).includes(style.linePattern)
    ? (style.linePattern as PenPreset['pattern'])
    : 'pen';
  const current: PenPreset = {
    color: toRgb(style.strokeColor),
    width: Math.min(100, Math.max(1, style.strokeWidth)),
    pattern,
  };
  const save = () => {
    if (!onSave) return;
    // the hard cap is 9 (keys 1–9); the plan may allow fewer
    if (presets.length >= Math.min(9, maxPresets)) {
      if (maxPresets < 9) onUpgrade();
      else setNote(t('presets.full'));
      return;
    }
    onSave([...presets, current]);
    setNote(undefined);
  };
  return (
    <fieldset className="style-presets">
      <legend>{t('presets.title')}</legend>
      {presets.length === 0 ? <p className="muted">{t('presets.none')}</p> : null}
      <ol className="presets">
        {presets.map((p, i) => (
          <li key={i}>
            <button
              type="button"
              className="preset"
              aria-keyshortcuts={String(i + 1)}
              aria-label={t('presets.apply', { n: i + 1, width: p.width, pattern: t(`style.pattern_${p.pattern}`) })}
              onClick={() => onApply(p)}
            >
              <kbd>{i + 1}</kbd>
              <span
                className="preset-line"
                aria-hidden="true"
                style={{
                  ['--swatch' as string]: toHex(fromRgb(p.color)),
                  ['--w' as string]: `${Math.min(12, p.width)}px`,
                }}
              />
            </button>
            {onSave ? (
              <button
                type="button"
                className="tool preset-remove"
                aria-label={t('presets.remove', { n: i + 1 })}
                onClick={() => onSave(presets.filter((_, j) => j !== i))}
              >
                <X {...ICON_PROPS} size={14} />
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      {onSave ? (
        <button type="button" className="small" data-action="savePreset" onClick={save}>
          {t('presets.save')}
        </button>
      ) : (
        <p className="muted">{t('presets.guest')}</p>
      )}
      {note ? (
        <p className="muted" role="status">
          {note}
        </p>
      ) : null}
    </fieldset>
  );
}
