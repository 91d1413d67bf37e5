import { describe, expect, it } from '@jest/globals';
import { PLANS } from '@wb/proto';
import { nextResetAfter, readOnlyReasonOf, splitByWeek, weekStartOf } from './readOnly';

const starter = PLANS.starter.limits; // 5 boards, 300 minutes a week

describe('readOnlyReasonOf (spec §4 board read-only)', () => {
  it('within the plan and the minutes: editable', () => {
    expect(readOnlyReasonOf({ access: 'own', rank: 5, weekUsedMs: 299.9 * 60_000 }, starter)).toBeNull();
    expect(readOnlyReasonOf({ access: 'edit', rank: 1, weekUsedMs: 0 }, starter)).toBeNull();
  });
  it('boards past maxBoards (oldest first) are read-only for everyone, the owner included', () => {
    expect(readOnlyReasonOf({ access: 'own', rank: 6, weekUsedMs: 0 }, starter)).toBe('planLimits');
    expect(readOnlyReasonOf({ access: 'edit', rank: 6, weekUsedMs: 0 }, starter)).toBe('planLimits');
    expect(readOnlyReasonOf({ access: 'own', rank: 6, weekUsedMs: 0 }, PLANS.standard.limits)).toBeNull();
  });
  it('used-up minutes make the board read-only for everyone, its owner included (issue 16)', () => {
    const used = 300 * 60_000;
    expect(readOnlyReasonOf({ access: 'edit', rank: 1, weekUsedMs: used }, starter)).toBe('collaborationMinutes');
    expect(readOnlyReasonOf({ access: 'own', rank: 1, weekUsedMs: used }, starter)).toBe('collaborationMinutes');
    expect(readOnlyReasonOf({ access: 'own', rank: 1, weekUsedMs: used - 1 }, starter)).toBeNull();
    expect(readOnlyReasonOf({ access: 'edit', rank: 1, weekUsedMs: used }, PLANS.standard.limits)).toBeNull();
  });
  it('view and none are never narrowed further (no reason to show)', () => {
    expect(readOnlyReasonOf({ access: 'view', rank: 9, weekUsedMs: 9999 * 60_000 }, starter)).toBeNull();
    expect(readOnlyReasonOf({ access: 'none', rank: 9, weekUsedMs: 9999 * 60_000 }, starter)).toBeNull();
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

describe('splitByWeek and nextResetAfter (a span crossing Monday 00:00 UTC is cut there)', () => {
  it('keeps a span within one week whole', () => {
    const from = new Date('2026-11-18T10:00:00Z');
    const to = new Date('2026-11-18T11:00:00Z');
    expect(splitByWeek(from, to)).toEqual([{ weekStart: '2026-11-16', from, to }]);
  });
  it('cuts at the reset; a span ending exactly at the reset stays in its week', () => {
    const reset = new Date('2026-11-23T00:00:00Z');
    const from = new Date('2026-11-22T23:50:00Z');
    expect(splitByWeek(from, reset)).toEqual([{ weekStart: '2026-11-16', from, to: reset }]);
    const to = new Date('2026-11-23T00:20:00Z');
    expect(splitByWeek(from, to)).toEqual([
      { weekStart: '2026-11-16', from, to: reset },
      { weekStart: '2026-11-23', from: reset, to },
    ]);
    expect(nextResetAfter(from)).toEqual(reset);
    expect(nextResetAfter(reset)).toEqual(new Date('2026-11-30T00:00:00Z'));
  });
});
