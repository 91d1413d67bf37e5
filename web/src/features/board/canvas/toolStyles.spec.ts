/**
 * @jest-environment node
 */
/// <reference types="jest" />
/** Each tool group keeps its own style (issue 26 #5). */
import { DEFAULT_STYLES } from '../ui/styleSettings';
import { applyStylePatch, strokeGroupOfKinds, strokeGroupOfTool, styleFor } from './toolStyles';

describe('tool style groups', () => {
  it('a highlighter at width 20 leaves the next rectangle, line and connector as they were', () => {
    const styles = applyStylePatch(DEFAULT_STYLES, strokeGroupOfTool('pen'), {
      linePattern: 'highlighter',
      strokeWidth: 20,
      strokeColor: 0xfdd835,
    });
    expect(styleFor(styles, strokeGroupOfTool('pen'))).toMatchObject({
      linePattern: 'highlighter',
      strokeWidth: 20,
      strokeColor: 0xfdd835,
    });
    for (const tool of ['rectangle', 'ellipse', 'line', 'polyline', 'curve', 'connector', 'arrow'] as const) {
      expect([tool, styleFor(styles, strokeGroupOfTool(tool))]).toEqual([
        tool,
        expect.objectContaining({ linePattern: 'pen', strokeWidth: 3, strokeColor: 0 }),
      ]);
    }
  });

  it('a shape style change does not reach the pen; fill and route stay with the shapes', () => {
    const styles = applyStylePatch(DEFAULT_STYLES, strokeGroupOfTool('rectangle'), {
      strokeWidth: 8,
      strokeColor: 0x1e88e5,
      fill: 'solid',
      fillColor: 0xe53935,
      elbow: true,
    });
    expect(styles.pen).toEqual(DEFAULT_STYLES.pen);
    expect(styles.shape).toMatchObject({ strokeWidth: 8, strokeColor: 0x1e88e5, fill: 'solid', elbow: true });
    // the pen still draws with its own stroke, and the fill is not a pen field
    expect(styleFor(styles, 'pen')).toMatchObject({ strokeWidth: 3, strokeColor: 0 });
  });

  it('text, note and formula fields keep to their own group whatever the tool', () => {
    let styles = applyStylePatch(DEFAULT_STYLES, strokeGroupOfTool('text'), { textSize: 40, textColor: 0xe53935 });
    styles = applyStylePatch(styles, strokeGroupOfTool('formula'), { formulaSize: 32, formulaAlignment: 'left' });
    expect(styles.text).toEqual({ ...DEFAULT_STYLES.text, textSize: 40, textColor: 0xe53935 });
    expect(styles.formula).toEqual({ ...DEFAULT_STYLES.formula, formulaSize: 32, formulaAlignment: 'left' });
    expect(styles.pen).toEqual(DEFAULT_STYLES.pen);
    expect(styles.shape).toEqual(DEFAULT_STYLES.shape);
  });

  it('a selection is restyled in its own group: pen strokes alone are the pen, any shape the shapes', () => {
    expect(strokeGroupOfKinds(['pen'])).toBe('pen');
    expect(strokeGroupOfKinds(['pen', 'text'])).toBe('pen');
    expect(strokeGroupOfKinds(['shape'])).toBe('shape');
    expect(strokeGroupOfKinds(['pen', 'connector'])).toBe('shape');
  });

  it('no change keeps the same object (nothing to save, no re-render)', () => {
    expect(applyStylePatch(DEFAULT_STYLES, 'pen', { strokeWidth: 3 })).toBe(DEFAULT_STYLES);
  });
});
