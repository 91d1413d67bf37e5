import { endpoint } from '@wb/platform';
import { billingOperations } from '@wb/proto';
import type { BillingDeps } from '../commands/deps';
import { changeSubscription } from '../commands/subscriptionChanger';

/** PUT /api/billing/subscription */
export const subscriptionUpdateHandler = (deps: BillingDeps) =>
  endpoint({
    operation: 'subscription.update',
    ...billingOperations['subscription.update'],
    handler: (input, ctx) => changeSubscription(deps, input, ctx.actor),
  });
