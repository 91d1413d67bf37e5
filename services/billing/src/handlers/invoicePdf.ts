import { endpoint } from '@wb/platform';
import { billingOperations } from '@wb/proto';
import type { BillingDeps } from '../commands/deps';
import { invoicePdf } from '../commands/invoices';

/** GET /api/billing/invoices/{id}.pdf */
export const invoicePdfHandler = (deps: BillingDeps) =>
  endpoint({
    operation: 'invoice.pdf',
    ...billingOperations['invoice.pdf'],
    handler: (input, ctx) => invoicePdf(deps, input, ctx.actor),
  });
