/**
 * Spec §4 "Board read-only": when the owner's plan limits or weekly collaboration minutes are
 * used up. The minutes reset weekly, on Monday 00:00 UTC (one moment for everyone, whatever
 * their time zone).
 *
 *  - plan limits: an owner with more boards than `maxBoards` (after a downgrade; creating and
 *    restoring past the limit is refused) keeps the oldest `maxBoards` editable, the rest turn
 *    read-only for everyone until boards are trashed or the plan grows;
 *  - minutes: time during which two or more people (distinct users; each guest connection is a
 *    person) are on one of the owner's boards counts; when the week's minutes are used up every
 *    board of the owner turns read-only for everyone, the owner included (issue 16), until the
 *    reset or an upgrade. Nothing is counted while it is read-only.
 * Only access that could change anything is narrowed: view stays view, none stays none.
 */
import type { BoardAccess, Plan, ReadOnlyReason } from '@wb/proto';

export interface ReadOnlyFacts {
  access: BoardAccess;
  /** the board's place among its owner's boards outside the trash, oldest first (1-based) */
  rank: number;
  /** the owner's collaboration time this week (ms) */
  weekUsedMs: number;
}

export function readOnlyReasonOf(facts: ReadOnlyFacts, ownerLimits: Plan['limits']): ReadOnlyReason | null {
  if (!mayBeReadOnly(facts.access)) return null;
  if (facts.rank > ownerLimits.maxBoards) return 'planLimits';
  if (minutesUsedUp(facts.weekUsedMs, ownerLimits)) return 'collaborationMinutes';
  return null;
}

/** only these accesses can be narrowed, so only they need the facts */
export function mayBeReadOnly(access: BoardAccess): boolean {
  return access === 'own' || access === 'edit';
}

export function limitMsOf(limits: Plan['limits']): number {
  return Math.max(0, limits.maxCollaborationMinutesPerWeek) * 60_000;
}
export function minutesUsedUp(usedMs: number, limits: Plan['limits']): boolean {
  return usedMs >= limitMsOf(limits);
}

const WEEK_MS = 7 * 24 * 3600_000;

/** Monday 00:00 UTC of the week `at` falls in */
export function weekStartDateOf(at: Date): Date {
  const day = (at.getUTCDay() + 6) % 7; // Monday = 0
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - day));
}
/** Monday 00:00 UTC of the week `at` falls in, as YYYY-MM-DD (the minutes' reset) */
export function weekStartOf(at: Date): string {
  return weekStartDateOf(at).toISOString().slice(0, 10);
}
/** the next reset after `at` (the following Monday 00:00 UTC) */
export function nextResetAfter(at: Date): Date {
  return new Date(weekStartDateOf(at).getTime() + WEEK_MS);
}

/** A span [from, to] cut at every Monday 00:00 UTC it crosses: one piece per week. */
export function splitByWeek(from: Date, to: Date): { weekStart: string; from: Date; to: Date }[] {
  const pieces: { weekStart: string; from: Date; to: Date }[] = [];
  let start = from;
  for (;;) {
    const reset = nextResetAfter(start);
    if (to.getTime() <= reset.getTime()) {
      pieces.push({ weekStart: weekStartOf(start), from: start, to });
      return pieces;
    }
    pieces.push({ weekStart: weekStartOf(start), from: start, to: reset });
    start = reset;
  }
}
