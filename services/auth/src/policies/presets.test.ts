import { describe, expect, it } from '@jest/globals';
import { AppError, PLANS } from '@wb/proto';
import { assertPresetsWithinPlan } from './presets';

const pen = { color: [0, 0, 0] as [number, number, number], width: 3, pattern: 'pen' as const };

describe('assertPresetsWithinPlan', () => {
  it('allows up to maxPresets on the plan', () => {
    expect(() => assertPresetsWithinPlan({ penPresets: [pen, pen, pen] }, PLANS.starter)).not.toThrow();
    expect(() => assertPresetsWithinPlan({ penPresets: Array(9).fill(pen) }, PLANS.standard)).not.toThrow();
  });
  it('answers ERR_FEATURE_NOT_ENABLED above the plan’s cap, naming the field', () => {
    try {
      assertPresetsWithinPlan({ stylePresets: Array(4).fill({ name: 'x' }) }, PLANS.starter);
      throw new Error('expected a refusal');
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('ERR_FEATURE_NOT_ENABLED');
      expect((err as AppError).fields).toHaveProperty('stylePresets');
    }
  });
});
