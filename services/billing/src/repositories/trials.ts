/** billing.trial_claims: SQL only. */
import type { Db } from './db';

export async function hasTrialClaim(db: Db, userId: number): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM trial_claims WHERE user_id = $1', [userId]);
  return (rowCount ?? 0) > 0;
}

/** false when the user claimed the trial before */
export async function claimTrial(db: Db, userId: number, subscriptionId: string, now: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO trial_claims (user_id, subscription_id, claimed_at) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO NOTHING`,
    [userId, subscriptionId, now],
  );
  return (rowCount ?? 0) > 0;
}
