/** SQL on teams.subscriptions: what billing last said about an owner's own subscription. */
import type { PlanName } from '@wb/proto';
import type { Db } from './db';

export interface SubscriptionRow {
  owner_id: number;
  subscription_id: string;
  plan: PlanName | null;
  seats: number;
  /** outbox sequence of billing's event, as text (bigint) */
  seq: string;
}

const COLUMNS = 'owner_id, subscription_id, plan, seats, seq::text AS seq';

/** the owner's row, locked for this transaction; null when billing never spoke of them */
export async function lockSubscription(db: Db, ownerId: number): Promise<SubscriptionRow | null> {
  const { rows } = await db.query<SubscriptionRow>(
    `SELECT ${COLUMNS} FROM subscriptions WHERE owner_id = $1 FOR UPDATE`,
    [ownerId],
  );
  return rows[0] ?? null;
}

export async function findSubscription(db: Db, ownerId: number): Promise<SubscriptionRow | null> {
  const { rows } = await db.query<SubscriptionRow>(`SELECT ${COLUMNS} FROM subscriptions WHERE owner_id = $1`, [
    ownerId,
  ]);
  return rows[0] ?? null;
}

export async function saveSubscription(
  db: Db,
  s: { ownerId: number; subscriptionId: string; plan: PlanName | null; seats: number; seq: bigint },
): Promise<void> {
  await db.query(
    `INSERT INTO subscriptions (owner_id, subscription_id, plan, seats, seq) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (owner_id) DO UPDATE
       SET subscription_id = EXCLUDED.subscription_id, plan = EXCLUDED.plan, seats = EXCLUDED.seats,
           seq = EXCLUDED.seq, updated_at = now()`,
    [s.ownerId, s.subscriptionId, s.plan, s.seats, s.seq.toString()],
  );
}
