/**
 * Closing a business (spec §6, close-business): every member's licence ends (announced for those
 * who held an active one), pending invitations are cancelled, the row is kept with closed_at. The
 * owner may terminate their account afterwards. A closed business opens again only for another
 * subscription (commands/subscriptionSync). Also run when the owner's account is terminated.
 * teams.business.closed.v1 (same transaction) tells billing to cancel the subscription that paid
 * for the licences: they can never give anything again, so it must not renew.
 */
import { appendEvent, withTransaction } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import { CLOSE_BUSINESS_CONFIRMATION_PHRASE } from '@wb/proto';
import type { RequestActor } from '@wb/proto';
import type { TeamsMetrics } from '../metrics';
import { requireUserId } from '../policies/actor';
import { assertConfirmed } from '../policies/confirmation';
import { closeBusinessRow } from '../repositories/businesses';
import type { BusinessRow } from '../repositories/businesses';
import { cancelPending } from '../repositories/invitations';
import { deleteMembers } from '../repositories/members';
import type { TeamsDeps } from './deps';
import { SCHEMA } from './deps';
import { announceLicence, lockOwnTeam } from './team';

/** inside the caller's transaction, with the business row locked */
export async function closeLockedBusiness(
  client: PoolClient,
  deps: { metrics: Pick<TeamsMetrics, 'licenceEvents'>; now(): Date },
  business: BusinessRow,
  reason: 'owner' | 'owner_terminated',
): Promise<{ members: number }> {
  const gone = await deleteMembers(client, business.id);
  for (const m of gone) {
    if (m.active)
      await announceLicence(client, deps.metrics, { userId: m.user_id, businessId: business.id, plan: null });
  }
  await cancelPending(client, business.id, deps.now());
  await closeBusinessRow(client, business.id, reason, deps.now());
  await appendEvent(client, SCHEMA, 'teams.business.closed.v1', {
    businessId: business.id,
    ownerId: business.owner_id,
    subscriptionId: business.subscription_id,
    reason,
  });
  return { members: gone.length };
}

export async function closeBusiness(
  deps: TeamsDeps,
  input: { confirmation: string },
  actor: RequestActor,
): Promise<{ ok: true }> {
  const userId = requireUserId(actor);
  assertConfirmed(input.confirmation, CLOSE_BUSINESS_CONFIRMATION_PHRASE);
  const { businessId, members } = await withTransaction(deps.pool, async (client) => {
    const business = await lockOwnTeam(client, userId);
    return { businessId: business.id, ...(await closeLockedBusiness(client, deps, business, 'owner')) };
  });
  deps.log.info({ userId, businessId, members }, 'business closed');
  return { ok: true };
}
