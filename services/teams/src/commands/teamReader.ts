/**
 * GET /api/business/info and the answer of every call that changes a team: the caller's team as
 * they may see it (spec §3 "Business info"), or null when they are in no team. Names come from
 * auth and degrade to empty when it does not answer.
 */
import { AppError } from '@wb/proto';
import type { BusinessInfo, RequestActor } from '@wb/proto';
import { isGuest } from '../policies/actor';
import { presentInfo } from '../presenters/business';
import { findBusiness } from '../repositories/businesses';
import type { Db } from '../repositories/db';
import { findDetails } from '../repositories/details';
import { listPending } from '../repositories/invitations';
import { findMembership, listMembers } from '../repositories/members';
import type { TeamsDeps } from './deps';
import { loadTeam } from './team';

export async function readInfo(
  deps: Pick<TeamsDeps, 'pool' | 'directory'>,
  userId: number,
  db: Db = deps.pool,
): Promise<BusinessInfo | null> {
  const me = await findMembership(db, userId);
  if (!me) return null;
  const business = await findBusiness(db, me.business_id);
  if (!business || business.closed_at) return null;
  const team = await loadTeam(db, business);
  const details = await findDetails(db, business.owner_id);
  if (me.role !== 'owner') {
    const names = await deps.directory.namesOf([business.owner_id]);
    return presentInfo({ team, me, company: details?.company ?? '', names });
  }
  const members = await listMembers(db, business.id);
  const invitations = await listPending(db, business.id);
  const [names, ownerEmail] = await Promise.all([
    deps.directory.namesOf(members.map((m) => m.user_id)),
    accountEmail(deps, business.owner_id),
  ]);
  return presentInfo({ team, me, company: details?.company ?? '', names, ownerEmail, members, invitations });
}

/**
 * The owner's row has no invited address (they opened the business by subscribing): their
 * account's address is shown, as auth knows it now. Decoration: null when auth does not answer.
 */
async function accountEmail(deps: Pick<TeamsDeps, 'directory'>, userId: number): Promise<string | null> {
  try {
    return (await deps.directory.userOf(userId))?.email ?? null;
  } catch {
    return null;
  }
}

export async function getInfo(deps: TeamsDeps, actor: RequestActor): Promise<BusinessInfo | null> {
  if (isGuest(actor)) return null;
  return readInfo(deps, actor.userId);
}

/** the info after a change by someone who is certainly in the team */
export async function infoAfterChange(deps: TeamsDeps, userId: number): Promise<BusinessInfo> {
  const info = await readInfo(deps, userId);
  // the team changed under the caller after their call committed (closed by its owner, say)
  if (!info) throw new AppError('ERR_NOT_IN_BUSINESS');
  return info;
}
