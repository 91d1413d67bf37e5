/**
 * Subscriptions that end because of something outside billing:
 * - auth.user.terminated.v1: a terminated account is charged nothing more. Every subscription of
 *   theirs still running is cancelled at the provider (and any that a pending payment completes
 *   later: `terminated_users`).
 * - teams.business.closed.v1: the subscription that paid for the closed business is cancelled at
 *   the provider. Its licences can never give anything again (teams opens a business only for
 *   *another* subscription), so renewing it would charge for nothing. Spec §4 "Cancelled": the
 *   owner keeps the plan until the paid period ends; no refunds.
 *
 * The cancellation is recorded first (committed on its own), then asked of the provider. Cancelling
 * is idempotent at the provider (a cancelled subscription stays cancelled), so it needs no
 * idempotency key: a failure is retried by the event's redelivery and, after that, by the
 * maintenance job (`enforceCancellations`) until the provider confirms.
 */
import { withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import { wasRefused } from '../payments/provider';
import type { ProviderSubscription } from '../payments/provider';
import { findCancellationsDue, recordTermination, requestCancellation } from '../repositories/closures';
import type { CancelReason } from '../repositories/closures';
import { lockUser } from '../repositories/db';
import { findCurrentSubscription, findSubscriptionById, updateSubscription } from '../repositories/subscriptions';
import type { SubscriptionRow } from '../repositories/subscriptions';
import type { BillingDeps } from './deps';
import { announceEntitlement } from './entitlements';
import { applyProviderState } from './providerSync';

export interface EnforceResult {
  cancelled: number;
  /** provider outcome unknown: tried again later */
  failed: number;
}

/** auth.user.terminated.v1 */
export async function cancelForTerminatedUser(deps: BillingDeps, userId: number): Promise<EnforceResult> {
  const now = deps.now();
  await recordTermination(deps.pool, userId, now);
  await requestCancellation(deps.pool, { userId }, 'user_terminated', now);
  return enforceCancellations(deps, { userId });
}

/** teams.business.closed.v1: only the subscription that paid for that business, if it is the owner's */
export async function cancelForClosedBusiness(
  deps: BillingDeps,
  e: { ownerId: number; subscriptionId: string },
): Promise<EnforceResult> {
  const marked = await requestCancellation(
    deps.pool,
    { userId: e.ownerId, subscriptionId: e.subscriptionId },
    'business_closed',
    deps.now(),
  );
  if (marked.length === 0) return { cancelled: 0, failed: 0 }; // not ours, or already ended
  return enforceCancellations(deps, { userId: e.ownerId });
}

/** Cancels every subscription that must be (of one user, or all: the maintenance job). */
export async function enforceCancellations(
  deps: BillingDeps,
  opts: { userId?: number; limit?: number } = {},
): Promise<EnforceResult> {
  const result: EnforceResult = { cancelled: 0, failed: 0 };
  for (const row of await findCancellationsDue(deps.pool, opts.limit ?? 100, opts.userId ?? null)) {
    try {
      await cancelOne(deps, row, row.cancel_reason);
      result.cancelled += 1;
      deps.metrics.subscriptions.inc({ kind: 'cancel', outcome: 'ok' });
    } catch (err) {
      result.failed += 1;
      deps.metrics.subscriptions.inc({ kind: 'cancel', outcome: 'unknown' });
      deps.log.warn(
        { subscriptionId: row.id, userId: row.user_id, reason: row.cancel_reason, code: (err as AppError).code },
        'could not cancel at the provider yet; retried later',
      );
    }
  }
  return result;
}

async function cancelOne(deps: BillingDeps, row: SubscriptionRow, reason: CancelReason): Promise<void> {
  let p: ProviderSubscription | null = null;
  if (row.at_provider) {
    try {
      p = await deps.provider.cancelSubscription(row.id);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // refused (e.g. it expired meanwhile) or unknown there: its word decides
      if (!wasRefused(err) && err.code !== 'ERR_NOT_FOUND') throw err;
      p = await deps.provider.findSubscription(row.id);
      if (p && p.status !== 'Canceled' && p.status !== 'Expired') throw err;
      // p null: the provider has no such subscription (a development fake that restarted): nothing to charge
    }
  }
  const now = deps.now();
  await withTransaction(deps.pool, async (client) => {
    await lockUser(client, row.user_id);
    const locked = await findSubscriptionById(client, row.id, { forUpdate: true });
    if (!locked) return;
    const cancelled_at = locked.cancelled_at ?? now;
    if (p) {
      await applyProviderState(client, locked, p, now, { cancelled_at });
      return;
    }
    const updated = await updateSubscription(client, locked.id, {
      status: 'Canceled',
      cancelled_at,
      next_billing_date: null,
    });
    const current = await findCurrentSubscription(client, locked.user_id);
    if (current?.id === updated.id) await announceEntitlement(client, updated, now);
  });
  deps.log.info({ subscriptionId: row.id, userId: row.user_id, reason }, 'subscription cancelled at the provider');
}
