import { endpoint } from '@wb/platform';
import { billingOperations } from '@wb/proto';
import type { BillingDeps } from '../commands/deps';
import { clientToken } from '../commands/subscriptionReader';

/** GET /api/billing/client-token */
export const clientTokenGetHandler = (deps: BillingDeps) =>
  endpoint({
    operation: 'clientToken.get',
    ...billingOperations['clientToken.get'],
    handler: (_input, ctx) => clientToken(deps, ctx.actor),
  });
