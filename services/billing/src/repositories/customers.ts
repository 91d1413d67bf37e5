/** billing.customers: SQL only. */
import type { Db } from './db';

export interface CustomerRow {
  user_id: number;
  provider_customer_id: string;
  first_name: string;
  last_name: string;
  email: string;
  company: string;
  vat_nr: string | null;
  vat_nr_valid: boolean;
  country_code: string;
  city_region: string;
  postal_code: string;
  street_address: string;
  extended_address: string;
  updated_at: Date;
}

export async function findCustomer(db: Db, userId: number): Promise<CustomerRow | null> {
  const { rows } = await db.query<CustomerRow>('SELECT * FROM customers WHERE user_id = $1', [userId]);
  return rows[0] ?? null;
}

export async function upsertCustomer(db: Db, c: CustomerRow): Promise<void> {
  await db.query(
    `INSERT INTO customers (user_id, provider_customer_id, first_name, last_name, email, company, vat_nr,
       vat_nr_valid, country_code, city_region, postal_code, street_address, extended_address, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (user_id) DO UPDATE SET provider_customer_id = EXCLUDED.provider_customer_id,
       first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, email = EXCLUDED.email,
       company = EXCLUDED.company, vat_nr = EXCLUDED.vat_nr, vat_nr_valid = EXCLUDED.vat_nr_valid,
       country_code = EXCLUDED.country_code, city_region = EXCLUDED.city_region,
       postal_code = EXCLUDED.postal_code, street_address = EXCLUDED.street_address,
       extended_address = EXCLUDED.extended_address, updated_at = EXCLUDED.updated_at`,
    [
      c.user_id,
      c.provider_customer_id,
      c.first_name,
      c.last_name,
      c.email,
      c.company,
      c.vat_nr,
      c.vat_nr_valid,
      c.country_code,
      c.city_region,
      c.postal_code,
      c.street_address,
      c.extended_address,
      c.updated_at,
    ],
  );
}
