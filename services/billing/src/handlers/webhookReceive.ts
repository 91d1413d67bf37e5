import { endpoint } from '@wb/platform';
import { billingOperations } from '@wb/proto';
import type { BillingDeps } from '../commands/deps';
import { receiveWebhook } from '../commands/webhookHandler';

/** POST /api/billing/webhooks (Braintree; no session: the signature authenticates it) */
export const webhookReceiveHandler = (deps: BillingDeps) =>
  endpoint({
    operation: 'webhook.receive',
    ...billingOperations['webhook.receive'],
    handler: (input) => receiveWebhook(deps, input),
  });
