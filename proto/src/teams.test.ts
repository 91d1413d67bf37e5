import { describe, expect, it } from '@jest/globals';
import {
  businessDetailsInputSchema,
  invitationIdParamSchema,
  invitationsInputSchema,
  memberIdParamSchema,
  seatsInputSchema,
  TEAM_INVITE_BATCH_MAX,
  teamsOperations,
} from './teams';

describe('teams contracts', () => {
  it('ids in paths are positive PostgreSQL integers', () => {
    expect(memberIdParamSchema.parse('42')).toBe(42);
    expect(invitationIdParamSchema.parse('7')).toBe(7);
    for (const v of ['0', '-1', '1.5', 'abc', '99999999999', '2147483648'])
      expect(memberIdParamSchema.safeParse(v).success).toBe(false);
  });
  it('invitations: 1 to TEAM_INVITE_BATCH_MAX addresses; their format is the service’s (per-address codes)', () => {
    expect(invitationsInputSchema.safeParse({ emails: ['not an address'] }).success).toBe(true);
    expect(invitationsInputSchema.safeParse({ emails: [] }).success).toBe(false);
    expect(invitationsInputSchema.safeParse({ emails: Array(TEAM_INVITE_BATCH_MAX + 1).fill('a@b.c') }).success).toBe(
      false,
    );
    expect(invitationsInputSchema.safeParse({ emails: ['a@b.c'], extra: 1 }).success).toBe(false);
  });
  it('business details: trimmed, country codes upper-cased and known, unknown fields refused', () => {
    expect(businessDetailsInputSchema.parse({ company: '  Acme ', country_code: 'ee' })).toEqual({
      company: 'Acme',
      country_code: 'EE',
    });
    expect(businessDetailsInputSchema.parse({ country_code: '' })).toEqual({ country_code: '' });
    expect(businessDetailsInputSchema.safeParse({ country_code: 'XX' }).success).toBe(false);
    expect(businessDetailsInputSchema.safeParse({ active: 1 }).success).toBe(false);
  });
  it('seats are whole numbers from 1', () => {
    expect(seatsInputSchema.safeParse({ seats: 1 }).success).toBe(true);
    for (const seats of [0, -1, 1.5, '3']) expect(seatsInputSchema.safeParse({ seats }).success).toBe(false);
  });
  it('every operation has an input and an output schema', () => {
    for (const op of Object.values(teamsOperations)) {
      expect(typeof op.input.safeParse).toBe('function');
      expect(typeof op.output.safeParse).toBe('function');
    }
  });
});
