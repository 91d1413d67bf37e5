/**
 * POST /api/billing/subscription: subscribe, or upgrade the running subscription. The card is
 * charged at once (a new subscription), at the end of a running card-less trial (the provider
 * makes it a trial subscription, `trial-<key>`), or, on a running provider subscription, the
 * subscription is changed in place (new card, plan, period, seats; past due: charged again).
 * Refusals that need no provider (VAT, promo, seats) come first. See operations.ts for the
 * pending-operation protocol.
 */
import { customerIdFor, idempotentId } from '../payments/provider';
import { requireUserId } from '../policies/actor';
import { chargeFor } from '../policies/pricing';
import { isRunningLocalTrial, upgradesInPlace } from '../policies/subscriptionRules';
import { presentSubscription } from '../presenters/subscription';
import { findCurrentSubscription } from '../repositories/subscriptions';
import type { RequestActor, Subscription, SubscribeInput } from '@wb/proto';
import { decideVat, promoPercent } from './billingDetails';
import type { BillingDeps } from './deps';
import { syncInvoicesQuietly } from './invoices';
import { beginOperation, executeOperation, findReplay, fingerprintOf, settlePending } from './operations';
import type { ChangeRequest, CustomerDetails, SubscribeRequest } from './operations';

export async function subscribe(deps: BillingDeps, input: SubscribeInput, actor: RequestActor): Promise<Subscription> {
  const userId = requireUserId(actor);
  const fingerprint = fingerprintOf('subscription.create', userId, input);
  const { vat, vatNumber, vatNumberValid } = await decideVat(deps, input.billing);
  const promo = await promoPercent(deps, input.promo);
  await deps.seats.check(userId, input.seats);

  const pending = await settlePending(deps, userId);
  const current = await findCurrentSubscription(deps.pool, userId);
  const wanted = { plan: input.plan, period: input.billing_period, seats: input.seats };
  const replay = pending ? null : await findReplay(deps, userId, fingerprint, current, wanted);
  if (replay) {
    deps.metrics.subscriptions.inc({ kind: 'subscribe', outcome: 'replayed' });
    return presentSubscription(replay);
  }

  const customer: CustomerDetails = {
    customerId: customerIdFor(userId),
    form: input.billing,
    vatNumber,
    vatNumberValid,
  };
  const priced = {
    plan: input.plan,
    period: input.billing_period,
    seats: input.seats,
    vatRate: vat.ratePercent,
    vatRule: vat.rule,
  };
  const who = {
    id: userId,
    email: input.billing.email,
    name: `${input.billing.first_name} ${input.billing.last_name}`,
  };

  let row;
  if (current && upgradesInPlace(current)) {
    // the promo of the running subscription stays; a new code is not stacked on it
    const charge = chargeFor({ ...wanted, promoPercent: current.promo_percent, vat });
    const op = await beginOperation<ChangeRequest>(
      deps,
      {
        userId,
        kind: 'change',
        fingerprint,
        subscriptionId: () => current.id,
        request: { ...priced, planId: charge.planId, amountCents: charge.grossCents, resume: true, customer },
      },
      pending,
    );
    row = await executeOperation(deps, op, async () => {
      await deps.provider.ensureCustomer(who, input.billing);
      return deps.provider.changeSubscription({
        subscriptionId: current.id,
        planId: op.request.planId,
        amountCents: op.request.amountCents,
        nonce: input.nonce,
      });
    });
  } else {
    const now = deps.now();
    const trialEnd = isRunningLocalTrial(current, now) ? current.expires : null;
    const charge = chargeFor({ ...wanted, promoPercent: promo.percent, vat });
    const op = await beginOperation<SubscribeRequest>(
      deps,
      {
        userId,
        kind: 'subscribe',
        fingerprint,
        subscriptionId: (key) => idempotentId(trialEnd ? 'trial' : 'sub', key),
        request: {
          ...priced,
          planId: charge.planId,
          amountCents: charge.grossCents,
          promoCode: promo.code,
          promoPercent: promo.percent,
          firstBillingDate: trialEnd ? trialEnd.toISOString() : null,
          customer,
        },
      },
      pending,
    );
    row = await executeOperation(deps, op, async () => {
      const { customerId } = await deps.provider.ensureCustomer(who, input.billing);
      const first = op.request.firstBillingDate ? new Date(op.request.firstBillingDate) : undefined;
      return deps.provider.subscribe({
        customerId,
        nonce: input.nonce,
        planId: op.request.planId,
        amountCents: op.request.amountCents,
        idempotencyKey: op.id,
        // a trial that ended meanwhile: the provider charges at once and names it sub-<key>
        ...(first ? { firstBillingDate: first } : {}),
      });
    });
  }
  deps.log.info(
    { userId, subscriptionId: row.id, plan: row.plan, period: row.billing_period, seats: row.seats },
    'subscription confirmed',
  );
  await syncInvoicesQuietly(deps, userId);
  return presentSubscription(row);
}
