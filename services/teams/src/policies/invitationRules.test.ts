import { describe, expect, it } from '@jest/globals';
import { invitationRefusal, normalizeEmail } from './invitationRules';
import type { InvitationFacts } from './invitationRules';

const facts = (over: Partial<InvitationFacts> = {}): InvitationFacts => ({
  email: 'carl@example.com',
  isThrowaway: false,
  ownerEmail: 'olga@example.com',
  ownerId: 1,
  accountId: null,
  accountBusinessId: null,
  businessId: 10,
  memberHasEmail: false,
  alreadyInvited: false,
  pendingCount: 0,
  pendingMax: 200,
  ...over,
});

describe('whether an address may be invited', () => {
  it('a new address is invited', () => {
    expect(invitationRefusal(facts())).toBeNull();
  });
  it('each refusal has its own code', () => {
    expect(invitationRefusal(facts({ email: 'not an address' }))).toBe('ERR_EMAIL_INVALID');
    expect(invitationRefusal(facts({ email: 'olga@example.com' }))).toBe('ERR_CANT_INVITE_YOURSELF');
    expect(invitationRefusal(facts({ accountId: 1 }))).toBe('ERR_CANT_INVITE_YOURSELF');
    expect(invitationRefusal(facts({ isThrowaway: true }))).toBe('ERR_THROWAWAY_NOT_ALLOWED');
    expect(invitationRefusal(facts({ accountId: 5, accountBusinessId: 10 }))).toBe('ERR_USER_IN_YOUR_BUSINESS');
    expect(invitationRefusal(facts({ memberHasEmail: true }))).toBe('ERR_USER_IN_YOUR_BUSINESS');
    expect(invitationRefusal(facts({ accountId: 5, accountBusinessId: 11 }))).toBe('ERR_USER_IN_BUSINESS');
    expect(invitationRefusal(facts({ alreadyInvited: true }))).toBe('ERR_USER_ALREADY_INVITED');
    expect(invitationRefusal(facts({ pendingCount: 200 }))).toBe('ERR_TOO_MANY_REQUESTS');
  });
  it('addresses are compared trimmed and lower-case', () => {
    expect(normalizeEmail('  Carl@Example.COM ')).toBe('carl@example.com');
  });
});
