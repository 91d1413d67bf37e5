/**
 * Pending provider operations: "no charge without a confirmed subscription and no subscription
 * without a charge or trial", although the provider call cannot be inside our transaction.
 *
 *   1. begin     a row in `operations` (state pending) whose id is the idempotency key the
 *                provider's ids derive from (`sub-<key>`, `trial-<key>`, `pm-<key>`); committed
 *                before the provider is called. One pending operation per user.
 *   2. execute   the provider call, outside any transaction.
 *   3. complete  one transaction: the subscription row, the operation done, the entitlement
 *                event (outbox). Or, when the provider *refused* (declined card…), the operation
 *                failed and nothing else. When the outcome is unknown (timeout, 5xx, crash), the
 *                row stays pending and the request answers ERR_BRAINTREE.
 *   4. reconcile the provider's truth finishes a pending operation: found there (the subscription
 *                exists / has the asked plan and price / is cancelled) → complete; not found and
 *                last attempted over RECONCILE_AFTER_MS ago → failed (rolled back: nothing was
 *                charged). Run for the user at their next billing request, at start-up and by the
 *                maintenance job.
 *
 * A retried request (same fingerprint: the same input from the same user) re-executes the same
 * pending operation, and the provider's subscribe is idempotent by key, so it charges nothing
 * more; a request that was already completed is answered from the result (`findReplay`).
 */
import { createHash } from 'node:crypto';
import { appendEvent, withTransaction } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { BillingForm, BillingPeriod, PaidPlanName } from '@wb/proto';
import { wasRefused } from '../payments/provider';
import type { ProviderSubscription } from '../payments/provider';
import { givesPlan } from '../policies/subscriptionRules';
import { upsertCustomer } from '../repositories/customers';
import { lockUser } from '../repositories/db';
import { SCHEMA } from './deps';
import {
  finishOperation,
  findFinishedByFingerprint,
  findOperation,
  findPendingOperation,
  findStalePending,
  insertOperation,
  touchOperation,
} from '../repositories/operations';
import type { OperationKind, OperationRow } from '../repositories/operations';
import {
  findCurrentSubscription,
  findSubscriptionById,
  updateSubscription,
  upsertSubscription,
} from '../repositories/subscriptions';
import type { SubscriptionRow } from '../repositories/subscriptions';
import type { BillingDeps } from './deps';
import { announceEntitlement } from './entitlements';
import { applyProviderState, changesFromProvider } from './providerSync';

/** The billing details a subscribe or upgrade saves (the buyer on invoices). No card data. */
export interface CustomerDetails {
  customerId: string;
  form: BillingForm;
  vatNumber: string | null;
  vatNumberValid: boolean;
}

interface Priced {
  plan: PaidPlanName;
  period: BillingPeriod;
  seats: number;
  planId: string;
  /** per billing cycle, VAT included */
  amountCents: number;
  vatRate: number;
  vatRule: string;
}

export interface SubscribeRequest extends Priced {
  promoCode: string | null;
  promoPercent: number;
  /** ISO; set when a running card-less trial is converted: billing starts when it ends */
  firstBillingDate: string | null;
  customer: CustomerDetails;
}

export interface ChangeRequest extends Priced {
  /** a new payment method was given: a past-due subscription is charged again */
  resume: boolean;
  /** POST on a running subscription saves new billing details too */
  customer: CustomerDetails | null;
}

export type CancelRequest = Record<string, never>;

/**
 * A billing-period change: Braintree keeps a subscription's billing cycle for life (error 91922),
 * so the operation creates `sub-<key>` on the same payment method, starting when the paid period
 * of `replaces` ends (nothing charged now; no proration, spec §4: no refunds), then cancels
 * `replaces`, which keeps giving its plan until that day. Creating first means a failure leaves
 * the old subscription untouched; the reconciler finishes the cancellation when the new one exists.
 */
export interface PeriodChangeRequest extends Priced {
  promoCode: string | null;
  promoPercent: number;
  /** ISO; when the new subscription is first billed (the old one's paid period end), null = now */
  firstBillingDate: string | null;
  /** the subscription it replaces */
  replaces: string;
}

/** How long a finished request is recognised when it is sent again. */
const REPLAY_WINDOW_MS = 24 * 3600_000;

/** sha256 of what was asked (the nonce is hashed with the rest, never stored) */
export function fingerprintOf(operation: string, userId: number, input: unknown): string {
  return createHash('sha256')
    .update(`${operation}:${userId}:${JSON.stringify(input)}`)
    .digest('base64url');
}

function busy(): AppError {
  return new AppError(
    'ERR_TEMPORARY_PROBLEM',
    'A previous payment is still being confirmed with the payment provider, please try again in a minute',
  );
}

/**
 * A request finished earlier with the same fingerprint whose result still holds: the current
 * subscription is the one it made or changed and has what it asked for (a retry after a lost
 * answer is answered, not repeated).
 */
export async function findReplay(
  deps: BillingDeps,
  userId: number,
  fingerprint: string,
  current: SubscriptionRow | null,
  wanted: { plan: PaidPlanName; period: BillingPeriod; seats: number },
): Promise<SubscriptionRow | null> {
  if (!current) return null;
  const since = new Date(deps.now().getTime() - REPLAY_WINDOW_MS);
  const earlier = await findFinishedByFingerprint(deps.pool, userId, fingerprint, since);
  if (!earlier || earlier.subscription_id !== current.id) return null;
  const holds =
    current.plan === wanted.plan &&
    current.billing_period === wanted.period &&
    current.seats === wanted.seats &&
    current.status !== 'Past Due' &&
    givesPlan(current, deps.now());
  return holds ? current : null;
}

/** Finish the user's pending operation from the provider's truth, if it can be; returns it when still pending. */
export async function settlePending(deps: BillingDeps, userId: number): Promise<OperationRow | null> {
  const pending = await findPendingOperation(deps.pool, userId);
  if (!pending) return null;
  const result = await reconcileOperation(deps, pending);
  return result === 'pending' ? ((await findPendingOperation(deps.pool, userId)) ?? null) : null;
}

/**
 * Start an operation, or take up the user's pending one when this is a retry of it (same kind
 * and fingerprint). Another pending operation makes the request wait (ERR_TEMPORARY_PROBLEM).
 */
export async function beginOperation<R>(
  deps: BillingDeps,
  spec: {
    userId: number;
    kind: OperationKind;
    fingerprint: string;
    /** the subscription the operation makes (from the key) or changes */
    subscriptionId: (key: string) => string;
    request: R;
  },
  pending: OperationRow | null,
): Promise<OperationRow<R>> {
  const sameAsked = (op: OperationRow) => op.kind === spec.kind && op.fingerprint === spec.fingerprint;
  if (pending) {
    if (sameAsked(pending)) return pending as OperationRow<R>;
    throw busy();
  }
  const id = deps.newKey();
  const inserted = await insertOperation(deps.pool, {
    id,
    user_id: spec.userId,
    kind: spec.kind,
    fingerprint: spec.fingerprint,
    subscription_id: spec.subscriptionId(id),
    request: spec.request,
    now: deps.now(),
  });
  if (!inserted) {
    // a twin request (double click) began first: take part in it
    const other = await findPendingOperation(deps.pool, spec.userId);
    if (other && sameAsked(other)) return other as OperationRow<R>;
    throw busy();
  }
  return (await findOperation(deps.pool, id)) as OperationRow<R>;
}

/**
 * Make the provider call of a pending operation and complete it. Refused by the provider → the
 * operation fails and the error goes to the caller; unknown outcome → it stays pending for
 * reconciliation and the caller gets ERR_BRAINTREE.
 */
export async function executeOperation(
  deps: BillingDeps,
  op: OperationRow,
  call: () => Promise<ProviderSubscription>,
): Promise<SubscriptionRow> {
  await touchOperation(deps.pool, op.id, deps.now());
  let p: ProviderSubscription;
  try {
    p = await call();
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (wasRefused(err) || err.code === 'ERR_NOT_FOUND') {
      await finishOperation(deps.pool, op.id, 'failed', deps.now(), err.message);
      deps.metrics.subscriptions.inc({ kind: op.kind, outcome: 'refused' });
      deps.log.info({ operationId: op.id, kind: op.kind, code: err.code }, 'provider refused the operation');
      // a change may have been applied in part (new plan, then a declined retry of the charge)
      if (op.kind !== 'subscribe') await resyncQuietly(deps, op.subscription_id);
      throw err;
    }
    deps.metrics.subscriptions.inc({ kind: op.kind, outcome: 'unknown' });
    deps.log.warn(
      { operationId: op.id, kind: op.kind, code: err.code },
      'provider outcome unknown: operation left pending for reconciliation',
    );
    throw err.code === 'ERR_BRAINTREE' ? err : new AppError('ERR_BRAINTREE');
  }
  const row = await completeOperation(deps, op, p);
  deps.metrics.subscriptions.inc({ kind: op.kind, outcome: 'ok' });
  return row;
}

async function resyncQuietly(deps: BillingDeps, subscriptionId: string): Promise<void> {
  try {
    const p = await deps.provider.findSubscription(subscriptionId);
    if (!p) return;
    await withTransaction(deps.pool, async (client) => {
      const row = await findSubscriptionById(client, subscriptionId);
      if (!row) return;
      await lockUser(client, row.user_id);
      await applyProviderState(client, row, p, deps.now());
    });
  } catch (err) {
    deps.log.warn({ subscriptionId, err: (err as Error).message }, 'could not re-read the subscription');
  }
}

/** Whether the provider's state shows that the operation was carried out. */
export function providerCarriedOut(op: OperationRow, p: ProviderSubscription): boolean {
  switch (op.kind) {
    case 'subscribe':
      return p.id.endsWith(`-${op.id}`);
    case 'change': {
      const r = op.request as ChangeRequest;
      return p.planId === r.planId && p.amountCents === r.amountCents && (!r.resume || p.status !== 'Past Due');
    }
    case 'cancel':
      return p.status === 'Canceled' || p.status === 'Expired';
    case 'period_change':
      // the new subscription exists; the old one's cancellation is made sure of before completing
      return p.id === op.subscription_id;
  }
}

/**
 * The second half of a period change: cancel the subscription it replaces. Idempotent (cancelling
 * a cancelled one is a no-op). Any failure is an *unknown* outcome for the operation — the new
 * subscription exists, so the operation must never be rolled back — and stays pending.
 */
export async function cancelReplaced(deps: BillingDeps, replaces: string): Promise<void> {
  try {
    await deps.provider.cancelSubscription(replaces);
  } catch (err) {
    const old = await deps.provider.findSubscription(replaces).catch(() => null);
    if (old && (old.status === 'Canceled' || old.status === 'Expired')) return;
    if (err instanceof AppError && err.code === 'ERR_NOT_FOUND' && !old) return; // nothing left to renew
    throw new AppError('ERR_BRAINTREE', 'The payment provider is not reachable at the moment, please try again');
  }
}

/** One pending operation against the provider's truth. */
export async function reconcileOperation(
  deps: BillingDeps,
  op: OperationRow,
): Promise<'completed' | 'rolled_back' | 'pending'> {
  let p: ProviderSubscription | null;
  try {
    p = await deps.provider.findSubscription(op.subscription_id);
    if (!p && op.kind === 'subscribe') {
      // a trial that ended between begin and the call is created as sub-<key> (and the reverse)
      const twin = op.subscription_id.startsWith('trial-')
        ? `sub-${op.subscription_id.slice('trial-'.length)}`
        : `trial-${op.subscription_id.slice('sub-'.length)}`;
      p = await deps.provider.findSubscription(twin);
    }
    if (p && op.kind === 'period_change') await cancelReplaced(deps, (op.request as PeriodChangeRequest).replaces);
  } catch {
    deps.metrics.reconciled.inc({ result: 'pending' });
    return 'pending'; // provider not reachable: next time
  }
  if (p && providerCarriedOut(op, p)) {
    await completeOperation(deps, op, p);
    deps.metrics.reconciled.inc({ result: 'completed' });
    deps.log.info({ operationId: op.id, kind: op.kind, subscriptionId: p.id }, 'pending operation completed');
    return 'completed';
  }
  if (deps.now().getTime() - op.attempted_at.getTime() < deps.reconcileAfterMs) {
    deps.metrics.reconciled.inc({ result: 'pending' });
    return 'pending';
  }
  const failed = await finishOperation(deps.pool, op.id, 'failed', deps.now(), 'not carried out at the provider');
  if (failed && op.kind !== 'subscribe') await resyncQuietly(deps, op.subscription_id);
  deps.metrics.reconciled.inc({ result: 'rolled_back' });
  deps.log.info({ operationId: op.id, kind: op.kind }, 'pending operation rolled back: the provider did not do it');
  return 'rolled_back';
}

/** Reconcile every pending operation (start-up, the maintenance job). */
export async function reconcileAll(deps: BillingDeps, limit = 100): Promise<Record<string, number>> {
  const counts: Record<string, number> = { completed: 0, rolled_back: 0, pending: 0 };
  for (const op of await findStalePending(deps.pool, deps.now(), limit)) {
    try {
      counts[await reconcileOperation(deps, op)]! += 1;
    } catch (err) {
      deps.log.error({ err, operationId: op.id }, 'reconciling an operation failed');
    }
  }
  return counts;
}

function customerRow(userId: number, c: CustomerDetails, now: Date) {
  return {
    user_id: userId,
    provider_customer_id: c.customerId,
    first_name: c.form.first_name,
    last_name: c.form.last_name,
    email: c.form.email,
    company: c.form.company,
    vat_nr: c.vatNumber,
    vat_nr_valid: c.vatNumberValid,
    country_code: c.form.country_code,
    city_region: c.form.city_region,
    postal_code: c.form.postal_code,
    street_address: c.form.street_address,
    extended_address: c.form.extended_address,
    updated_at: now,
  };
}

/**
 * Keeps the checkout's billing form and tells teams (billing.customer.changed.v1): the owner's
 * business details, whose organisation names the team, are the form's.
 */
async function saveCustomer(client: PoolClient, userId: number, c: CustomerDetails, now: Date): Promise<void> {
  const row = customerRow(userId, c, now);
  await upsertCustomer(client, row);
  await appendEvent(client, SCHEMA, 'billing.customer.changed.v1', {
    userId,
    company: row.company,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    country_code: row.country_code,
    city_region: row.city_region,
    postal_code: row.postal_code,
    street_address: row.street_address,
    extended_address: row.extended_address,
    vat_nr: row.vat_nr ?? '',
  });
}

/** The transaction that records what the provider did. Idempotent: a completed operation is left as it is. */
export async function completeOperation(
  deps: BillingDeps,
  op: OperationRow,
  p: ProviderSubscription,
): Promise<SubscriptionRow> {
  const now = deps.now();
  return withTransaction(deps.pool, async (client) => {
    await lockUser(client, op.user_id);
    const locked = (await findOperation(client, op.id, { forUpdate: true }))!;
    if (locked.state === 'done') {
      const row = await findSubscriptionById(client, op.kind === 'subscribe' ? p.id : op.subscription_id);
      if (row) return row;
    }
    if (locked.state === 'failed') {
      // only when the provider finished after our grace period: its word wins (no lost payment)
      deps.log.error(
        { operationId: op.id, kind: op.kind },
        'the provider carried out an operation that was rolled back',
      );
    }
    await finishOperation(client, op.id, 'done', now);

    if (op.kind === 'subscribe' || op.kind === 'period_change') {
      const r = op.request as SubscribeRequest | PeriodChangeRequest;
      if ('customer' in r) await saveCustomer(client, op.user_id, r.customer, now);
      if ('replaces' in r) {
        // cancelled at the provider before this commit; it keeps its plan until its paid period ends
        const old = await findSubscriptionById(client, r.replaces, { forUpdate: true });
        if (old && old.status !== 'Canceled' && old.status !== 'Expired') {
          await updateSubscription(client, old.id, { status: 'Canceled', cancelled_at: now, next_billing_date: null });
        }
      }
      const created = Number.isNaN(p.createdAt.getTime()) ? now : p.createdAt;
      const state = changesFromProvider(p, now);
      const row = await upsertSubscription(client, {
        id: p.id,
        user_id: op.user_id,
        plan: r.plan,
        billing_period: r.period,
        seats: r.seats,
        status: p.status,
        trial: p.id.startsWith('trial-'),
        at_provider: true,
        first_billing_date: state.first_billing_date ?? null,
        next_billing_date: state.next_billing_date ?? null,
        next_billing_amount: state.next_billing_amount ?? r.amountCents,
        balance: state.balance ?? 0,
        expires: state.expires ?? null,
        vat_rate: r.vatRate,
        vat_rule: r.vatRule,
        promo_code: r.promoCode,
        promo_percent: r.promoPercent,
        created_at: created,
        synced_at: now,
      });
      const current = await findCurrentSubscription(client, op.user_id);
      if (current?.id === row.id) await announceEntitlement(client, row, now);
      return row;
    }

    const row = await findSubscriptionById(client, op.subscription_id, { forUpdate: true });
    if (!row) throw new Error(`operation ${op.id}: subscription ${op.subscription_id} is not ours`);
    if (op.kind === 'change') {
      const r = op.request as ChangeRequest;
      if (r.customer) await saveCustomer(client, op.user_id, r.customer, now);
      return applyProviderState(client, row, p, now, {
        plan: r.plan,
        billing_period: r.period,
        seats: r.seats,
        vat_rate: r.vatRate,
        vat_rule: r.vatRule,
      });
    }
    return applyProviderState(client, row, p, now, { cancelled_at: row.cancelled_at ?? now });
  });
}
