/**
 * Invoices (spec §3 Invoice): the provider's payments and refunds for the user's customer,
 * copied here with a number, the VAT split of the subscription they paid for and the buyer's
 * billing details at that time, so an invoice never changes after the fact. Synced after a
 * subscription is confirmed, on charge webhooks and when the list is asked for.
 */
import { withTransaction } from '@wb/platform';
import { AppError, MONTHS_PER_PERIOD, splitGross } from '@wb/proto';
import type { Invoice, RequestActor } from '@wb/proto';
import type { FileReply } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { presentInvoice } from '../presenters/invoice';
import { renderInvoicePdf } from '../presenters/invoicePdf';
import { findCustomer } from '../repositories/customers';
import type { CustomerRow } from '../repositories/customers';
import { findInvoice, listInvoices, upsertInvoice } from '../repositories/invoices';
import type { InvoiceBuyer } from '../repositories/invoices';
import { findSubscriptionById } from '../repositories/subscriptions';
import type { SubscriptionRow } from '../repositories/subscriptions';
import type { BillingDeps } from './deps';

function buyerOf(c: CustomerRow): InvoiceBuyer {
  return {
    name: `${c.first_name} ${c.last_name}`,
    company: c.company,
    email: c.email,
    vat_nr: c.vat_nr,
    address: [c.street_address, c.extended_address, `${c.postal_code} ${c.city_region}`],
    country_code: c.country_code,
  };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function describe(sub: SubscriptionRow | null, refund: boolean): string {
  if (!sub) return refund ? 'Refund' : 'Whiteboard subscription';
  const months = MONTHS_PER_PERIOD[sub.billing_period];
  const what =
    `${capital(sub.plan)} plan, billed ${sub.billing_period} (${months} month${months > 1 ? 's' : ''}), ` +
    `${sub.seats} licence${sub.seats > 1 ? 's' : ''} — subscription ${sub.id}`;
  return refund ? `Refund: ${what}` : what;
}

/** Copies the provider's transactions of the user's customer into invoices (new ones numbered). */
export async function syncInvoices(deps: BillingDeps, userId: number): Promise<number> {
  const customer = await findCustomer(deps.pool, userId);
  if (!customer) return 0;
  const charges = await deps.provider.listTransactions(customer.provider_customer_id);
  await withTransaction(deps.pool, async (client) => {
    const subs = new Map<string, SubscriptionRow | null>();
    // oldest first, so invoice numbers follow the payments' order
    for (const charge of [...charges].reverse()) {
      const subId = charge.subscriptionId;
      if (subId && !subs.has(subId)) subs.set(subId, await findSubscriptionById(client, subId));
      const sub = subId ? (subs.get(subId) ?? null) : null;
      const refund = charge.type === 'refund';
      const gross = refund ? -charge.amountCents : charge.amountCents;
      const rate = sub ? sub.vat_rate : 0;
      const { netCents, vatCents } = rate > 0 ? splitGross(gross, rate) : { netCents: gross, vatCents: 0 };
      await upsertInvoice(client, {
        id: charge.id,
        user_id: userId,
        subscription_id: subId,
        created_at: charge.createdAt,
        type: charge.type,
        status: charge.status,
        currency: charge.currency,
        amount: gross,
        net_amount: netCents,
        vat_amount: vatCents,
        vat_rate: rate,
        vat_rule: sub?.vat_rule ?? 'outsideEu',
        description: describe(sub, refund),
        buyer: buyerOf(customer),
      });
    }
  });
  return charges.length;
}

/** best effort: a provider that does not answer now is asked again at the next sync */
export async function syncInvoicesQuietly(deps: BillingDeps, userId: number): Promise<void> {
  try {
    await syncInvoices(deps, userId);
  } catch (err) {
    deps.log.warn({ userId, err: (err as Error).message }, 'invoices not synced');
  }
}

/** GET /api/billing/invoices: newest first. */
export async function listUserInvoices(deps: BillingDeps, actor: RequestActor): Promise<Invoice[]> {
  const userId = requireUserId(actor);
  await syncInvoicesQuietly(deps, userId);
  return (await listInvoices(deps.pool, userId)).map(presentInvoice);
}

/** GET /api/billing/invoices/{id}.pdf: only the caller's own invoices. */
export async function invoicePdf(deps: BillingDeps, input: { id: string }, actor: RequestActor): Promise<FileReply> {
  const userId = requireUserId(actor);
  let row = await findInvoice(deps.pool, userId, input.id);
  if (!row && (await findCustomer(deps.pool, userId))) {
    await syncInvoicesQuietly(deps, userId);
    row = await findInvoice(deps.pool, userId, input.id);
  }
  if (!row) throw new AppError('ERR_NOT_FOUND', 'Invoice not found');
  const pdf = await renderInvoicePdf(row, deps.seller);
  return { filename: `invoice-${row.number}.pdf`, contentType: 'application/pdf', base64: pdf.toString('base64') };
}
