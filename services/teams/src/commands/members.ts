/**
 * The owner's member actions (spec §4/§6): deactivate a licence (the member keeps the place and
 * their data, loses the plan's features), activate it again (needs a free licence:
 * ERR_NO_AVAILABLE_SEATS) and remove a member. And a member leaving (spec §5 confirmation phrase).
 * Every change of whether someone holds an active licence is announced in the same transaction.
 */
import { withTransaction } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import { AppError, LEAVE_BUSINESS_CONFIRMATION_PHRASE } from '@wb/proto';
import type { BusinessInfo, RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { assertConfirmed } from '../policies/confirmation';
import { assertCan, assertMemberTarget } from '../policies/teamAccess';
import { findBusiness } from '../repositories/businesses';
import { countActive, deleteMember, findMembership, setActive } from '../repositories/members';
import type { MemberRow } from '../repositories/members';
import type { TeamsDeps } from './deps';
import { announceLicence, loadTeam, lockOwnTeam } from './team';
import type { Team } from './team';
import { infoAfterChange } from './teamReader';

export type MemberAction = 'deactivate' | 'activate' | 'remove';

/** runs `act` with the owner's team locked and the target checked */
async function asOwner(
  deps: TeamsDeps,
  actor: RequestActor,
  targetId: number,
  act: (client: PoolClient, team: Team, target: MemberRow) => Promise<void>,
): Promise<BusinessInfo> {
  const userId = requireUserId(actor);
  await withTransaction(deps.pool, async (client) => {
    const business = await lockOwnTeam(client, userId);
    const target = await findMembership(client, targetId, { forUpdate: true });
    assertMemberTarget(target, business.id);
    await act(client, await loadTeam(client, business), target as MemberRow);
  });
  return infoAfterChange(deps, userId);
}

export function changeMember(
  deps: TeamsDeps,
  action: MemberAction,
  input: { userId: number },
  actor: RequestActor,
): Promise<BusinessInfo> {
  return asOwner(deps, actor, input.userId, async (client, team, target) => {
    const businessId = team.business.id;
    switch (action) {
      case 'deactivate':
        if (!target.active) return;
        await setActive(client, target.user_id, false, deps.now());
        await announceLicence(client, deps.metrics, { userId: target.user_id, businessId, plan: null });
        return;
      case 'activate':
        if (target.active) return;
        if ((await countActive(client, businessId)) >= team.licences) throw new AppError('ERR_NO_AVAILABLE_SEATS');
        await setActive(client, target.user_id, true, deps.now());
        await announceLicence(client, deps.metrics, { userId: target.user_id, businessId, plan: team.plan });
        return;
      case 'remove':
        await deleteMember(client, target.user_id);
        if (target.active)
          await announceLicence(client, deps.metrics, { userId: target.user_id, businessId, plan: null });
        return;
    }
  });
}

/** POST /api/business/leave: a member leaves; they keep their data and lose the team's plan */
export async function leaveTeam(
  deps: TeamsDeps,
  input: { confirmation: string },
  actor: RequestActor,
): Promise<{ ok: true }> {
  const userId = requireUserId(actor);
  assertConfirmed(input.confirmation, LEAVE_BUSINESS_CONFIRMATION_PHRASE);
  await withTransaction(deps.pool, async (client) => {
    const me = await findMembership(client, userId);
    assertCan(me, 'leave');
    await findBusiness(client, me!.business_id, { forUpdate: true });
    const row = await findMembership(client, userId, { forUpdate: true });
    if (!row) throw new AppError('ERR_NOT_IN_BUSINESS');
    await deleteMember(client, userId);
    if (row.active) await announceLicence(client, deps.metrics, { userId, businessId: row.business_id, plan: null });
  });
  deps.log.info({ userId }, 'left a team');
  return { ok: true };
}
