/** Billing metrics, registered in the platform's registry (served on /metrics by the health server). */
import { counter } from '@wb/platform';
import type { Counter, Registry } from 'prom-client';

export interface BillingMetrics {
  /** operation: the NATS operation; outcome: ok or the error code */
  commands: Counter<'operation' | 'outcome'>;
  /**
   * kind: trial | subscribe | change | cancel; outcome: ok, refused (declined/invalid at the
   * provider), unknown (timeout or provider error: left pending), replayed (a retried request
   * answered from an earlier success)
   */
  subscriptions: Counter<'kind' | 'outcome'>;
  /** operation: the provider call; reason: refused | unavailable | not_found */
  providerErrors: Counter<'operation' | 'reason'>;
  /** kind: the notification kind; result: applied | duplicate | unknown_subscription | ignored */
  webhooks: Counter<'kind' | 'result'>;
  /** result: completed | rolled_back | pending (pending operations finished from the provider's truth) */
  reconciled: Counter<'result'>;
  /** reason: trial_ended | period_ended | provider (plans taken away when a subscription stopped giving one) */
  lapsed: Counter<'reason'>;
}

export function createBillingMetrics(registry: Registry): BillingMetrics {
  return {
    commands: counter(registry, 'billing_commands_total', 'Billing operations by outcome (ok or error code)', [
      'operation',
      'outcome',
    ]),
    subscriptions: counter(
      registry,
      'billing_subscriptions_total',
      'Subscription changes by kind and outcome (ok, refused, unknown, replayed)',
      ['kind', 'outcome'],
    ),
    providerErrors: counter(registry, 'billing_provider_errors_total', 'Failed payment provider calls', [
      'operation',
      'reason',
    ]),
    webhooks: counter(registry, 'billing_webhooks_total', 'Webhook notifications by kind and result', [
      'kind',
      'result',
    ]),
    reconciled: counter(registry, 'billing_reconciled_total', 'Pending provider operations reconciled, by result', [
      'result',
    ]),
    lapsed: counter(registry, 'billing_entitlements_lapsed_total', 'Plans taken away when a period ended', ['reason']),
  };
}
