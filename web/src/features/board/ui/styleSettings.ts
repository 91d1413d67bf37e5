/**
 * Where each tool group's style (canvas/toolStyles.ts) is kept between visits:
 *
 * - the pen's colour, width and pattern: settings toolStrokeColor / toolStrokeWidth /
 *   toolLinePattern; text: toolTextColor / toolTextSize / toolTextFont; formulas: toolFormulaColor
 *   / toolFormulaSize / toolFormulaAlignment (spec §3, saved through POST /api/user/settings, so
 *   they follow the person to every device);
 * - everything the spec names no setting for (the shapes' and lines' stroke and fill, connector
 *   route and arrowheads, the note colour, the pen's fixed width) and, for guests, everything:
 *   this device (localStorage `wb.boardStyles`).
 *
 * Settings win over this device's copy for the fields they hold.
 */
import { DEFAULT_SETTINGS, type Settings, type SettingsPatch } from '@wb/proto';
import { stylesFromFlat, type StyleGroup, type ToolStyles } from '../canvas/toolStyles';
import type { ToolStyle } from '../canvas/tools/types';
import { fromRgb, toRgb } from './editorHooks';

/** the note colours (the first is the default) */
export const STICKY_COLORS = [0xfff59d, 0xffcc80, 0xf8bbd0, 0xc5e1a5, 0xb3e5fc, 0xd1c4e9] as const;

export const STYLES_KEY = 'wb.boardStyles';
/** before issue 26: one flat style shared by every tool */
const LEGACY_STYLE_KEY = 'wb.boardStyle';

const DEFAULT_STROKE = {
  strokeColor: fromRgb(DEFAULT_SETTINGS.toolStrokeColor),
  strokeWidth: DEFAULT_SETTINGS.toolStrokeWidth,
  linePattern: DEFAULT_SETTINGS.toolLinePattern,
};
export const DEFAULT_STYLES: ToolStyles = {
  pen: { ...DEFAULT_STROKE, fixedWidth: false },
  shape: { ...DEFAULT_STROKE, fill: 'none', fillColor: null, elbow: false, arrowStart: false, arrowEnd: true },
  text: {
    textColor: fromRgb(DEFAULT_SETTINGS.toolTextColor),
    textSize: DEFAULT_SETTINGS.toolTextSize,
    textFont: DEFAULT_SETTINGS.toolTextFont,
  },
  sticky: { stickyColor: STICKY_COLORS[0] },
  formula: {
    formulaColor: fromRgb(DEFAULT_SETTINGS.toolFormulaColor),
    formulaSize: DEFAULT_SETTINGS.toolFormulaSize,
    formulaAlignment: DEFAULT_SETTINGS.toolFormulaAlignment,
  },
};
const GROUPS = Object.keys(DEFAULT_STYLES) as StyleGroup[];

/** each group's stored fields over the defaults; only fields of the default's type are taken */
function mergeStored(stored: unknown): ToolStyles {
  const out = {} as Record<StyleGroup, Record<string, unknown>>;
  for (const g of GROUPS) {
    const base: Record<string, unknown> = { ...DEFAULT_STYLES[g] };
    const from = (stored as Record<string, unknown> | null)?.[g];
    if (from && typeof from === 'object') {
      for (const [k, v] of Object.entries(from as Record<string, unknown>)) {
        if (!(k in base)) continue;
        const def = base[k];
        if (def === null ? v === null || typeof v === 'number' : typeof v === typeof def) base[k] = v;
      }
    }
    out[g] = base;
  }
  return out as unknown as ToolStyles;
}

/** This device's copy (every group), or null. A copy of the old shared style seeds all but the shapes' stroke. */
export function storedStyles(): ToolStyles | null {
  try {
    const raw = localStorage.getItem(STYLES_KEY);
    if (raw) return mergeStored(JSON.parse(raw));
    const legacy = localStorage.getItem(LEGACY_STYLE_KEY);
    if (!legacy) return null;
    const flat = stylesFromFlat({ ...styleOfDefaults(), ...(JSON.parse(legacy) as Partial<ToolStyle>) });
    return mergeStored({ ...flat, shape: { ...flat.shape, ...DEFAULT_STROKE } });
  } catch {
    return null;
  }
}
export function storeStyles(styles: ToolStyles): void {
  try {
    localStorage.setItem(STYLES_KEY, JSON.stringify(styles));
  } catch {
    // private mode: the style lasts for this visit
  }
}

function styleOfDefaults(): ToolStyle {
  const d = DEFAULT_STYLES;
  return { ...d.shape, ...d.pen, ...d.text, ...d.sticky, ...d.formula };
}

/** settings first (they follow the person), then this device's copy for what settings lack */
export function initialStyles(settings: Settings | null): ToolStyles {
  const base = storedStyles() ?? DEFAULT_STYLES;
  if (!settings) return base;
  return {
    ...base,
    pen: {
      ...base.pen,
      strokeColor: fromRgb(settings.toolStrokeColor),
      strokeWidth: settings.toolStrokeWidth,
      linePattern: settings.toolLinePattern,
    },
    text: {
      textColor: fromRgb(settings.toolTextColor),
      textSize: settings.toolTextSize,
      textFont: settings.toolTextFont,
    },
    formula: {
      formulaColor: fromRgb(settings.toolFormulaColor),
      formulaSize: settings.toolFormulaSize,
      formulaAlignment: settings.toolFormulaAlignment,
    },
  };
}

/** the settings fields a style change touches (only the changed ones are sent) */
export function styleSettingsPatch(before: ToolStyles, after: ToolStyles): SettingsPatch | null {
  const patch: SettingsPatch = {};
  const [a, b] = [before.pen, after.pen];
  if (b.strokeColor !== a.strokeColor) patch.toolStrokeColor = toRgb(b.strokeColor);
  if (b.strokeWidth !== a.strokeWidth) patch.toolStrokeWidth = Math.min(100, Math.max(1, b.strokeWidth));
  if (b.linePattern !== a.linePattern) patch.toolLinePattern = b.linePattern as Settings['toolLinePattern'];
  const [ta, tb] = [before.text, after.text];
  if (tb.textColor !== ta.textColor) patch.toolTextColor = toRgb(tb.textColor);
  if (tb.textSize !== ta.textSize) patch.toolTextSize = tb.textSize;
  if (tb.textFont !== ta.textFont) patch.toolTextFont = tb.textFont;
  const [fa, fb] = [before.formula, after.formula];
  if (fb.formulaColor !== fa.formulaColor) patch.toolFormulaColor = toRgb(fb.formulaColor);
  if (fb.formulaSize !== fa.formulaSize) patch.toolFormulaSize = fb.formulaSize;
  if (fb.formulaAlignment !== fa.formulaAlignment)
    patch.toolFormulaAlignment = fb.formulaAlignment as Settings['toolFormulaAlignment'];
  return Object.keys(patch).length ? patch : null;
}
