/**
 * PUT /api/billing/subscription: another plan, period or seat count (the new price applies from
 * the next billing date: no proration), and/or a new payment method (spec §4: a past-due
 * subscription is charged again with it). Fewer seats than the team's active users →
 * ERR_SEAT_COUNT_TOO_LOW (SeatPolicy). A card-less trial is changed here alone.
 */
import { withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { RequestActor, Subscription, SubscriptionChangeInput } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { chargeFor, storedVat } from '../policies/pricing';
import { assertChangeable } from '../policies/subscriptionRules';
import { presentSubscription } from '../presenters/subscription';
import { lockUser } from '../repositories/db';
import { findCurrentSubscription, findSubscriptionById, updateSubscription } from '../repositories/subscriptions';
import type { BillingDeps } from './deps';
import { announceEntitlement } from './entitlements';
import { beginOperation, executeOperation, findReplay, fingerprintOf, settlePending } from './operations';
import type { ChangeRequest } from './operations';

export async function changeSubscription(
  deps: BillingDeps,
  input: SubscriptionChangeInput,
  actor: RequestActor,
): Promise<Subscription> {
  const userId = requireUserId(actor);
  const fingerprint = fingerprintOf('subscription.update', userId, input);
  const pending = await settlePending(deps, userId);
  const current = await findCurrentSubscription(deps.pool, userId);
  assertChangeable(current, deps.now());
  const wanted = {
    plan: input.plan ?? current.plan,
    period: input.billing_period ?? current.billing_period,
    seats: input.seats ?? current.seats,
  };
  if (wanted.seats < current.seats) await deps.seats.check(userId, wanted.seats);

  if (!current.at_provider) {
    if (input.nonce) {
      throw new AppError('ERR_INVALID_INPUT', 'Subscribe with your billing details to add a payment method', {
        nonce: 'use POST /api/billing/subscription',
      });
    }
    const row = await withTransaction(deps.pool, async (client) => {
      await lockUser(client, userId);
      const locked = await findSubscriptionById(client, current.id, { forUpdate: true });
      const updated = await updateSubscription(client, locked!.id, {
        plan: wanted.plan,
        billing_period: wanted.period,
        seats: wanted.seats,
      });
      await announceEntitlement(client, updated, deps.now());
      return updated;
    });
    deps.metrics.subscriptions.inc({ kind: 'change', outcome: 'ok' });
    return presentSubscription(row);
  }

  const unchanged =
    wanted.plan === current.plan && wanted.period === current.billing_period && wanted.seats === current.seats;
  if (unchanged && !input.nonce) return presentSubscription(current);
  const replay = pending ? null : await findReplay(deps, userId, fingerprint, current, wanted);
  if (replay && !input.nonce) {
    deps.metrics.subscriptions.inc({ kind: 'change', outcome: 'replayed' });
    return presentSubscription(replay);
  }

  const charge = chargeFor({ ...wanted, promoPercent: current.promo_percent, vat: storedVat(current) });
  const op = await beginOperation<ChangeRequest>(
    deps,
    {
      userId,
      kind: 'change',
      fingerprint,
      subscriptionId: () => current.id,
      request: {
        ...wanted,
        planId: charge.planId,
        amountCents: charge.grossCents,
        vatRate: current.vat_rate,
        vatRule: current.vat_rule,
        resume: !!input.nonce,
        customer: null,
      },
    },
    pending,
  );
  const row = await executeOperation(deps, op, () =>
    deps.provider.changeSubscription({
      subscriptionId: current.id,
      planId: op.request.planId,
      amountCents: op.request.amountCents,
      ...(input.nonce ? { nonce: input.nonce } : {}),
    }),
  );
  deps.log.info({ userId, subscriptionId: row.id, plan: row.plan, seats: row.seats }, 'subscription changed');
  return presentSubscription(row);
}
