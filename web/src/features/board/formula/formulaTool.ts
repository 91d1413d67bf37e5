/**
 * Formula: a click places an empty formula in the style's colour, size and alignment at the
 * pointer, selects it, hands over to the select tool and opens the formula panel on it (the
 * page's editor; a formula still empty when the panel closes is removed, like an empty text
 * box). A click on an existing formula opens its panel instead.
 *
 * The size is in screen pixels like the text tool's: the style's size divided by the zoom, so a
 * formula placed far out is as readable as one placed at 100 %.
 */
import { FORMULA_ALIGNMENTS, SHAPE_LIMITS, SHAPE_STYLE_DEFAULTS } from '@wb/proto';
import type { FormulaShape } from '@wb/proto';
import { putShape } from '../realtime/boardDoc';
import type { Point } from '../canvas/camera';
import type { Tool, ToolHost, ToolPointer } from '../canvas/tools/types';

/** an empty formula's box, in em: room for the caret's first characters */
export const EMPTY_FORMULA_EM = { w: 4, h: 1.5 } as const;

export class FormulaTool implements Tool {
  // 'formula' joins TOOL_IDS when the toolbar gets its button
  readonly id = 'formula';
  readonly cursor = 'crosshair';
  readonly edits = true;
  private at: Point | null = null;

  down(p: ToolPointer, host: ToolHost): void {
    if (!host.canEdit()) return;
    this.at = { x: p.x, y: p.y };
  }

  move(): void {
    // a formula is placed by a click; dragging adds nothing
  }

  up(p: ToolPointer, host: ToolHost): void {
    const at = this.at;
    if (!at) return;
    this.at = null;
    const hit = host.scene.hitTest(at, 4 / host.zoom());
    if (hit && hit.shape.kind === 'formula' && !hit.shape.locked) {
      host.setSelection([hit.shape.id]);
      host.setTool('select');
      host.openEditor(hit.shape.id);
      return;
    }
    const shape = formulaRecord(host.newId(), host.snap(at, { alt: p.alt }), host);
    if (!host.commit((d) => putShape(d, shape))) return;
    host.setSelection([shape.id]);
    host.setTool('select');
    host.openEditor(shape.id);
  }

  cancel(): void {
    this.at = null;
  }
}

/** a new, empty formula whose first line is centred vertically on `at` */
export function formulaRecord(id: string, at: Point, host: ToolHost): FormulaShape {
  const style = host.style();
  const size = validSize(style.formulaSize) ?? SHAPE_STYLE_DEFAULTS.formulaSize;
  const fontSize = Math.min(SHAPE_LIMITS.maxFontSize, Math.max(1, size / host.zoom()));
  const color = validColor(style.formulaColor) ?? SHAPE_STYLE_DEFAULTS.formulaColor;
  const alignment = (FORMULA_ALIGNMENTS as readonly string[]).includes(style.formulaAlignment)
    ? style.formulaAlignment
    : SHAPE_STYLE_DEFAULTS.formulaAlignment;
  const w = EMPTY_FORMULA_EM.w * fontSize;
  const h = EMPTY_FORMULA_EM.h * fontSize;
  return {
    id,
    kind: 'formula',
    creator: host.userId,
    z: host.topZ(),
    x: at.x,
    y: at.y - h / 2,
    latex: '',
    fontSize,
    color,
    alignment,
    w,
    h,
  };
}

const validSize = (v: unknown): number | null => (typeof v === 'number' && v > 0 && Number.isFinite(v) ? v : null);
const validColor = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffff ? v : null;
