/// <reference types="jest" />
/** Where each tool group's style is kept: the spec's settings fields, and this device for the rest. */
import { DEFAULT_SETTINGS } from '@wb/proto';
import { applyStylePatch } from '../canvas/toolStyles';
import { DEFAULT_STYLES, initialStyles, storeStyles, STYLES_KEY, styleSettingsPatch } from './styleSettings';

beforeEach(() => localStorage.clear());

describe('style settings', () => {
  it('the pen goes to toolStroke*, text to toolText*, formulas to toolFormula*; shapes to no setting', () => {
    let after = applyStylePatch(DEFAULT_STYLES, 'pen', { strokeWidth: 20, linePattern: 'highlighter' });
    after = applyStylePatch(after, 'shape', { strokeWidth: 5, fill: 'solid' });
    after = applyStylePatch(after, 'pen', { textSize: 24 });
    after = applyStylePatch(after, 'pen', { formulaSize: 30 });
    expect(styleSettingsPatch(DEFAULT_STYLES, after)).toEqual({
      toolStrokeWidth: 20,
      toolLinePattern: 'highlighter',
      toolTextSize: 24,
      toolFormulaSize: 30,
    });
    // a shapes-only change sends nothing to the account
    expect(styleSettingsPatch(DEFAULT_STYLES, applyStylePatch(DEFAULT_STYLES, 'shape', { strokeWidth: 9 }))).toBeNull();
  });

  it('after a reload: settings for the pen, text and formula, this device for the shapes', () => {
    const styles = applyStylePatch(DEFAULT_STYLES, 'shape', { strokeWidth: 6, strokeColor: 0x1e88e5, fill: 'semi' });
    storeStyles(applyStylePatch(styles, 'pen', { strokeWidth: 2 }));
    const settings = {
      ...DEFAULT_SETTINGS,
      toolStrokeWidth: 20,
      toolLinePattern: 'highlighter' as const,
      toolTextSize: 40,
      toolFormulaAlignment: 'left' as const,
    };
    const loaded = initialStyles(settings);
    expect(loaded.pen).toMatchObject({ strokeWidth: 20, linePattern: 'highlighter' });
    expect(loaded.shape).toMatchObject({ strokeWidth: 6, strokeColor: 0x1e88e5, fill: 'semi', linePattern: 'pen' });
    expect(loaded.text.textSize).toBe(40);
    expect(loaded.formula.formulaAlignment).toBe('left');
    // guests: everything from this device
    expect(initialStyles(null).pen.strokeWidth).toBe(2);
  });

  it('a broken or old copy on this device falls back to the defaults; the old shared style spares the shapes', () => {
    localStorage.setItem(STYLES_KEY, JSON.stringify({ shape: { strokeWidth: 'wide', fill: 'solid' }, pen: 7 }));
    expect(initialStyles(null).shape).toEqual({ ...DEFAULT_STYLES.shape, fill: 'solid' });
    expect(initialStyles(null).pen).toEqual(DEFAULT_STYLES.pen);
    localStorage.clear();
    localStorage.setItem(
      'wb.boardStyle',
      JSON.stringify({ strokeWidth: 20, linePattern: 'highlighter', fill: 'semi' }),
    );
    const migrated = initialStyles(null);
    expect(migrated.pen).toMatchObject({ strokeWidth: 20, linePattern: 'highlighter' });
    expect(migrated.shape).toMatchObject({ strokeWidth: 3, linePattern: 'pen', fill: 'semi' });
  });
});
