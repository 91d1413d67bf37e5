import { describe, expect, it } from '@jest/globals';
import { PLANS } from '@wb/proto';
import { readOnlyReasonOf, weekStartOf } from './readOnly';

const starter = PLANS.starter.limits; // 5 boards, 300 minutes a week

describe('readOnlyReasonOf (spec §4 board read-only)', () => {
  it('within the plan and the minutes: editable', () => {
    expect(readOnlyReasonOf({ access: 'own', rank: 5, weekMinutes: 299.9 }, starter)).toBeNull();
    expect(readOnlyReasonOf({ access: 'edit', rank: 1, weekMinutes: 0 }, starter)).toBeNull();
  });
  it('boards past maxBoards (oldest first) are read-only for everyone, the owner included', () => {
    expect(readOnlyReasonOf({ access: 'own', rank: 6, weekMinutes: 0 }, starter)).toBe('planLimits');
    expect(readOnlyReasonOf({ access: 'edit', rank: 6, weekMinutes: 0 }, starter)).toBe('planLimits');
    expect(readOnlyReasonOf({ access: 'own', rank: 6, weekMinutes: 0 }, PLANS.standard.limits)).toBeNull();
  });
  it('used-up minutes make the board read-only for collaborators, not for its owner', () => {
    expect(readOnlyReasonOf({ access: 'edit', rank: 1, weekMinutes: 300 }, starter)).toBe('collaborationMinutes');
    expect(readOnlyReasonOf({ access: 'own', rank: 1, weekMinutes: 5000 }, starter)).toBeNull();
    expect(readOnlyReasonOf({ access: 'edit', rank: 1, weekMinutes: 300 }, PLANS.standard.limits)).toBeNull();
  });
  it('view and none are never narrowed further (no reason to show)', () => {
    expect(readOnlyReasonOf({ access: 'view', rank: 9, weekMinutes: 9999 }, starter)).toBeNull();
    expect(readOnlyReasonOf({ access: 'none', rank: 9, weekMinutes: 9999 }, starter)).toBeNull();
  });
});

describe('weekStartOf (minutes reset every Monday 00:00 UTC)', () => {
  it('maps every day of a week to its Monday', () => {
    expect(weekStartOf(new Date('2026-11-16T00:00:00Z'))).toBe('2026-11-16'); // Monday
    expect(weekStartOf(new Date('2026-11-21T15:00:00Z'))).toBe('2026-11-16'); // Saturday
    expect(weekStartOf(new Date('2026-11-22T23:59:59Z'))).toBe('2026-11-16'); // Sunday
    expect(weekStartOf(new Date('2026-11-23T00:00:00Z'))).toBe('2026-11-23');
    expect(weekStartOf(new Date('2027-01-01T12:00:00Z'))).toBe('2026-12-28'); // across a year
  });
});
