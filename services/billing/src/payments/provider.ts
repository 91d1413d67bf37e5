/**
 * The payment-provider boundary of billing. Commands talk to this interface in the domain's
 * terms (customers, subscriptions, charges, webhook events); only `braintreeProvider.ts` knows
 * Braintree. Another provider, or an in-memory double for command tests, implements the same
 * interface.
 *
 * Errors: every failure of the provider leaves as `AppError('ERR_BRAINTREE', readable message)`
 * (declined card, consumed nonce, gateway error, timeout…), never as a raw SDK exception. The
 * original error, when there is one, is kept in `cause` for the logs only (AppError.toBody()
 * does not carry it to clients). An unknown subscription is `null`, not an error. A webhook
 * whose signature does not verify is `AppError('ERR_FORBIDDEN')`.
 *
 * Idempotency: Braintree has no idempotency header, so the caller's `idempotencyKey` becomes the
 * ids of what subscribe() creates: the vaulted payment method's token and the subscription's id
 * are both derived from it (`idempotentId`). A retry (after a timeout, a crash, a NATS
 * redelivery) first looks them up and reuses what the first attempt created, so the customer is
 * charged at most once and the nonce (single use) is not spent twice. Two concurrent attempts
 * race on the id: Braintree refuses the second create ("id has already been taken"), which is
 * also answered with the existing subscription.
 */
import type { BillingForm, SubscriptionStatus } from '@wb/proto';

export interface ProviderCustomerInput {
  /** our user id; the provider's customer id is derived from it */
  id: number;
  email: string;
  name?: string | null;
}

export interface ProviderCustomer {
  customerId: string;
}

export interface SubscribeInput {
  customerId: string;
  /** single-use payment method nonce from Drop-in (or a test nonce); or else… */
  nonce?: string;
  /** …a payment method the customer already has at the provider (a period change keeps the card) */
  paymentMethodToken?: string;
  /** provider plan id, see `billingPlanId(plan, period)` in proto */
  planId: string;
  /**
   * What one billing cycle costs in total, in cents, VAT included: `priceOf(plan, period,
   * seats).totalCents` plus VAT. Braintree has no notion of seats (short of add-ons configured
   * per plan in its control panel): seats live in billing's own tables, Braintree sees the price.
   */
  amountCents: number;
  /** same key on a retry = same subscription; 1–40 characters of A-Z a-z 0-9 _ - */
  idempotencyKey: string;
  /** a future date starts a trial: nothing is charged until then (spec §9: 7 days) */
  firstBillingDate?: Date;
  /**
   * false: a future first billing date is not a trial but the start of a paid subscription that
   * follows another one (a period change), so its id is `sub-<key>`, never `trial-<key>`
   */
  trial?: boolean;
}

export interface ChangeSubscriptionInput {
  subscriptionId: string;
  planId?: string;
  /** new price per billing cycle, from the next billing date on (no proration) */
  amountCents?: number;
  /** a new payment method; a past-due subscription is charged again with it */
  nonce?: string;
}

export interface ProviderCharge {
  id: string;
  /** cents, positive for a payment and a refund alike: see `type` */
  amountCents: number;
  currency: string;
  type: 'payment' | 'refund' | 'unknown';
  /** settled, or pending (authorised, submitted or settling) */
  status: 'settled' | 'pending';
  createdAt: Date;
  subscriptionId: string | null;
}

export interface ProviderSubscription {
  id: string;
  planId: string;
  status: SubscriptionStatus;
  /** cents per billing cycle */
  amountCents: number;
  /** cents; negative = credit in the customer's favour */
  balanceCents: number;
  firstBillingDate: string | null;
  nextBillingDate: string | null;
  /** end of the period that is paid for: the plan stays active until then */
  paidThroughDate: string | null;
  /** true while the first billing date is in the future */
  trialing: boolean;
  /** the vaulted payment method it charges */
  paymentMethodToken: string | null;
  createdAt: Date;
}

export const WEBHOOK_KINDS = [
  'subscription_charged_successfully',
  'subscription_charged_unsuccessfully',
  'subscription_went_active',
  'subscription_went_past_due',
  'subscription_canceled',
  'subscription_expired',
  'subscription_trial_ended',
] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

export interface ProviderWebhookEvent {
  /** one of WEBHOOK_KINDS, or 'other' (a kind billing does not act on; `rawKind` tells which) */
  kind: WebhookKind | 'other';
  rawKind: string;
  timestamp: Date;
  subscriptionId: string | null;
  subscription: ProviderSubscription | null;
}

export interface PaymentProvider {
  /** a token for Drop-in in the browser; for a known customer, their saved methods show */
  clientToken(customerId?: string): Promise<string>;
  /** creates the provider's customer for the user, or updates its billing details */
  ensureCustomer(user: ProviderCustomerInput, billingForm: BillingForm): Promise<ProviderCustomer>;
  /** vaults the nonce and starts the subscription; idempotent by `idempotencyKey` */
  subscribe(input: SubscribeInput): Promise<ProviderSubscription>;
  changeSubscription(input: ChangeSubscriptionInput): Promise<ProviderSubscription>;
  /** cancels at once on the provider's side; cancelling a cancelled subscription is a no-op */
  cancelSubscription(subscriptionId: string): Promise<ProviderSubscription>;
  findSubscription(subscriptionId: string): Promise<ProviderSubscription | null>;
  /** the customer's payments and refunds, newest first; failed and voided ones left out */
  listTransactions(customerId: string): Promise<ProviderCharge[]>;
  /** verifies and decodes a webhook (bt_signature, bt_payload) */
  parseWebhook(signature: string, payload: string): Promise<ProviderWebhookEvent>;
}

/**
 * Whether a failed provider call was *refused* by the provider — it answered and said no
 * (declined card, failed verification, invalid or consumed nonce, validation error) — so that
 * call created and charged nothing. False for every other failure (timeout, 5xx, refused
 * connection, bad credentials): then the outcome is unknown, the provider may have done the work,
 * and only asking it again later (reconciliation) tells.
 */
export function wasRefused(err: unknown): boolean {
  return (err as { refused?: unknown } | null)?.refused === true;
}

/** Ids Braintree accepts for customers, tokens and subscriptions: A-Z a-z 0-9 _ -, ≤ 36. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;

/**
 * A provider id derived from an idempotency key: "<prefix>-<key>". The key must be 1–40 id
 * characters and the result at most 36 characters in Braintree, so keys longer than
 * `36 - prefix.length - 1` are hashed by the caller (e.g. a base64url sha256 prefix).
 */
export function idempotentId(prefix: string, key: string): string {
  if (!ID_PATTERN.test(key)) throw new RangeError(`idempotency key must match ${String(ID_PATTERN)}`);
  const id = `${prefix}-${key}`;
  if (id.length > 36) throw new RangeError(`idempotent id "${id}" is longer than 36 characters`);
  return id;
}

/** The provider's customer id for one of our users. */
export function customerIdFor(userId: number): string {
  return `wb-user-${userId}`;
}
