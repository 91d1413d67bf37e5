/** Every endpoint of the billing service, one per operation in `billingOperations` (proto). */
import { countOutcomes } from '@wb/platform';
import type { Endpoint } from '@wb/platform';
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

export function buildEndpoints(deps: BillingDeps): Endpoint[] {
  return Object.values(HANDLERS).map((make) => countOutcomes(make(deps), deps.metrics.commands));
}
