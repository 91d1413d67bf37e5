import { describe, expect, it } from '@jest/globals';
import { AppError, PLANS } from '@wb/proto';
import { assertFeature, assertWithinBoardLimit } from './planRules';
import { trashExpiryCutoff } from './trash';

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as AppError).code;
  }
}

describe('assertWithinBoardLimit (spec §5)', () => {
  it('starter: 5 boards; the limit is reached at 5 non-trashed owned boards', () => {
    expect(codeOf(() => assertWithinBoardLimit(PLANS.starter, 4, 1))).toBeUndefined();
    expect(codeOf(() => assertWithinBoardLimit(PLANS.starter, 5, 1))).toBe('ERR_MAX_BOARDS_REACHED');
    expect(codeOf(() => assertWithinBoardLimit(PLANS.starter, 7, 1))).toBe('ERR_MAX_BOARDS_REACHED');
  });
  it('restoring several must fit as a whole; restoring nothing always passes', () => {
    expect(codeOf(() => assertWithinBoardLimit(PLANS.starter, 3, 2))).toBeUndefined();
    expect(codeOf(() => assertWithinBoardLimit(PLANS.starter, 3, 3))).toBe('ERR_MAX_BOARDS_REACHED');
    expect(codeOf(() => assertWithinBoardLimit(PLANS.starter, 9, 0))).toBeUndefined();
    expect(codeOf(() => assertWithinBoardLimit(PLANS.standard, 49, 1))).toBeUndefined();
  });
});

describe('assertFeature (spec §6)', () => {
  it('folders and collaboration controls need a paid plan', () => {
    expect(codeOf(() => assertFeature(PLANS.starter, 'folders'))).toBe('ERR_FEATURE_NOT_ENABLED');
    expect(codeOf(() => assertFeature(PLANS.starter, 'collaborationControls'))).toBe('ERR_FEATURE_NOT_ENABLED');
    for (const plan of [PLANS.standard, PLANS.premium, PLANS.ultimate]) {
      expect(codeOf(() => assertFeature(plan, 'folders'))).toBeUndefined();
      expect(codeOf(() => assertFeature(plan, 'collaborationControls'))).toBeUndefined();
    }
  });
  it('names the field when given', () => {
    expect(() => assertFeature(PLANS.starter, 'folders', 'folder')).toThrow(AppError);
    const err = (() => {
      try {
        assertFeature(PLANS.starter, 'folders', 'folder');
        return undefined;
      } catch (e) {
        return e as AppError;
      }
    })();
    expect(err?.fields).toHaveProperty('folder');
  });
});

describe('trashExpiryCutoff (spec §9: deleted after 1 month = 30 days)', () => {
  it('is 30 days before now', () => {
    const now = new Date('2026-03-31T12:00:00Z');
    expect(trashExpiryCutoff(now).toISOString()).toBe('2026-03-01T12:00:00.000Z');
  });
});
