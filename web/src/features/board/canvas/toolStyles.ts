/**
 * Each group of tools keeps its own style (issue 26 #5): a highlighter at width 20 must not make
 * the next rectangle a 20 px translucent blob.
 *
 * - pen: the pen (and the compass, which draws with it): colour, width, line pattern, fixed
 *   width. Saved in the settings toolStrokeColor / toolStrokeWidth / toolLinePattern; the pen
 *   presets (penPresets, keys 1–9) set it.
 * - shape: the geometric shapes, lines, polylines, curves and connectors: colour, width, pattern,
 *   fill and the connector's route and arrowheads. The spec names no setting for it: kept on
 *   this device (BoardSession's local copy).
 * - text (toolTextColor / toolTextSize / toolTextFont), sticky (note colour, this device) and
 *   formula (toolFormulaColor / toolFormulaSize / toolFormulaAlignment).
 *
 * Tools keep reading one flat ToolStyle (`styleFor`): only the stroke fields differ between the
 * pen and shape groups; every other field belongs to exactly one group.
 */
import type { ShapeKind } from '@wb/proto';
import type { ToolId, ToolStyle } from './tools/types';

export type StrokeStyle = Pick<ToolStyle, 'strokeColor' | 'strokeWidth' | 'linePattern'>;
export type PenStyle = StrokeStyle & Pick<ToolStyle, 'fixedWidth'>;
export type ShapeStyle = StrokeStyle & Pick<ToolStyle, 'fill' | 'fillColor' | 'elbow' | 'arrowStart' | 'arrowEnd'>;
export type TextStyle = Pick<ToolStyle, 'textColor' | 'textSize' | 'textFont'>;
export type StickyStyle = Pick<ToolStyle, 'stickyColor'>;
export type FormulaStyle = Pick<ToolStyle, 'formulaColor' | 'formulaSize' | 'formulaAlignment'>;

export interface ToolStyles {
  pen: PenStyle;
  shape: ShapeStyle;
  text: TextStyle;
  sticky: StickyStyle;
  formula: FormulaStyle;
}
export type StyleGroup = keyof ToolStyles;

/** whose stroke (colour, width, pattern) a tool draws with */
export type StrokeGroup = 'pen' | 'shape';

export const STROKE_FIELDS = ['strokeColor', 'strokeWidth', 'linePattern'] as const;
/** the group owning each field that is not a stroke field */
const FIELD_GROUP: Record<Exclude<keyof ToolStyle, (typeof STROKE_FIELDS)[number]>, StyleGroup> = {
  fixedWidth: 'pen',
  fill: 'shape',
  fillColor: 'shape',
  elbow: 'shape',
  arrowStart: 'shape',
  arrowEnd: 'shape',
  textColor: 'text',
  textSize: 'text',
  textFont: 'text',
  stickyColor: 'sticky',
  formulaColor: 'formula',
  formulaSize: 'formula',
  formulaAlignment: 'formula',
};

/** pen, compass and the tools without a stroke of their own use the pen's; shapes and lines theirs */
const SHAPE_STROKE_TOOLS: ReadonlySet<ToolId> = new Set<ToolId>([
  'line',
  'polyline',
  'curve',
  'connector',
  'rectangle',
  'ellipse',
  'triangle',
  'diamond',
  'star',
  'hexagon',
  'arrow',
]);
export function strokeGroupOfTool(tool: ToolId): StrokeGroup {
  return SHAPE_STROKE_TOOLS.has(tool) ? 'shape' : 'pen';
}

/** a selection's stroke group: pen strokes alone are the pen's, anything else the shapes' */
export function strokeGroupOfKinds(kinds: readonly ShapeKind[]): StrokeGroup {
  const stroked = kinds.filter((k) => k !== 'text' && k !== 'sticky' && k !== 'formula' && k !== 'graph');
  return stroked.length > 0 && stroked.every((k) => k === 'pen') ? 'pen' : 'shape';
}

/** the flat style a tool (or the style panel) works with: the stroke of `stroke`, the rest of each group */
export function styleFor(styles: ToolStyles, stroke: StrokeGroup): ToolStyle {
  const { pen, shape } = styles;
  const s = stroke === 'pen' ? pen : shape;
  return {
    strokeColor: s.strokeColor,
    strokeWidth: s.strokeWidth,
    linePattern: s.linePattern,
    fixedWidth: pen.fixedWidth,
    fill: shape.fill,
    fillColor: shape.fillColor,
    elbow: shape.elbow,
    arrowStart: shape.arrowStart,
    arrowEnd: shape.arrowEnd,
    ...styles.text,
    ...styles.sticky,
    ...styles.formula,
  };
}

/** a style change: stroke fields go to `stroke`'s group, every other field to its own group */
export function applyStylePatch(styles: ToolStyles, stroke: StrokeGroup, patch: Partial<ToolStyle>): ToolStyles {
  const next: ToolStyles = {
    pen: { ...styles.pen },
    shape: { ...styles.shape },
    text: { ...styles.text },
    sticky: { ...styles.sticky },
    formula: { ...styles.formula },
  };
  let changed = false;
  for (const [k, v] of Object.entries(patch) as [keyof ToolStyle, unknown][]) {
    if (v === undefined) continue;
    const group: StyleGroup = (STROKE_FIELDS as readonly string[]).includes(k)
      ? stroke
      : FIELD_GROUP[k as keyof typeof FIELD_GROUP];
    const target = next[group] as unknown as Record<string, unknown>;
    if (target[k] === v) continue;
    target[k] = v;
    changed = true;
  }
  return changed ? next : styles;
}

/** the groups of a flat style (every group gets the same stroke): old stored copies, tests */
export function stylesFromFlat(style: ToolStyle): ToolStyles {
  const stroke: StrokeStyle = {
    strokeColor: style.strokeColor,
    strokeWidth: style.strokeWidth,
    linePattern: style.linePattern,
  };
  return {
    pen: { ...stroke, fixedWidth: style.fixedWidth },
    shape: {
      ...stroke,
      fill: style.fill,
      fillColor: style.fillColor,
      elbow: style.elbow,
      arrowStart: style.arrowStart,
      arrowEnd: style.arrowEnd,
    },
    text: { textColor: style.textColor, textSize: style.textSize, textFont: style.textFont },
    sticky: { stickyColor: style.stickyColor },
    formula: {
      formulaColor: style.formulaColor,
      formulaSize: style.formulaSize,
      formulaAlignment: style.formulaAlignment,
    },
  };
}
