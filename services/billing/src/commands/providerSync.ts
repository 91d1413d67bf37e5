/**
 * The provider's word on a subscription, in our rows' terms. Braintree's billing dates are days
 * (UTC); "paid through 2025-07-31" means the plan is paid until the end of that day, so our
 * `expires` is the next midnight. A trial (first billing date in the future) lasts until its first
 * billing date.
 */
import { withTransaction } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import { BILLING_PERIODS, PAID_PLAN_NAMES } from '@wb/proto';
import type { BillingPeriod, PaidPlanName } from '@wb/proto';
import type { ProviderSubscription } from '../payments/provider';
import { lockUser } from '../repositories/db';
import { findCurrentSubscription, findSubscriptionById, updateSubscription } from '../repositories/subscriptions';
import type { SubscriptionChanges, SubscriptionRow } from '../repositories/subscriptions';
import type { BillingDeps } from './deps';
import { announceEntitlement } from './entitlements';

const DAY_MS = 24 * 3600_000;

/** "2025-07-01" → that day's UTC midnight */
export function providerDay(day: string | null): Date | null {
  if (!day) return null;
  const d = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** "premium-yearly" → { plan, period }; null for a plan id that is not ours */
export function parsePlanId(planId: string): { plan: PaidPlanName; period: BillingPeriod } | null {
  const i = planId.lastIndexOf('-');
  const plan = planId.slice(0, i) as PaidPlanName;
  const period = planId.slice(i + 1) as BillingPeriod;
  if (!PAID_PLAN_NAMES.includes(plan) || !BILLING_PERIODS.includes(period)) return null;
  return { plan, period };
}

/** The provider's state as column changes (plan and period only when the plan id is ours). */
export function changesFromProvider(
  p: ProviderSubscription,
  now: Date,
  current: Pick<SubscriptionRow, 'expires'> | null = null,
): SubscriptionChanges {
  const paidThrough = providerDay(p.paidThroughDate);
  const first = providerDay(p.firstBillingDate);
  const expires = paidThrough
    ? new Date(paidThrough.getTime() + DAY_MS)
    : p.trialing
      ? first
      : // cancelled before it was ever billed (a trial with a card): keep the period we had
        (current?.expires ?? first);
  const planned = parsePlanId(p.planId);
  return {
    ...(planned ? { plan: planned.plan, billing_period: planned.period } : {}),
    status: p.status,
    first_billing_date: first,
    next_billing_date: p.status === 'Canceled' || p.status === 'Expired' ? null : providerDay(p.nextBillingDate),
    next_billing_amount: p.amountCents + Math.max(0, p.balanceCents),
    balance: p.balanceCents,
    expires,
    synced_at: now,
  };
}

/**
 * Brings one of our subscription rows in line with the provider's word and announces what it
 * gives when that changed (only the user's current subscription gives anything). `extra`
 * changes ride along (seats, cancelled_at).
 */
export async function applyProviderState(
  client: PoolClient,
  row: SubscriptionRow,
  p: ProviderSubscription,
  now: Date,
  extra: SubscriptionChanges = {},
): Promise<SubscriptionRow> {
  const updated = await updateSubscription(client, row.id, { ...changesFromProvider(p, now, row), ...extra });
  const current = await findCurrentSubscription(client, row.user_id);
  if (current?.id === updated.id) await announceEntitlement(client, updated, now);
  return updated;
}

/** Reads the subscription at the provider and applies it (webhooks, the lapse job); null when unknown there. */
export async function syncFromProvider(deps: BillingDeps, subscriptionId: string): Promise<SubscriptionRow | null> {
  const p = await deps.provider.findSubscription(subscriptionId);
  if (!p) return null;
  return withTransaction(deps.pool, async (client) => {
    const row = await findSubscriptionById(client, subscriptionId);
    if (!row) return null;
    await lockUser(client, row.user_id);
    const locked = (await findSubscriptionById(client, subscriptionId, { forUpdate: true }))!;
    return applyProviderState(client, locked, p, deps.now());
  });
}
