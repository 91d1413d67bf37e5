/** billing.subscriptions: SQL only. */
import type { BillingPeriod, PaidPlanName, SubscriptionStatus } from '@wb/proto';
import type { Db } from './db';

export interface SubscriptionRow {
  id: string;
  user_id: number;
  plan: PaidPlanName;
  billing_period: BillingPeriod;
  seats: number;
  status: SubscriptionStatus;
  trial: boolean;
  at_provider: boolean;
  first_billing_date: Date | null;
  next_billing_date: Date | null;
  next_billing_amount: number;
  balance: number;
  expires: Date | null;
  /** numeric comes back as text from pg; converted to a number here */
  vat_rate: number;
  vat_rule: string;
  promo_code: string | null;
  promo_percent: number;
  created_at: Date;
  cancelled_at: Date | null;
  synced_at: Date | null;
}

const COLUMNS = `id, user_id, plan, billing_period, seats, status, trial, at_provider, first_billing_date,
  next_billing_date, next_billing_amount, balance, expires, vat_rate::float8 AS vat_rate, vat_rule, promo_code,
  promo_percent, created_at, cancelled_at, synced_at`;

/** The user's current subscription: the newest one. */
export async function findCurrentSubscription(
  db: Db,
  userId: number,
  opts: { forUpdate?: boolean } = {},
): Promise<SubscriptionRow | null> {
  const { rows } = await db.query<SubscriptionRow>(
    `SELECT ${COLUMNS} FROM subscriptions WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1
     ${opts.forUpdate ? 'FOR UPDATE' : ''}`,
    [userId],
  );
  return rows[0] ?? null;
}

export async function findSubscriptionById(
  db: Db,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<SubscriptionRow | null> {
  const { rows } = await db.query<SubscriptionRow>(
    `SELECT ${COLUMNS} FROM subscriptions WHERE id = $1 ${opts.forUpdate ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function countSubscriptions(db: Db, userId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM subscriptions WHERE user_id = $1', [
    userId,
  ]);
  return rows[0]!.n;
}

export type NewSubscription = Omit<SubscriptionRow, 'cancelled_at' | 'synced_at'> & { synced_at: Date | null };

/** Inserts, or (a reconciled twin of the same provider subscription) overwrites the row. */
export async function upsertSubscription(db: Db, s: NewSubscription): Promise<SubscriptionRow> {
  const { rows } = await db.query<SubscriptionRow>(
    `INSERT INTO subscriptions (id, user_id, plan, billing_period, seats, status, trial, at_provider,
       first_billing_date, next_billing_date, next_billing_amount, balance, expires, vat_rate, vat_rule,
       promo_code, promo_percent, created_at, synced_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
     ON CONFLICT (id) DO UPDATE SET plan = EXCLUDED.plan, billing_period = EXCLUDED.billing_period,
       seats = EXCLUDED.seats, status = EXCLUDED.status, first_billing_date = EXCLUDED.first_billing_date,
       next_billing_date = EXCLUDED.next_billing_date, next_billing_amount = EXCLUDED.next_billing_amount,
       balance = EXCLUDED.balance, expires = EXCLUDED.expires, synced_at = EXCLUDED.synced_at
     RETURNING ${COLUMNS}`,
    [
      s.id,
      s.user_id,
      s.plan,
      s.billing_period,
      s.seats,
      s.status,
      s.trial,
      s.at_provider,
      s.first_billing_date,
      s.next_billing_date,
      s.next_billing_amount,
      s.balance,
      s.expires,
      s.vat_rate,
      s.vat_rule,
      s.promo_code,
      s.promo_percent,
      s.created_at,
      s.synced_at,
    ],
  );
  return rows[0]!;
}

export interface SubscriptionChanges {
  plan?: PaidPlanName;
  billing_period?: BillingPeriod;
  seats?: number;
  status?: SubscriptionStatus;
  first_billing_date?: Date | null;
  next_billing_date?: Date | null;
  next_billing_amount?: number;
  balance?: number;
  expires?: Date | null;
  cancelled_at?: Date | null;
  synced_at?: Date | null;
  vat_rate?: number;
  vat_rule?: string;
}

const CHANGEABLE = [
  'plan',
  'billing_period',
  'seats',
  'status',
  'first_billing_date',
  'next_billing_date',
  'next_billing_amount',
  'balance',
  'expires',
  'cancelled_at',
  'synced_at',
  'vat_rate',
  'vat_rule',
] as const satisfies readonly (keyof SubscriptionChanges)[];

export async function updateSubscription(db: Db, id: string, changes: SubscriptionChanges): Promise<SubscriptionRow> {
  const sets: string[] = [];
  const values: unknown[] = [id];
  for (const key of CHANGEABLE) {
    if (changes[key] === undefined) continue;
    values.push(changes[key]);
    sets.push(`${key} = $${values.length}`);
  }
  if (sets.length === 0) return (await findSubscriptionById(db, id))!;
  const { rows } = await db.query<SubscriptionRow>(
    `UPDATE subscriptions SET ${sets.join(', ')} WHERE id = $1 RETURNING ${COLUMNS}`,
    values,
  );
  return rows[0]!;
}

/**
 * Subscriptions whose announced plan may have lapsed by `now`: the entitlement still gives a
 * plan and the subscription's period (trial or paid) has ended.
 */
export async function findLapseCandidates(db: Db, now: Date, limit: number): Promise<SubscriptionRow[]> {
  const { rows } = await db.query<SubscriptionRow>(
    `SELECT ${COLUMNS} FROM subscriptions
      WHERE id IN (SELECT subscription_id FROM entitlements WHERE plan IS NOT NULL) AND expires <= $1
        -- spec §4: status Active keeps the plan (the renewal webhook moves expires on), except for
        -- "trial-…" ids, whose lapsed expiry counts first ("trial expired")
        AND NOT (status = 'Active' AND id NOT LIKE 'trial-%')
      ORDER BY expires
      LIMIT $2`,
    [now, limit],
  );
  return rows;
}
