import { describe, expect, it } from '@jest/globals';
import { DEFAULT_SETTINGS } from '@wb/proto';
import { presentSettings } from './settings';

describe('presentSettings', () => {
  it('gives the defaults for nothing stored', () => {
    expect(presentSettings({})).toEqual(DEFAULT_SETTINGS);
    expect('role' in presentSettings(null)).toBe(false);
  });
  it('merges stored values over the defaults', () => {
    const s = presentSettings({ locale: 'de', role: 'teacher', boardMinimap: 1 });
    expect(s).toEqual({ ...DEFAULT_SETTINGS, locale: 'de', role: 'teacher', boardMinimap: 1 });
  });
  it('drops stored values that no longer validate, and unknown keys', () => {
    const s = presentSettings({ locale: 'xx', toolTextSize: 1000, legacyFlag: true, boardSnapping: 1 });
    expect(s.locale).toBeNull();
    expect(s.toolTextSize).toBe(16);
    expect(s.boardSnapping).toBe(1);
    expect('legacyFlag' in s).toBe(false);
  });
});
