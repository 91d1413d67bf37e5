/** billing.entitlements: what each user's subscription gives, as last announced. SQL only. */
import type { PaidPlanName } from '@wb/proto';
import type { Db } from './db';

export interface EntitlementRow {
  user_id: number;
  subscription_id: string;
  plan: PaidPlanName | null;
  seats: number;
  updated_at: Date;
}

export async function findEntitlement(db: Db, userId: number): Promise<EntitlementRow | null> {
  const { rows } = await db.query<EntitlementRow>('SELECT * FROM entitlements WHERE user_id = $1 FOR UPDATE', [userId]);
  return rows[0] ?? null;
}

export async function saveEntitlement(db: Db, e: EntitlementRow): Promise<void> {
  await db.query(
    `INSERT INTO entitlements (user_id, subscription_id, plan, seats, updated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (user_id) DO UPDATE SET subscription_id = EXCLUDED.subscription_id, plan = EXCLUDED.plan,
       seats = EXCLUDED.seats, updated_at = EXCLUDED.updated_at`,
    [e.user_id, e.subscription_id, e.plan, e.seats, e.updated_at],
  );
}
