/**
 * An invoice (or, for a refund, a credit note) as a PDF a business can file: seller and buyer
 * with their VAT numbers, invoice number and date, the line, net amount, VAT rate and amount (or
 * why no VAT is charged), total. pdfkit with its built-in Helvetica: no font files, no network.
 */
import type PDFKit from 'pdfkit';
import { formatEur } from '@wb/proto';
import type { InvoiceRow } from '../repositories/invoices';

export interface Seller {
  name: string;
  address: string;
  vatNumber: string;
  email: string;
}

/** invoice numbers as printed: INV-000042 */
export function invoiceNumber(row: Pick<InvoiceRow, 'number'>): string {
  return `INV-${row.number.padStart(6, '0')}`;
}

const eur = (cents: number): string => `${formatEur(cents)} EUR`;

/** The VAT line, e.g. "VAT 24%: 216.00 EUR", or why there is none. */
export function vatLine(row: Pick<InvoiceRow, 'vat_rate' | 'vat_rule' | 'vat_amount'>): string {
  if (row.vat_rule === 'euReverseCharge') {
    return 'VAT 0%: reverse charge (Art. 196 of Directive 2006/112/EC), VAT to be accounted for by the recipient';
  }
  if (row.vat_rule === 'outsideEu') return 'VAT 0%: supply of services outside the EU (not subject to EU VAT)';
  return `VAT ${row.vat_rate}%: ${eur(row.vat_amount)}`;
}

/** pdfkit (and its font engine) is loaded on the first invoice, not at start-up (≈ 0.7 s here) */
let pdfkit: Promise<typeof PDFKit> | undefined;

export async function renderInvoicePdf(row: InvoiceRow, seller: Seller): Promise<Buffer> {
  pdfkit ??= import('pdfkit').then((m) => m.default);
  const PDFDocument = await pdfkit;
  const refund = row.amount < 0;
  const number = invoiceNumber(row);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `${refund ? 'Credit note' : 'Invoice'} ${number}`, Author: seller.name },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc
    .font('Helvetica-Bold')
    .fontSize(20)
    .text(refund ? 'CREDIT NOTE' : 'INVOICE');
  doc.moveDown(0.5).font('Helvetica').fontSize(10);
  doc.text(`Invoice number: ${number}`);
  doc.text(`Date: ${row.created_at.toISOString().slice(0, 10)}`);
  doc.text(`Payment reference: ${row.id}`);
  doc.text(`Status: ${row.status === 'settled' ? 'paid' : 'payment pending'}`);

  doc.moveDown();
  doc.font('Helvetica-Bold').text('Seller');
  doc.font('Helvetica').text(seller.name);
  doc.text(seller.address);
  doc.text(`VAT number: ${seller.vatNumber}`);
  doc.text(seller.email);

  doc.moveDown();
  const b = row.buyer;
  doc.font('Helvetica-Bold').text('Buyer');
  doc.font('Helvetica');
  if (b.company) doc.text(b.company);
  doc.text(b.name);
  for (const line of b.address) if (line) doc.text(line);
  doc.text(`Country: ${b.country_code}`);
  if (b.vat_nr) doc.text(`VAT number: ${b.vat_nr}`);
  doc.text(b.email);

  doc.moveDown();
  doc.font('Helvetica-Bold').text('Description');
  doc.font('Helvetica').text(row.description);

  doc.moveDown();
  doc.text(`Net amount: ${eur(row.net_amount)}`);
  doc.text(vatLine(row));
  doc.font('Helvetica-Bold').text(`Total: ${eur(row.amount)}`);
  doc.font('Helvetica').moveDown();
  doc.fontSize(8).text('Amounts in euro. Paid by card through Braintree (a PayPal service).');

  doc.end();
  return done;
}
