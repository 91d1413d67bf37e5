/**
 * POST /api/billing/subscription/cancel (spec §4, §5): the confirmation phrase, then the
 * provider stops billing at once; the plan stays until the paid (or trial) period ends — the
 * maintenance job takes it away then — and nothing is refunded.
 */
import { withTransaction } from '@wb/platform';
import type { RequestActor, Subscription } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { assertCancellable, assertCancelConfirmed } from '../policies/subscriptionRules';
import { presentSubscription } from '../presenters/subscription';
import { lockUser } from '../repositories/db';
import { findCurrentSubscription, updateSubscription } from '../repositories/subscriptions';
import type { BillingDeps } from './deps';
import { announceEntitlement } from './entitlements';
import { beginOperation, executeOperation, fingerprintOf, settlePending } from './operations';
import type { CancelRequest } from './operations';

export async function cancelSubscription(
  deps: BillingDeps,
  input: { confirmation: string },
  actor: RequestActor,
): Promise<Subscription> {
  const userId = requireUserId(actor);
  assertCancelConfirmed(input.confirmation);
  const pending = await settlePending(deps, userId);
  const current = await findCurrentSubscription(deps.pool, userId);
  assertCancellable(current);
  if (current.status === 'Canceled') return presentSubscription(current); // cancelled before: nothing to do

  if (!current.at_provider) {
    const row = await withTransaction(deps.pool, async (client) => {
      await lockUser(client, userId);
      const updated = await updateSubscription(client, current.id, {
        status: 'Canceled',
        cancelled_at: deps.now(),
        next_billing_date: null,
      });
      await announceEntitlement(client, updated, deps.now());
      return updated;
    });
    deps.metrics.subscriptions.inc({ kind: 'cancel', outcome: 'ok' });
    return presentSubscription(row);
  }

  const op = await beginOperation<CancelRequest>(
    deps,
    {
      userId,
      kind: 'cancel',
      fingerprint: fingerprintOf('subscription.cancel', userId, { subscriptionId: current.id }),
      subscriptionId: () => current.id,
      request: {},
    },
    pending,
  );
  const row = await executeOperation(deps, op, () => deps.provider.cancelSubscription(current.id));
  deps.log.info({ userId, subscriptionId: row.id, expires: row.expires }, 'subscription cancelled');
  return presentSubscription(row);
}
