/** row → spec §3 Invoice with its VAT split (what leaves the service). */
import type { Invoice } from '@wb/proto';
import type { InvoiceRow } from '../repositories/invoices';

export function presentInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    date: row.created_at.toISOString(),
    amount: row.amount,
    currency: 'EUR',
    type: row.type,
    status: row.status,
    vat_amount: row.vat_amount,
    net_amount: row.net_amount,
    vat_rate: row.vat_rate,
  };
}
