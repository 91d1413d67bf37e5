import { describe, expect, it } from '@jest/globals';
import { licencePlan, licencesOf, teamPlanOf } from './licences';

describe('what a business’s licences give', () => {
  it('the owner’s subscription plan while it has the team feature', () => {
    expect(teamPlanOf({ plan: 'standard' })).toBe('standard');
    expect(teamPlanOf({ plan: 'ultimate' })).toBe('ultimate');
    expect(teamPlanOf({ plan: 'starter' })).toBeNull();
    expect(teamPlanOf({ plan: null })).toBeNull();
    expect(teamPlanOf(null)).toBeNull();
  });
  it('licences: the seats, at least the owner’s one; a trial gives one', () => {
    expect(licencesOf({ subscription_id: 'sub-1', plan: 'standard', seats: 3 })).toBe(3);
    expect(licencesOf({ subscription_id: 'sub-1', plan: 'standard', seats: 0 })).toBe(1);
    expect(licencesOf({ subscription_id: 'trial-1', plan: 'standard', seats: 5 })).toBe(1);
    expect(licencesOf(null)).toBe(0);
  });
  it('a deactivated licence gives nothing', () => {
    expect(licencePlan(true, 'premium')).toBe('premium');
    expect(licencePlan(false, 'premium')).toBeNull();
    expect(licencePlan(true, null)).toBeNull();
  });
});
