/**
 * A PaymentProvider wrapper that gives every provider call a client span (`braintree.<call>`),
 * counts failures in billing_provider_errors_total and logs them without card data: only the
 * operation, the error code and the readable message (never the nonce, never `err.cause`, which
 * holds the SDK's answer and may echo request parameters).
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Logger } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { BillingMetrics } from '../metrics';
import { wasRefused } from './provider';
import type { PaymentProvider } from './provider';

const tracer = trace.getTracer('@wb/billing/provider');

export class InstrumentedProvider implements PaymentProvider {
  constructor(
    private readonly inner: PaymentProvider,
    private readonly metrics: BillingMetrics,
    private readonly log: Logger,
  ) {}

  private async call<T>(operation: string, attributes: Record<string, string>, fn: () => Promise<T>): Promise<T> {
    return tracer.startActiveSpan(
      `braintree.${operation}`,
      { kind: SpanKind.CLIENT, attributes: { 'wb.provider': 'braintree', ...attributes } },
      async (span) => {
        try {
          return await fn();
        } catch (err) {
          const code = err instanceof AppError ? err.code : 'ERR_UNKNOWN';
          const reason = wasRefused(err) ? 'refused' : code === 'ERR_NOT_FOUND' ? 'not_found' : 'unavailable';
          this.metrics.providerErrors.inc({ operation, reason });
          span.setAttribute('wb.error_code', code);
          span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
          this.log.warn({ operation, code, reason, message: (err as Error).message }, 'payment provider call failed');
          throw err;
        } finally {
          span.end();
        }
      },
    );
  }

  clientToken(customerId?: string): Promise<string> {
    return this.call('clientToken', {}, () => this.inner.clientToken(customerId));
  }
  ensureCustomer(...args: Parameters<PaymentProvider['ensureCustomer']>) {
    return this.call('ensureCustomer', {}, () => this.inner.ensureCustomer(...args));
  }
  subscribe(input: Parameters<PaymentProvider['subscribe']>[0]) {
    // the nonce stays out of the attributes
    return this.call('subscribe', { 'wb.idempotency_key': input.idempotencyKey, 'wb.plan_id': input.planId }, () =>
      this.inner.subscribe(input),
    );
  }
  changeSubscription(input: Parameters<PaymentProvider['changeSubscription']>[0]) {
    return this.call('changeSubscription', { 'wb.subscription_id': input.subscriptionId }, () =>
      this.inner.changeSubscription(input),
    );
  }
  cancelSubscription(subscriptionId: string) {
    return this.call('cancelSubscription', { 'wb.subscription_id': subscriptionId }, () =>
      this.inner.cancelSubscription(subscriptionId),
    );
  }
  findSubscription(subscriptionId: string) {
    return this.call('findSubscription', { 'wb.subscription_id': subscriptionId }, () =>
      this.inner.findSubscription(subscriptionId),
    );
  }
  listTransactions(customerId: string) {
    return this.call('listTransactions', {}, () => this.inner.listTransactions(customerId));
  }
  parseWebhook(signature: string, payload: string) {
    return this.call('parseWebhook', {}, () => this.inner.parseWebhook(signature, payload));
  }
}
