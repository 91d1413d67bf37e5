import { describe, expect, it } from '@jest/globals';
import { AppError } from '@wb/proto';
import { assertMemberTarget, refusalOf } from './teamAccess';

const owner = { business_id: 1, role: 'owner' as const };
const member = { business_id: 1, role: 'member' as const };

describe('who may do what with a team (spec §6)', () => {
  it('manage: the owner; a member is forbidden; someone in no team has no business', () => {
    expect(refusalOf(owner, 'manage')).toBeNull();
    expect(refusalOf(member, 'manage')).toBe('ERR_FORBIDDEN');
    expect(refusalOf(null, 'manage')).toBe('ERR_BUSINESS_NOT_FOUND');
  });
  it('leave: a member; the owner closes instead; in no team → ERR_NOT_IN_BUSINESS', () => {
    expect(refusalOf(member, 'leave')).toBeNull();
    expect(refusalOf(owner, 'leave')).toBe('ERR_FORBIDDEN');
    expect(refusalOf(null, 'leave')).toBe('ERR_NOT_IN_BUSINESS');
  });
  it('join: one team per person', () => {
    expect(refusalOf(null, 'join')).toBeNull();
    expect(refusalOf(member, 'join')).toBe('ERR_USER_IN_BUSINESS');
    expect(refusalOf(owner, 'join')).toBe('ERR_USER_IN_BUSINESS');
  });
  it('business details: anyone but a member of someone else’s team', () => {
    expect(refusalOf(null, 'editDetails')).toBeNull();
    expect(refusalOf(owner, 'editDetails')).toBeNull();
    expect(refusalOf(member, 'editDetails')).toBe('ERR_FORBIDDEN');
  });
  it('a member action targets a member of the same team, never its owner', () => {
    expect(() => assertMemberTarget(member, 1)).not.toThrow();
    const codeOf = (f: () => void): string | undefined => {
      try {
        f();
      } catch (err) {
        return (err as AppError).code;
      }
      return undefined;
    };
    expect(codeOf(() => assertMemberTarget(null, 1))).toBe('ERR_NOT_IN_BUSINESS');
    expect(codeOf(() => assertMemberTarget(member, 2))).toBe('ERR_NOT_IN_BUSINESS');
    expect(codeOf(() => assertMemberTarget(owner, 1))).toBe('ERR_FORBIDDEN');
  });
});
