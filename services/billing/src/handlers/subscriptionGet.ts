import { endpoint } from '@wb/platform';
import { billingOperations } from '@wb/proto';
import type { BillingDeps } from '../commands/deps';
import { getSubscription } from '../commands/subscriptionReader';

/** GET /api/billing/subscription */
export const subscriptionGetHandler = (deps: BillingDeps) =>
  endpoint({
    operation: 'subscription.get',
    ...billingOperations['subscription.get'],
    handler: (_input, ctx) => getSubscription(deps, ctx.actor),
  });
