/**
 * billing.subscription.changed.v1 → the owner's business (issue 12). Runs in the consumer's
 * transaction; the event's outbox sequence orders billing's words, so an older one arriving late
 * (a retried delivery) changes nothing, and a replayed one is dropped by the consumer already.
 *
 * - a plan with the `team` feature and no open business: one is opened with the owner holding a
 *   licence (unless the owner closed a business of this very subscription: closing is final for
 *   it). Someone who is a member of another team and now pays for their own leaves that team: their
 *   own subscription wins, and one team per person.
 * - an open business follows the subscription: its licences become the seats (a trial: one); if
 *   fewer than the active users, the most recently activated members are deactivated; when the
 *   plan the licences give changes (ended: null, back, up- or downgraded), every active member's
 *   licence is announced with it.
 */
import type { PoolClient } from '@wb/platform';
import type { EventData, PlanName } from '@wb/proto';
import { licencePlan, licencesOf, teamPlanOf } from '../policies/licences';
import type { TeamsMetrics } from '../metrics';
import {
  findBusiness,
  findLatestBusinessOfOwner,
  findOpenBusinessOfOwner,
  insertBusiness,
  setBusinessSubscription,
  setRequestedSeats,
} from '../repositories/businesses';
import {
  deleteMember,
  findMembership,
  insertMember,
  listMembers,
  newestActiveBeyond,
  setActive,
} from '../repositories/members';
import { lockSubscription, saveSubscription } from '../repositories/subscriptions';
import { announceLicence } from './team';

export type SubscriptionOutcome = 'stale' | 'no_business' | 'closed' | 'opened' | 'updated';

export interface SyncDeps {
  metrics: Pick<TeamsMetrics, 'licenceEvents'>;
  now(): Date;
}

export async function applySubscription(
  client: PoolClient,
  deps: SyncDeps,
  event: EventData<'billing.subscription.changed.v1'>,
  seq: bigint,
): Promise<{ outcome: SubscriptionOutcome; businessId?: number; deactivated?: number[] }> {
  const ownerId = event.userId;
  const previous = await lockSubscription(client, ownerId);
  if (previous && BigInt(previous.seq) >= seq) return { outcome: 'stale' };
  const before: PlanName | null = teamPlanOf(previous);
  await saveSubscription(client, {
    ownerId,
    subscriptionId: event.subscriptionId,
    plan: event.plan,
    seats: event.seats,
    seq,
  });
  const word = { subscription_id: event.subscriptionId, plan: event.plan, seats: event.seats };
  const plan = teamPlanOf(word);
  const licences = licencesOf(word);

  const business = await findOpenBusinessOfOwner(client, ownerId, { forUpdate: true });
  if (!business) {
    if (!plan) return { outcome: 'no_business' };
    const latest = await findLatestBusinessOfOwner(client, ownerId);
    if (latest?.closed_at && latest.subscription_id === event.subscriptionId)
      return { outcome: 'closed', businessId: latest.id };
    const elsewhere = await findMembership(client, ownerId);
    if (elsewhere) {
      await findBusiness(client, elsewhere.business_id, { forUpdate: true });
      await deleteMember(client, ownerId);
    }
    const opened = await insertBusiness(client, ownerId, event.subscriptionId, deps.now());
    await insertMember(client, { userId: ownerId, businessId: opened.id, role: 'owner', email: null, at: deps.now() });
    await announceLicence(client, deps.metrics, { userId: ownerId, businessId: opened.id, plan });
    return { outcome: 'opened', businessId: opened.id };
  }

  if (business.subscription_id !== event.subscriptionId)
    await setBusinessSubscription(client, business.id, event.subscriptionId);
  if (business.requested_seats !== null && business.requested_seats === licences)
    await setRequestedSeats(client, business.id, null);
  const deactivated: number[] = [];
  for (const m of await newestActiveBeyond(client, business.id, licences)) {
    await setActive(client, m.user_id, false, deps.now());
    await announceLicence(client, deps.metrics, { userId: m.user_id, businessId: business.id, plan: null });
    deactivated.push(m.user_id);
  }
  if (before !== plan) {
    for (const m of await listMembers(client, business.id)) {
      if (m.active) {
        await announceLicence(client, deps.metrics, {
          userId: m.user_id,
          businessId: business.id,
          plan: licencePlan(m.active, plan),
        });
      }
    }
  }
  return { outcome: 'updated', businessId: business.id, deactivated };
}
