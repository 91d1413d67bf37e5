import { endpoint } from '@wb/platform';
import { billingOperations } from '@wb/proto';
import type { BillingDeps } from '../commands/deps';
import { freeTrialAvailable } from '../commands/subscriptionReader';

/** GET /api/billing/free-trial */
export const trialAvailableHandler = (deps: BillingDeps) =>
  endpoint({
    operation: 'trial.available',
    ...billingOperations['trial.available'],
    handler: (_input, ctx) => freeTrialAvailable(deps, ctx.actor),
  });
