/**
 * Spec §4 "Board read-only": when the owner's plan limits or weekly collaboration minutes are
 * used up. The minutes reset weekly (Monday 00:00 UTC).
 *
 *  - plan limits: an owner with more boards than `maxBoards` (after a downgrade; creating and
 *    restoring past the limit is refused) keeps the oldest `maxBoards` editable, the rest turn
 *    read-only for everyone until boards are trashed or the plan grows;
 *  - minutes: collaboration is what the minutes pay for, so when they are used up the board
 *    turns read-only for everyone but its owner, who can still prepare it alone.
 * Only access that could change anything is narrowed: view stays view, none stays none.
 */
import type { BoardAccess, Plan, ReadOnlyReason } from '@wb/proto';

export interface ReadOnlyFacts {
  access: BoardAccess;
  /** the board's place among its owner's boards outside the trash, oldest first (1-based) */
  rank: number;
  /** the owner's collaboration minutes this week */
  weekMinutes: number;
}

export function readOnlyReasonOf(facts: ReadOnlyFacts, ownerLimits: Plan['limits']): ReadOnlyReason | null {
  if (!mayBeReadOnly(facts.access)) return null;
  if (facts.rank > ownerLimits.maxBoards) return 'planLimits';
  if (facts.access === 'edit' && facts.weekMinutes >= ownerLimits.maxCollaborationMinutesPerWeek) {
    return 'collaborationMinutes';
  }
  return null;
}

/** only these accesses can be narrowed, so only they need the facts */
export function mayBeReadOnly(access: BoardAccess): boolean {
  return access === 'own' || access === 'edit';
}

/** Monday 00:00 UTC of the week `at` falls in, as YYYY-MM-DD (the minutes' reset) */
export function weekStartOf(at: Date): string {
  const day = (at.getUTCDay() + 6) % 7; // Monday = 0
  const monday = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - day));
  return monday.toISOString().slice(0, 10);
}
