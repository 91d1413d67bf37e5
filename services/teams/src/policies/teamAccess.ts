/**
 * Who may do what with a team (spec §6), in one place. `membership` is the caller's row in the
 * members table (their one team, or null).
 *
 * - manage (invite, cancel invitations, (de)activate and remove members, change seats, close):
 *   the owner only; a member of the team → ERR_FORBIDDEN; someone in no team → ERR_BUSINESS_NOT_FOUND
 * - leave: a member; the owner closes the business instead (ERR_FORBIDDEN); in no team → ERR_NOT_IN_BUSINESS
 * - join: only someone in no team (one team per person) → else ERR_USER_IN_BUSINESS
 * - editDetails (the business details, the paying organisation's): anyone but a member of someone
 *   else's team, whose licence the owner pays (ERR_FORBIDDEN)
 * - a member action's target must be in the caller's team (ERR_NOT_IN_BUSINESS) and not its
 *   owner, who can be neither deactivated nor removed (ERR_FORBIDDEN)
 */
import { AppError } from '@wb/proto';
import type { ErrorCode, TeamRole } from '@wb/proto';

export type TeamAction = 'manage' | 'leave' | 'join' | 'editDetails';

export interface Membership {
  business_id: number;
  role: TeamRole;
}

/** null when allowed, else the refusal's code */
export function refusalOf(membership: Membership | null, action: TeamAction): ErrorCode | null {
  switch (action) {
    case 'manage':
      if (!membership) return 'ERR_BUSINESS_NOT_FOUND';
      return membership.role === 'owner' ? null : 'ERR_FORBIDDEN';
    case 'leave':
      if (!membership) return 'ERR_NOT_IN_BUSINESS';
      return membership.role === 'member' ? null : 'ERR_FORBIDDEN';
    case 'join':
      return membership ? 'ERR_USER_IN_BUSINESS' : null;
    case 'editDetails':
      return membership?.role === 'member' ? 'ERR_FORBIDDEN' : null;
  }
}

const MESSAGES: Partial<Record<TeamAction, string>> = {
  manage: 'Only the owner of the business account can do this',
  leave: 'The owner cannot leave the business account: close it instead',
  editDetails: 'The business details are the account owner’s',
};

export function assertCan(membership: Membership | null, action: TeamAction): void {
  const code = refusalOf(membership, action);
  if (code) throw new AppError(code, code === 'ERR_FORBIDDEN' ? MESSAGES[action] : undefined);
}

/** the target of a member action, within the owner's business */
export function assertMemberTarget(target: Membership | null, businessId: number): asserts target is Membership {
  if (!target || target.business_id !== businessId)
    throw new AppError('ERR_NOT_IN_BUSINESS', 'This user is not in your business account');
  if (target.role === 'owner')
    throw new AppError('ERR_FORBIDDEN', 'The owner’s licence cannot be deactivated or removed');
}
