import { endpoint } from '@wb/platform';
import { billingOperations } from '@wb/proto';
import type { BillingDeps } from '../commands/deps';
import { listUserInvoices } from '../commands/invoices';

/** GET /api/billing/invoices */
export const invoicesListHandler = (deps: BillingDeps) =>
  endpoint({
    operation: 'invoices.list',
    ...billingOperations['invoices.list'],
    handler: (_input, ctx) => listUserInvoices(deps, ctx.actor),
  });
