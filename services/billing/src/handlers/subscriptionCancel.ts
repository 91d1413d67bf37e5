import { endpoint } from '@wb/platform';
import { billingOperations } from '@wb/proto';
import type { BillingDeps } from '../commands/deps';
import { cancelSubscription } from '../commands/subscriptionCanceller';

/** POST /api/billing/subscription/cancel */
export const subscriptionCancelHandler = (deps: BillingDeps) =>
  endpoint({
    operation: 'subscription.cancel',
    ...billingOperations['subscription.cancel'],
    handler: (input, ctx) => cancelSubscription(deps, input, ctx.actor),
  });
