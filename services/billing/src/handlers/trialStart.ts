import { endpoint } from '@wb/platform';
import { billingOperations } from '@wb/proto';
import type { BillingDeps } from '../commands/deps';
import { startTrial } from '../commands/trialStarter';

/** POST /api/billing/trial */
export const trialStartHandler = (deps: BillingDeps) =>
  endpoint({
    operation: 'trial.start',
    ...billingOperations['trial.start'],
    handler: (input, ctx) => startTrial(deps, input, ctx.actor),
  });
