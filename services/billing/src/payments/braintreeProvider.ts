/**
 * PaymentProvider on the real `braintree` SDK (3.x). The SDK speaks to Braintree's sandbox or
 * production, or — with a URL as environment — to any host, e.g. the local fake
 * (`src/testing/fakeBraintree.ts`). Every SDK exception and every `success: false` result is
 * turned into an AppError here; see provider.ts for the error and idempotency contracts.
 */
import { randomBytes } from 'node:crypto';
import braintree from 'braintree';
import { AppError, centsToDecimal, decimalToCents, type BillingForm, type SubscriptionStatus } from '@wb/proto';
import {
  customerIdFor,
  idempotentId,
  WEBHOOK_KINDS,
  type ChangeSubscriptionInput,
  type PaymentProvider,
  type ProviderCharge,
  type ProviderCustomer,
  type ProviderCustomerInput,
  type ProviderSubscription,
  type ProviderWebhookEvent,
  type SubscribeInput,
  type WebhookKind,
} from './provider';

export interface BraintreeConfig {
  /** 'sandbox', 'production', or a base URL such as http://127.0.0.1:4010 (the fake) */
  environment: string;
  merchantId: string;
  publicKey: string;
  privateKey: string;
  /** per request; the SDK's default is 60 s */
  timeoutMs?: number;
}

/** The SDK environment for BRAINTREE_ENVIRONMENT: sandbox, production or a URL. */
export function braintreeEnvironment(environment: string): braintree.Environment {
  if (environment === 'sandbox') return braintree.Environment.Sandbox;
  if (environment === 'production') return braintree.Environment.Production;
  let url: URL;
  try {
    url = new URL(environment);
  } catch {
    throw new RangeError(`BRAINTREE_ENVIRONMENT must be sandbox, production or a URL, got "${environment}"`);
  }
  const ssl = url.protocol === 'https:';
  const port = url.port || (ssl ? '443' : '80');
  return new braintree.Environment(url.hostname, port, url.origin, ssl, url.hostname, port);
}

export function createBraintreeGateway(config: BraintreeConfig): braintree.BraintreeGateway {
  const gateway = new braintree.BraintreeGateway({
    environment: braintreeEnvironment(config.environment),
    merchantId: config.merchantId,
    publicKey: config.publicKey,
    privateKey: config.privateKey,
  });
  // not in the constructor's options: the SDK reads config.timeout on every request
  if (config.timeoutMs) (gateway.config as { timeout: number }).timeout = config.timeoutMs;
  return gateway;
}

// --- what the SDK hands back, as far as this file reads it ------------------------------------

interface BtError {
  code: string;
  attribute?: string;
  message: string;
}
interface BtResult {
  success: boolean;
  message?: string;
  errors?: { deepErrors(): BtError[] };
  transaction?: BtTransaction;
  verification?: { status?: string; processorResponseCode?: string; processorResponseText?: string };
  subscription?: BtSubscription;
  clientToken?: string;
  paymentMethod?: { token: string };
}
interface BtTransaction {
  id: string;
  amount: string;
  currencyIsoCode?: string;
  type?: string;
  status?: string;
  createdAt?: string | Date;
  subscriptionId?: string | null;
  processorResponseCode?: string;
  processorResponseText?: string;
  gatewayRejectionReason?: string;
}
interface BtSubscription {
  id: string;
  planId: string;
  status: string;
  price: string;
  balance?: string;
  firstBillingDate?: string | null;
  nextBillingDate?: string | null;
  paidThroughDate?: string | null;
  paymentMethodToken?: string | null;
  createdAt?: string | Date;
}

const NOT_REACHABLE = 'The payment provider is not reachable at the moment, please try again';
const UNAVAILABLE = 'Payments are temporarily unavailable, please try again later';

function braintreeError(message: string, cause?: unknown): AppError {
  const err = new AppError('ERR_BRAINTREE', message);
  if (cause !== undefined) (err as Error).cause = cause;
  return err;
}

/** SDK exceptions (err.type) → AppError; an AppError passes through. */
function fromException(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const type = (err as { type?: string } | null)?.type;
  switch (type) {
    case 'authenticationError':
    case 'authorizationError':
    case 'upgradeRequired':
      return braintreeError(UNAVAILABLE, err);
    case 'tooManyRequestsError':
      return braintreeError('The payment provider is busy, please try again in a minute', err);
    default:
      // serverError, serviceUnavailableError, gatewayTimeoutError, requestTimeoutError,
      // unexpectedError (timeouts, refused connections, unparsable answers) and anything else
      return braintreeError(NOT_REACHABLE, err);
  }
}

function isNotFound(err: unknown): boolean {
  return (err as { type?: string } | null)?.type === 'notFoundError';
}

function errorCodes(result: BtResult): string[] {
  return result.errors?.deepErrors().map((e) => e.code) ?? [];
}

const READABLE_CODES: Record<string, string> = {
  '93107': 'This payment method was already used, please enter your payment details again',
  '91731': 'This payment method was already used, please enter your payment details again',
  '93108': 'The payment details have expired, please enter them again',
  '91732': 'The payment details have expired, please enter them again',
  '91904': 'This plan cannot be bought at the moment',
  '81901': 'This subscription is cancelled and cannot be changed',
  '91922': 'The billing period cannot be changed on this subscription',
};

/**
 * A `success: false` result → AppError with a message a customer can act on, marked `refused`
 * (provider.ts `wasRefused`): Braintree answered and did not do it.
 */
function fromFailedResult(result: BtResult, what: string): AppError {
  const err = describeFailedResult(result, what);
  (err as AppError & { refused: true }).refused = true;
  return err;
}

function describeFailedResult(result: BtResult, what: string): AppError {
  const tx = result.transaction;
  if (tx && (tx.status === 'processor_declined' || tx.status === 'settlement_declined')) {
    return braintreeError(
      `Your card was declined by the bank (${tx.processorResponseText ?? 'declined'}). Please use another card.`,
      result,
    );
  }
  if (tx && tx.status === 'gateway_rejected') {
    return braintreeError('The payment was rejected, please check your payment details or use another card', result);
  }
  const verification = result.verification;
  if (verification && verification.status && verification.status !== 'verified') {
    return braintreeError(
      `Your card could not be verified (${verification.processorResponseText ?? verification.status}). Please use another card.`,
      result,
    );
  }
  const known = errorCodes(result)
    .map((c) => READABLE_CODES[c])
    .find(Boolean);
  return braintreeError(known ?? `Could not ${what}: ${result.message ?? 'the payment provider refused it'}`, result);
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw fromException(err);
  }
}

const STATUSES: readonly SubscriptionStatus[] = ['Active', 'Canceled', 'Expired', 'Past Due', 'Pending'];

function toDate(value: string | Date | undefined): Date {
  if (value instanceof Date) return value;
  const d = value ? new Date(value) : new Date(NaN);
  return d;
}

export function toProviderSubscription(sub: BtSubscription): ProviderSubscription {
  const status = STATUSES.find((s) => s === sub.status);
  if (!status) throw braintreeError(NOT_REACHABLE, new Error(`unknown subscription status ${sub.status}`));
  return {
    id: sub.id,
    planId: sub.planId,
    status,
    amountCents: decimalToCents(sub.price),
    balanceCents: sub.balance ? decimalToCents(sub.balance) : 0,
    firstBillingDate: sub.firstBillingDate || null,
    nextBillingDate: sub.nextBillingDate || null,
    paidThroughDate: sub.paidThroughDate || null,
    trialing: status === 'Pending',
    paymentMethodToken: sub.paymentMethodToken || null,
    createdAt: toDate(sub.createdAt),
  };
}

function toCharge(tx: BtTransaction): ProviderCharge | null {
  const settled = tx.status === 'settled' || tx.status === 'settlement_confirmed';
  const pending = ['authorized', 'submitted_for_settlement', 'settling', 'settlement_pending'].includes(
    tx.status ?? '',
  );
  if (!settled && !pending) return null; // failed, declined, rejected, voided, expired: not an invoice
  return {
    id: tx.id,
    amountCents: decimalToCents(tx.amount),
    currency: tx.currencyIsoCode ?? 'EUR',
    type: tx.type === 'sale' ? 'payment' : tx.type === 'credit' ? 'refund' : 'unknown',
    status: settled ? 'settled' : 'pending',
    createdAt: toDate(tx.createdAt),
    subscriptionId: tx.subscriptionId || null,
  };
}

/** "2025-06-22" in UTC: Braintree billing dates are days. */
function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export class BraintreeProvider implements PaymentProvider {
  readonly gateway: braintree.BraintreeGateway;

  constructor(
    config: BraintreeConfig | braintree.BraintreeGateway,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.gateway = config instanceof braintree.BraintreeGateway ? config : createBraintreeGateway(config);
  }

  async clientToken(customerId?: string): Promise<string> {
    const result = (await call(() =>
      this.gateway.clientToken.generate(customerId ? { customerId } : {}),
    )) as unknown as BtResult;
    if (!result.success || !result.clientToken) throw fromFailedResult(result, 'prepare the payment form');
    return result.clientToken;
  }

  async ensureCustomer(user: ProviderCustomerInput, form: BillingForm): Promise<ProviderCustomer> {
    const customerId = customerIdFor(user.id);
    const details = {
      firstName: form.first_name,
      lastName: form.last_name,
      email: form.email,
      company: form.company || undefined,
    };
    const update = async (): Promise<BtResult | null> => {
      try {
        return (await this.gateway.customer.update(customerId, details)) as unknown as BtResult;
      } catch (err) {
        if (isNotFound(err)) return null;
        throw fromException(err);
      }
    };
    let result = await update();
    if (!result) {
      result = (await call(() => this.gateway.customer.create({ id: customerId, ...details }))) as unknown as BtResult;
      // created meanwhile by a concurrent call: update it instead
      if (!result.success && errorCodes(result).includes('91609')) result = await update();
    }
    if (!result || !result.success) throw fromFailedResult(result ?? { success: false }, 'save the billing details');
    return { customerId };
  }

  async subscribe(input: SubscribeInput): Promise<ProviderSubscription> {
    const later = !!input.firstBillingDate && input.firstBillingDate.getTime() > this.now().getTime();
    // spec §4: a subscription id starting with "trial-" marks a trial
    const subscriptionId = idempotentId(later && input.trial !== false ? 'trial' : 'sub', input.idempotencyKey);
    const existing = await this.findSubscription(subscriptionId);
    if (existing) return existing; // a retry: created (and charged) by an earlier attempt

    let token = input.paymentMethodToken;
    if (!token) {
      if (!input.nonce) throw new RangeError('subscribe needs a nonce or a payment method token');
      token = await this.vault(input.customerId, input.nonce, idempotentId('pm', input.idempotencyKey));
    }
    const request = {
      id: subscriptionId,
      paymentMethodToken: token,
      planId: input.planId,
      price: centsToDecimal(input.amountCents),
      ...(later ? { firstBillingDate: day(input.firstBillingDate!) } : {}),
    };
    const result = (await call(() =>
      this.gateway.subscription.create(request as braintree.SubscriptionCreateRequest),
    )) as unknown as BtResult;
    if (result.success && result.subscription) return toProviderSubscription(result.subscription);
    if (errorCodes(result).includes('81902')) {
      // a concurrent attempt with the same key won the race
      const winner = await this.findSubscription(subscriptionId);
      if (winner) return winner;
    }
    throw fromFailedResult(result, 'start the subscription');
  }

  /** Vaults a nonce under `token`, or reuses the method an earlier attempt vaulted. */
  private async vault(customerId: string, nonce: string, token: string): Promise<string> {
    try {
      await this.gateway.paymentMethod.find(token);
      return token;
    } catch (err) {
      if (!isNotFound(err)) throw fromException(err);
    }
    const result = (await call(() =>
      this.gateway.paymentMethod.create({
        customerId,
        paymentMethodNonce: nonce,
        token,
        options: { verifyCard: true, makeDefault: true },
      } as braintree.PaymentMethodCreateRequest),
    )) as unknown as BtResult;
    if (result.success) return token;
    // a concurrent twin vaulted it first (token taken, or the single-use nonce spent by the twin)
    try {
      await this.gateway.paymentMethod.find(token);
      return token;
    } catch (err) {
      if (!isNotFound(err)) throw fromException(err);
    }
    throw fromFailedResult(result, 'save the payment method');
  }

  async changeSubscription(input: ChangeSubscriptionInput): Promise<ProviderSubscription> {
    const current = await this.findSubscription(input.subscriptionId);
    if (!current) throw new AppError('ERR_NOT_FOUND', 'Subscription not found');
    let paymentMethodToken: string | undefined;
    if (input.nonce) {
      const customerId = await this.customerOf(input.subscriptionId);
      paymentMethodToken = await this.vault(customerId, input.nonce, `pm-${randomBytes(12).toString('base64url')}`);
    }
    const updates = {
      ...(input.planId ? { planId: input.planId } : {}),
      ...(input.amountCents !== undefined ? { price: centsToDecimal(input.amountCents) } : {}),
      ...(paymentMethodToken ? { paymentMethodToken } : {}),
    };
    let updated = current;
    if (Object.keys(updates).length > 0) {
      const result = (await call(() =>
        this.gateway.subscription.update(input.subscriptionId, updates as braintree.SubscriptionUpdateRequest),
      )) as unknown as BtResult;
      if (!result.success || !result.subscription) throw fromFailedResult(result, 'change the subscription');
      updated = toProviderSubscription(result.subscription);
    }
    if (paymentMethodToken && updated.status === 'Past Due') {
      // spec §4: adding a payment method resumes a past-due subscription: charge the balance now
      const retry = (await call(() =>
        this.gateway.subscription.retryCharge(input.subscriptionId, undefined, true),
      )) as unknown as BtResult;
      if (!retry.success) throw fromFailedResult(retry, 'charge the new payment method');
      return (await this.findSubscription(input.subscriptionId)) ?? updated;
    }
    return updated;
  }

  private async customerOf(subscriptionId: string): Promise<string> {
    const sub = (await call(() => this.gateway.subscription.find(subscriptionId))) as unknown as {
      paymentMethodToken: string;
    };
    const method = (await call(() => this.gateway.paymentMethod.find(sub.paymentMethodToken))) as unknown as {
      customerId: string;
    };
    return method.customerId;
  }

  async cancelSubscription(subscriptionId: string): Promise<ProviderSubscription> {
    let result: BtResult;
    try {
      result = (await this.gateway.subscription.cancel(subscriptionId)) as unknown as BtResult;
    } catch (err) {
      if (isNotFound(err)) throw new AppError('ERR_NOT_FOUND', 'Subscription not found');
      throw fromException(err);
    }
    if (result.success && result.subscription) return toProviderSubscription(result.subscription);
    if (errorCodes(result).includes('81905')) {
      const already = await this.findSubscription(subscriptionId);
      if (already) return already; // cancelled before: nothing to do
    }
    throw fromFailedResult(result, 'cancel the subscription');
  }

  async findSubscription(subscriptionId: string): Promise<ProviderSubscription | null> {
    try {
      const sub = (await this.gateway.subscription.find(subscriptionId)) as unknown as BtSubscription;
      return toProviderSubscription(sub);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw fromException(err);
    }
  }

  async listTransactions(customerId: string): Promise<ProviderCharge[]> {
    const found = await new Promise<BtTransaction[]>((resolve, reject) => {
      const items: BtTransaction[] = [];
      const stream = this.gateway.transaction.search((search: { customerId(): { is(v: string): void } }) => {
        search.customerId().is(customerId);
      });
      stream.on('data', (tx: BtTransaction) => items.push(tx));
      stream.on('error', (err: unknown) => reject(fromException(err)));
      stream.on('end', () => resolve(items));
    });
    return found
      .map(toCharge)
      .filter((c): c is ProviderCharge => c !== null)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }

  async parseWebhook(signature: string, payload: string): Promise<ProviderWebhookEvent> {
    let notification: { kind: string; timestamp: string | Date; subscription?: BtSubscription };
    try {
      notification = (await this.gateway.webhookNotification.parse(
        signature,
        payload,
      )) as unknown as typeof notification;
    } catch (err) {
      if ((err as { type?: string } | null)?.type === 'invalidSignatureError') {
        const forbidden = new AppError('ERR_FORBIDDEN', 'Invalid webhook signature');
        (forbidden as Error).cause = err;
        throw forbidden;
      }
      const invalid = new AppError('ERR_INVALID_INPUT', 'Unreadable webhook payload');
      (invalid as Error).cause = err;
      throw invalid;
    }
    const kind = (WEBHOOK_KINDS as readonly string[]).includes(notification.kind)
      ? (notification.kind as WebhookKind)
      : 'other';
    const raw = notification.subscription;
    // the SDK's sample notifications carry only an id; real ones carry the whole subscription
    const complete = raw && raw.status && raw.price !== undefined && raw.planId !== undefined;
    return {
      kind,
      rawKind: notification.kind,
      timestamp: toDate(notification.timestamp),
      subscriptionId: raw?.id ?? null,
      subscription: complete ? toProviderSubscription(raw) : null,
    };
  }
}
