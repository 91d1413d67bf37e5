/**
 * Who may do what with a subscription (spec §4, §5), in one place. Pure functions of the stored
 * rows and the clock; the commands call them.
 */
import { AppError, CANCEL_SUBSCRIPTION_CONFIRMATION_PHRASE, planIsActive } from '@wb/proto';
import { presentSubscription } from '../presenters/subscription';
import type { SubscriptionRow } from '../repositories/subscriptions';

/**
 * The free trial is once per person, ever: not after an earlier trial, and not for someone who
 * has (or had) a subscription of their own.
 */
export function canHaveFreeTrial(state: { claimedBefore: boolean; subscriptions: number }): boolean {
  return !state.claimedBefore && state.subscriptions === 0;
}

export function assertTrialAvailable(state: { claimedBefore: boolean; subscriptions: number }): void {
  if (!canHaveFreeTrial(state)) throw new AppError('ERR_TRIAL_UNAVAILABLE');
}

/** Whether the subscription gives its plan now (spec §4 states trial, active, cancelled, past due). */
export function givesPlan(row: SubscriptionRow, now: Date): boolean {
  return planIsActive(presentSubscription(row), now);
}

/** A card-less trial that has not ended: subscribing now starts billing when it ends. */
export function isRunningLocalTrial(row: SubscriptionRow | null, now: Date): row is SubscriptionRow {
  return !!row && !row.at_provider && row.status !== 'Canceled' && !!row.expires && row.expires > now;
}

/**
 * POST /api/billing/subscription on top of a running provider subscription (Active, Past Due, or
 * a trial with a card) changes that one — a new card, plan, period or seats — instead of
 * charging a second subscription. Cancelled, expired and card-less ones get a new subscription.
 */
export function upgradesInPlace(row: SubscriptionRow | null): boolean {
  return !!row && row.at_provider && (row.status === 'Active' || row.status === 'Past Due' || row.status === 'Pending');
}

/** PUT: the subscription must still be running (a trial, paid, or past due). */
export function assertChangeable(row: SubscriptionRow | null, now: Date): asserts row is SubscriptionRow {
  if (!row || row.status === 'Canceled' || row.status === 'Expired' || !givesPlan(row, now)) {
    throw new AppError('ERR_NOT_FOUND', 'There is no running subscription to change');
  }
}

/** Spec §5: the confirmation phrase must be typed to cancel the subscription. */
export function assertCancelConfirmed(confirmation: string): void {
  if (confirmation.trim() !== CANCEL_SUBSCRIPTION_CONFIRMATION_PHRASE) {
    throw new AppError('ERR_CONFIRMATION_FAILED', undefined, {
      confirmation: `type ${CANCEL_SUBSCRIPTION_CONFIRMATION_PHRASE}`,
    });
  }
}

export function assertCancellable(row: SubscriptionRow | null): asserts row is SubscriptionRow {
  if (!row || row.status === 'Expired') throw new AppError('ERR_NOT_FOUND', 'There is no subscription to cancel');
}
