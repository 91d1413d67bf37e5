import { AppError, PLANS } from '@wb/proto';
import { assertCan, assertCoursesFeature, roleIn } from './courseAccess';

const codeOf = (f: () => void): string | null => {
  try {
    f();
    return null;
  } catch (err) {
    return err instanceof AppError ? err.code : 'other';
  }
};

describe('course access', () => {
  it('gives the owner everything and participants reading, progress and leaving', () => {
    expect(roleIn({ owner_id: 1 }, 1, false)).toBe('owner');
    expect(roleIn({ owner_id: 1 }, 2, true)).toBe('participant');
    expect(codeOf(() => assertCan('owner', 'edit'))).toBeNull();
    expect(codeOf(() => assertCan('owner', 'leave'))).toBe('ERR_FORBIDDEN');
    expect(codeOf(() => assertCan('participant', 'read'))).toBeNull();
    expect(codeOf(() => assertCan('participant', 'progress'))).toBeNull();
    expect(codeOf(() => assertCan('participant', 'edit'))).toBe('ERR_FORBIDDEN');
    expect(codeOf(() => assertCan('participant', 'manage_participants'))).toBe('ERR_FORBIDDEN');
  });

  it('hides a course from everyone else (404, not 403)', () => {
    expect(roleIn({ owner_id: 1 }, 3, false)).toBe('none');
    for (const a of ['read', 'edit', 'leave'] as const)
      expect(codeOf(() => assertCan('none', a))).toBe('ERR_NOT_FOUND');
  });

  it('needs the courses feature to change a course', () => {
    expect(codeOf(() => assertCoursesFeature(PLANS.starter))).toBe('ERR_FEATURE_NOT_ENABLED');
    expect(codeOf(() => assertCoursesFeature(PLANS.standard))).toBeNull();
  });
});
