/**
 * What a user's subscription gives — its plan while it is active (spec §4: trial, paid, cancelled
 * but paid up, past due), else nothing — announced as billing.subscription.changed.v1 whenever it
 * changes, in the same transaction as the change (outbox). The auth service turns it into the
 * user's effective plan; teams reads the seats. Billing computes no plan anywhere else.
 */
import { appendEvent } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import type { PaidPlanName } from '@wb/proto';
import { givesPlan } from '../policies/subscriptionRules';
import { isTerminated } from '../repositories/closures';
import { findEntitlement, saveEntitlement } from '../repositories/entitlements';
import type { SubscriptionRow } from '../repositories/subscriptions';
import { SCHEMA } from './deps';

export interface Grant {
  plan: PaidPlanName | null;
  seats: number;
}

export function grantOf(row: SubscriptionRow, now: Date): Grant {
  return givesPlan(row, now) ? { plan: row.plan, seats: row.seats } : { plan: null, seats: 0 };
}

/**
 * Records what `row` (the user's current subscription) gives at `now` and emits the event when
 * that differs from what was last announced. Call it last in the transaction (appendEvent takes
 * the outbox lock until COMMIT). Returns the grant and whether it changed.
 */
export async function announceEntitlement(
  client: PoolClient,
  row: SubscriptionRow,
  now: Date,
): Promise<Grant & { changed: boolean }> {
  const grant = grantOf(row, now);
  // a terminated account gets nothing announced: a payment reconciled after the termination (and
  // cancelled at once) must not open a business or give a plan to an account that is gone
  if (await isTerminated(client, row.user_id)) return { ...grant, changed: false };
  const last = await findEntitlement(client, row.user_id);
  const same =
    last !== null && last.subscription_id === row.id && last.plan === grant.plan && last.seats === grant.seats;
  // nothing given before and nothing now: nobody needs to hear about it
  if (same || (last === null && grant.plan === null)) return { ...grant, changed: false };
  await saveEntitlement(client, {
    user_id: row.user_id,
    subscription_id: row.id,
    plan: grant.plan,
    seats: grant.seats,
    updated_at: now,
  });
  await appendEvent(client, SCHEMA, 'billing.subscription.changed.v1', {
    userId: row.user_id,
    subscriptionId: row.id,
    plan: grant.plan,
    seats: grant.seats,
  });
  return { ...grant, changed: true };
}
