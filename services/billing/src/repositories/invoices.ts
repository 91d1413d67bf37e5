/** billing.invoices: SQL only. */
import type { Db } from './db';

export interface InvoiceRow {
  id: string;
  number: string;
  user_id: number;
  subscription_id: string | null;
  created_at: Date;
  type: 'payment' | 'refund' | 'unknown';
  status: 'settled' | 'pending';
  currency: string;
  amount: number;
  net_amount: number;
  vat_amount: number;
  vat_rate: number;
  vat_rule: string;
  description: string;
  buyer: InvoiceBuyer;
}

/** the buyer as the invoice names them (billing details at the time of the payment) */
export interface InvoiceBuyer {
  name: string;
  company: string;
  email: string;
  vat_nr: string | null;
  address: string[];
  country_code: string;
}

const COLUMNS = `id, number::text AS number, user_id, subscription_id, created_at, type, status, currency, amount,
  net_amount, vat_amount, vat_rate::float8 AS vat_rate, vat_rule, description, buyer`;

export async function listInvoices(db: Db, userId: number): Promise<InvoiceRow[]> {
  const { rows } = await db.query<InvoiceRow>(
    `SELECT ${COLUMNS} FROM invoices WHERE user_id = $1 ORDER BY created_at DESC, number DESC`,
    [userId],
  );
  return rows;
}

export async function findInvoice(db: Db, userId: number, id: string): Promise<InvoiceRow | null> {
  const { rows } = await db.query<InvoiceRow>(`SELECT ${COLUMNS} FROM invoices WHERE user_id = $1 AND id = $2`, [
    userId,
    id,
  ]);
  return rows[0] ?? null;
}

export type NewInvoice = Omit<InvoiceRow, 'number'>;

/** a new transaction is inserted (numbered); a known one only gets its status updated */
export async function upsertInvoice(db: Db, i: NewInvoice): Promise<void> {
  await db.query(
    `INSERT INTO invoices (id, user_id, subscription_id, created_at, type, status, currency, amount, net_amount,
       vat_amount, vat_rate, vat_rule, description, buyer)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status WHERE invoices.status IS DISTINCT FROM EXCLUDED.status`,
    [
      i.id,
      i.user_id,
      i.subscription_id,
      i.created_at,
      i.type,
      i.status,
      i.currency,
      i.amount,
      i.net_amount,
      i.vat_amount,
      i.vat_rate,
      i.vat_rule,
      i.description,
      JSON.stringify(i.buyer),
    ],
  );
}
