/**
 * Who may join a board's call and as what (issue 16, spec §6 paid feature `call`):
 * - anyone with access to the board (view, edit or own; guests too, as far as the board lets
 *   them in — the boards service's access check decides that, including the owner's `guests` feature);
 * - only when the board OWNER's plan has `call` (the owner pays for the room, as for uploads to
 *   their boards): otherwise ERR_FEATURE_NOT_ENABLED, the code the web turns into the upgrade prompt;
 * - the owner is the host (may mute everyone and share the screen); everyone else is a member.
 */
import { AppError, CALL_FEATURE } from '@wb/proto';
import type { BoardAccess, CallRole, PlanFeatures } from '@wb/proto';

export type JoinRefusal = 'no_access' | 'plan';

export interface JoinFacts {
  access: BoardAccess;
  ownerFeatures: PlanFeatures;
}

export function joinDecision(facts: JoinFacts): { ok: true; role: CallRole } | { ok: false; reason: JoinRefusal } {
  if (facts.access === 'none') return { ok: false, reason: 'no_access' };
  if (!facts.ownerFeatures[CALL_FEATURE]) return { ok: false, reason: 'plan' };
  return { ok: true, role: facts.access === 'own' ? 'host' : 'member' };
}

export function refusalError(reason: JoinRefusal, access: BoardAccess): AppError {
  if (reason === 'plan') {
    return new AppError(
      'ERR_FEATURE_NOT_ENABLED',
      access === 'own'
        ? 'Calls are not available on your plan: upgrade to start a call on this board'
        : "Calls are not available on this board: its owner's plan does not include calls",
    );
  }
  return new AppError('ERR_FORBIDDEN', 'You do not have access to this board');
}

/** mute-all: the host only */
export function assertHost(access: BoardAccess): void {
  if (access !== 'own') throw new AppError('ERR_FORBIDDEN', 'Only the board owner can mute everyone');
}
