/**
 * POST /api/billing/webhooks: Braintree's notifications (charged successfully or not, went
 * active, past due, cancelled, expired, trial ended). The SDK verifies the signature
 * (ERR_FORBIDDEN when it does not); the subscription is then re-read from the provider — its
 * current word, not the notification's snapshot, so an old notification arriving late cannot move
 * a subscription backwards — and applied with what it gives (event). Each notification (sha256 of
 * its signed payload) is handled once: a replay changes nothing.
 */
import { createHash } from 'node:crypto';
import { withTransaction } from '@wb/platform';
import type { ProviderSubscription } from '../payments/provider';
import { lockUser } from '../repositories/db';
import { findSubscriptionById } from '../repositories/subscriptions';
import { recordNotification } from '../repositories/webhooks';
import type { BillingDeps } from './deps';
import { syncInvoicesQuietly } from './invoices';
import { applyProviderState } from './providerSync';

export async function receiveWebhook(
  deps: BillingDeps,
  input: { bt_signature: string; bt_payload: string },
): Promise<{ ok: true; duplicate: boolean }> {
  const event = await deps.provider.parseWebhook(input.bt_signature, input.bt_payload);
  const digest = createHash('sha256').update(input.bt_payload).digest('hex');
  const kind = event.kind === 'other' ? event.rawKind.slice(0, 64) : event.kind;
  const record = (client: Parameters<typeof recordNotification>[0]) =>
    recordNotification(client, { digest, kind, subscriptionId: event.subscriptionId, now: deps.now() });

  const row = event.subscriptionId ? await findSubscriptionById(deps.pool, event.subscriptionId) : null;
  if (!row || event.kind === 'other') {
    const fresh = await record(deps.pool);
    const result = !row ? 'unknown_subscription' : 'ignored';
    deps.metrics.webhooks.inc({ kind: event.kind, result: fresh ? result : 'duplicate' });
    deps.log.info({ kind, subscriptionId: event.subscriptionId, result }, 'webhook notification not acted on');
    return { ok: true, duplicate: !fresh };
  }

  // the provider's current word (ERR_BRAINTREE when it cannot be had: Braintree retries the webhook)
  const current: ProviderSubscription | null =
    (await deps.provider.findSubscription(row.id)) ?? event.subscription ?? null;
  const applied = await withTransaction(deps.pool, async (client) => {
    await lockUser(client, row.user_id);
    if (!(await record(client))) return false;
    if (!current) return true;
    const locked = (await findSubscriptionById(client, row.id, { forUpdate: true }))!;
    const cancelled = current.status === 'Canceled' && !locked.cancelled_at ? { cancelled_at: deps.now() } : {};
    await applyProviderState(client, locked, current, deps.now(), cancelled);
    return true;
  });
  deps.metrics.webhooks.inc({ kind: event.kind, result: applied ? 'applied' : 'duplicate' });
  deps.log.info(
    { kind, subscriptionId: row.id, userId: row.user_id, status: current?.status, duplicate: !applied },
    'webhook notification handled',
  );
  if (applied && (event.kind === 'subscription_charged_successfully' || event.kind === 'subscription_went_active')) {
    await syncInvoicesQuietly(deps, row.user_id);
  }
  return { ok: true, duplicate: !applied };
}
