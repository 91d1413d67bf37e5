/**
 * PUT /api/billing/subscription: another plan, period or seat count (the new price applies from
 * the next billing date: no proration), and/or a new payment method (spec §4: a past-due
 * subscription is charged again with it). Fewer seats than the team's active users →
 * ERR_SEAT_COUNT_TOO_LOW (SeatPolicy). A card-less trial is changed here alone.
 *
 * Another billing period cannot be set on a Braintree subscription (error 91922), so it becomes a
 * new subscription on the same payment method (or the new one given) that is first billed when
 * the paid period of the current one ends, and the current one is cancelled: the same "new price
 * from the next billing date, no proration, no refunds" rule as every other change, and the
 * customer is never billed for one period twice (operations.ts, kind period_change).
 */
import { withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { RequestActor, Subscription, SubscriptionChangeInput } from '@wb/proto';
import { customerIdFor, idempotentId } from '../payments/provider';
import type { OperationRow } from '../repositories/operations';
import type { SubscriptionRow } from '../repositories/subscriptions';
import { requireUserId } from '../policies/actor';
import { chargeFor, storedVat } from '../policies/pricing';
import { assertChangeable } from '../policies/subscriptionRules';
import { presentSubscription } from '../presenters/subscription';
import { lockUser } from '../repositories/db';
import { findCurrentSubscription, findSubscriptionById, updateSubscription } from '../repositories/subscriptions';
import type { BillingDeps } from './deps';
import { announceEntitlement } from './entitlements';
import {
  beginOperation,
  cancelReplaced,
  executeOperation,
  findReplay,
  fingerprintOf,
  settlePending,
} from './operations';
import type { ChangeRequest, PeriodChangeRequest } from './operations';

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

  if (wanted.period !== current.billing_period) {
    return changePeriod(deps, { userId, fingerprint, current, wanted, nonce: input.nonce, pending });
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

async function changePeriod(
  deps: BillingDeps,
  a: {
    userId: number;
    fingerprint: string;
    current: SubscriptionRow;
    wanted: { plan: SubscriptionRow['plan']; period: SubscriptionRow['billing_period']; seats: number };
    nonce: string | undefined;
    pending: OperationRow | null;
  },
): Promise<Subscription> {
  const { userId, current, wanted } = a;
  if (current.status === 'Past Due') {
    // the open balance is the old period's: resume it with a payment method first
    throw new AppError('ERR_INVALID_INPUT', 'Add a payment method to pay the open balance first', {
      billing_period: 'the subscription is past due',
    });
  }
  const now = deps.now();
  const startsAt = current.expires && current.expires > now ? current.expires : null;
  const charge = chargeFor({ ...wanted, promoPercent: current.promo_percent, vat: storedVat(current) });
  const op = await beginOperation<PeriodChangeRequest>(
    deps,
    {
      userId,
      kind: 'period_change',
      fingerprint: a.fingerprint,
      subscriptionId: (key) => idempotentId('sub', key),
      request: {
        ...wanted,
        planId: charge.planId,
        amountCents: charge.grossCents,
        vatRate: current.vat_rate,
        vatRule: current.vat_rule,
        promoCode: current.promo_code,
        promoPercent: current.promo_percent,
        firstBillingDate: startsAt ? startsAt.toISOString() : null,
        replaces: current.id,
      },
    },
    a.pending,
  );
  const r = op.request;
  const row = await executeOperation(deps, op, async () => {
    const old = await deps.provider.findSubscription(r.replaces);
    if (!old) throw new AppError('ERR_NOT_FOUND', 'There is no running subscription to change');
    const method = a.nonce
      ? { nonce: a.nonce }
      : old.paymentMethodToken
        ? { paymentMethodToken: old.paymentMethodToken }
        : null;
    if (!method) {
      // refused before the provider did anything: the operation fails, nothing to reconcile
      const err = new AppError('ERR_INVALID_INPUT', 'Add a payment method', { nonce: 'required' });
      throw Object.assign(err, { refused: true });
    }
    const created = await deps.provider.subscribe({
      customerId: customerIdFor(userId),
      ...method,
      planId: r.planId,
      amountCents: r.amountCents,
      idempotencyKey: op.id,
      ...(r.firstBillingDate ? { firstBillingDate: new Date(r.firstBillingDate) } : {}),
      trial: false,
    });
    await cancelReplaced(deps, r.replaces);
    return created;
  });
  deps.log.info(
    { userId, subscriptionId: row.id, replaces: r.replaces, period: row.billing_period, startsAt: r.firstBillingDate },
    'billing period changed: new subscription from the end of the paid period',
  );
  return presentSubscription(row);
}
