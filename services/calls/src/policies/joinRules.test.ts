import { describe, expect, it } from '@jest/globals';
import { PLANS } from '@wb/proto';
import { assertHost, joinDecision, refusalError } from './joinRules';

describe('joinDecision', () => {
  const paid = PLANS.standard.features;
  const starter = PLANS.starter.features;
  it('lets anyone with access in when the owner has `call`; the owner hosts', () => {
    expect(joinDecision({ access: 'own', ownerFeatures: paid })).toEqual({ ok: true, role: 'host' });
    expect(joinDecision({ access: 'edit', ownerFeatures: paid })).toEqual({ ok: true, role: 'member' });
    expect(joinDecision({ access: 'view', ownerFeatures: paid })).toEqual({ ok: true, role: 'member' });
  });
  it('refuses without access, and on an owner plan without `call`', () => {
    expect(joinDecision({ access: 'none', ownerFeatures: paid })).toEqual({ ok: false, reason: 'no_access' });
    expect(joinDecision({ access: 'own', ownerFeatures: starter })).toEqual({ ok: false, reason: 'plan' });
    expect(joinDecision({ access: 'view', ownerFeatures: starter })).toEqual({ ok: false, reason: 'plan' });
  });
  it('maps refusals to the spec codes', () => {
    expect(refusalError('plan', 'own').code).toBe('ERR_FEATURE_NOT_ENABLED');
    expect(refusalError('no_access', 'none').code).toBe('ERR_FORBIDDEN');
    expect(() => assertHost('edit')).toThrow('Only the board owner');
    expect(() => assertHost('own')).not.toThrow();
  });
});
