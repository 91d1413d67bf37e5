/** Every endpoint of the billing service, one per operation in `billingOperations` (proto). */
import type { Endpoint } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { BillingOperation } from '@wb/proto';
import type { BillingDeps } from '../commands/deps';
import { clientTokenGetHandler } from './clientTokenGet';
import { invoicePdfHandler } from './invoicePdf';
import { invoicesListHandler } from './invoicesList';
import { subscriptionCancelHandler } from './subscriptionCancel';
import { subscriptionCreateHandler } from './subscriptionCreate';
import { subscriptionGetHandler } from './subscriptionGet';
import { subscriptionUpdateHandler } from './subscriptionUpdate';
import { trialAvailableHandler } from './trialAvailable';
import { trialStartHandler } from './trialStart';
import { webhookReceiveHandler } from './webhookReceive';

/** keyed by operation so the compiler says when one is missing */
const HANDLERS: Record<BillingOperation, (deps: BillingDeps) => Endpoint> = {
  'subscription.get': subscriptionGetHandler,
  'trial.available': trialAvailableHandler,
  'trial.start': trialStartHandler,
  'clientToken.get': clientTokenGetHandler,
  'subscription.create': subscriptionCreateHandler,
  'subscription.update': subscriptionUpdateHandler,
  'subscription.cancel': subscriptionCancelHandler,
  'invoices.list': invoicesListHandler,
  'invoice.pdf': invoicePdfHandler,
  'webhook.receive': webhookReceiveHandler,
};

/** counts every outcome (ok or the error code) per operation: billing_commands_total */
function counted(deps: BillingDeps, ep: Endpoint): Endpoint {
  const handler = ep.handler.bind(ep);
  return {
    ...ep,
    async handler(input, ctx) {
      try {
        const out = await handler(input, ctx);
        deps.metrics.commands.inc({ operation: ep.operation, outcome: 'ok' });
        return out;
      } catch (err) {
        deps.metrics.commands.inc({
          operation: ep.operation,
          outcome: err instanceof AppError ? err.code : 'ERR_UNKNOWN',
        });
        throw err;
      }
    },
  };
}

export function buildEndpoints(deps: BillingDeps): Endpoint[] {
  return Object.values(HANDLERS).map((make) => counted(deps, make(deps)));
}
