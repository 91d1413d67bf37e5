/**
 * auth.user.terminated.v1: the account is gone. Its business is closed (auth refuses to terminate
 * an owner, so this only happens when a business opened in the moment between auth's check and the
 * termination), and a member's licence is freed. Runs inside the consumer's transaction.
 */
import type { PoolClient } from '@wb/platform';
import type { TeamsMetrics } from '../metrics';
import { findBusiness } from '../repositories/businesses';
import { deleteMember, findMembership } from '../repositories/members';
import { closeLockedBusiness } from './closing';
import { announceLicence } from './team';

export async function removeTerminatedUser(
  client: PoolClient,
  deps: { metrics: Pick<TeamsMetrics, 'licenceEvents'>; now(): Date },
  userId: number,
): Promise<'closed_business' | 'left_team' | 'nothing'> {
  const membership = await findMembership(client, userId);
  if (!membership) return 'nothing';
  const business = await findBusiness(client, membership.business_id, { forUpdate: true });
  if (!business) return 'nothing';
  if (membership.role === 'owner') {
    await closeLockedBusiness(client, deps, business, 'owner_terminated');
    return 'closed_business';
  }
  const row = await findMembership(client, userId, { forUpdate: true });
  if (!row) return 'nothing';
  await deleteMember(client, userId);
  if (row.active) await announceLicence(client, deps.metrics, { userId, businessId: business.id, plan: null });
  return 'left_team';
}
