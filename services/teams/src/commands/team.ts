/**
 * A business with what its owner's subscription gives (plan, licences), and the one way licence
 * changes are announced: teams.licence.changed.v1 through the outbox, in the caller's transaction.
 */
import { appendEvent } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { PlanName } from '@wb/proto';
import { assertCan } from '../policies/teamAccess';
import { findBusiness } from '../repositories/businesses';
import { findMembership } from '../repositories/members';
import { licencesOf, teamPlanOf } from '../policies/licences';
import type { TeamsMetrics } from '../metrics';
import type { BusinessRow } from '../repositories/businesses';
import type { Db } from '../repositories/db';
import { findSubscription } from '../repositories/subscriptions';
import { SCHEMA } from './deps';

export interface Team {
  business: BusinessRow;
  /** what the licences give; null while they give nothing */
  plan: PlanName | null;
  /** licences paid for */
  licences: number;
}

export async function loadTeam(db: Db, business: BusinessRow): Promise<Team> {
  const sub = await findSubscription(db, business.owner_id);
  return { business, plan: teamPlanOf(sub), licences: licencesOf(sub) };
}

/**
 * The caller's business, which they must own (policies/teamAccess 'manage'), locked for the
 * transaction. The business row is each team's lock: every transaction that changes a team
 * (licence counts, joins, billing's resizes, closing) takes it first, then member and invitation
 * rows, so they queue instead of deadlocking.
 */
export async function lockOwnTeam(client: PoolClient, userId: number): Promise<BusinessRow> {
  const me = await findMembership(client, userId);
  assertCan(me, 'manage');
  const business = await findBusiness(client, me!.business_id, { forUpdate: true });
  // closed between the two reads: its members are gone
  if (!business || business.closed_at) throw new AppError('ERR_BUSINESS_NOT_FOUND');
  return business;
}

/** `userId`'s licence in `businessId` now gives `plan` (null: nothing) */
export async function announceLicence(
  client: PoolClient,
  metrics: Pick<TeamsMetrics, 'licenceEvents'>,
  change: { userId: number; businessId: number; plan: PlanName | null },
): Promise<void> {
  await appendEvent(client, SCHEMA, 'teams.licence.changed.v1', change);
  metrics.licenceEvents.inc({ plan: change.plan ?? 'none' });
}
