import { endpoint } from '@wb/platform';
import { billingOperations } from '@wb/proto';
import type { BillingDeps } from '../commands/deps';
import { subscribe } from '../commands/subscriber';

/** POST /api/billing/subscription */
export const subscriptionCreateHandler = (deps: BillingDeps) =>
  endpoint({
    operation: 'subscription.create',
    ...billingOperations['subscription.create'],
    handler: (input, ctx) => subscribe(deps, input, ctx.actor),
  });
