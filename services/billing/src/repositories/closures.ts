/**
 * SQL for subscriptions that must be cancelled at the provider whatever happens (a terminated
 * account, a closed business): the request is recorded first and stays until the provider has
 * said "cancelled". See commands/accountClosures.ts.
 */
import type { Db } from './db';
import type { SubscriptionRow } from './subscriptions';
import { findSubscriptionById } from './subscriptions';

export type CancelReason = 'user_terminated' | 'business_closed';

const RUNNING = `status NOT IN ('Canceled', 'Expired')`;

export async function isTerminated(db: Db, userId: number): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM terminated_users WHERE user_id = $1', [userId]);
  return (rowCount ?? 0) > 0;
}

export async function recordTermination(db: Db, userId: number, at: Date): Promise<void> {
  await db.query(
    'INSERT INTO terminated_users (user_id, terminated_at) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING',
    [userId, at],
  );
}

/**
 * Marks subscriptions to cancel: every running one of `userId`, or only `subscriptionId` (when it
 * is theirs and running). The first reason and time stay. Returns the ids marked.
 */
export async function requestCancellation(
  db: Db,
  target: { userId: number; subscriptionId?: string },
  reason: CancelReason,
  at: Date,
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE subscriptions
        SET cancel_requested_at = COALESCE(cancel_requested_at, $3),
            cancel_reason = COALESCE(cancel_reason, $4)
      WHERE user_id = $1 AND ($2::text IS NULL OR id = $2) AND ${RUNNING}
      RETURNING id`,
    [target.userId, target.subscriptionId ?? null, at, reason],
  );
  return rows.map((r) => r.id);
}

/**
 * Running subscriptions that must be cancelled: marked ones, and any of a terminated account
 * (a payment reconciled after the termination completes one). Oldest request first.
 */
export async function findCancellationsDue(
  db: Db,
  limit: number,
  userId: number | null = null,
): Promise<(SubscriptionRow & { cancel_reason: CancelReason })[]> {
  const { rows } = await db.query<{ id: string; cancel_reason: CancelReason | null; terminated: boolean }>(
    `SELECT s.id, s.cancel_reason, t.user_id IS NOT NULL AS terminated
       FROM subscriptions s LEFT JOIN terminated_users t ON t.user_id = s.user_id
      WHERE s.${RUNNING} AND (s.cancel_requested_at IS NOT NULL OR t.user_id IS NOT NULL)
        AND ($2::int IS NULL OR s.user_id = $2)
      ORDER BY COALESCE(s.cancel_requested_at, t.terminated_at)
      LIMIT $1`,
    [limit, userId],
  );
  const due: (SubscriptionRow & { cancel_reason: CancelReason })[] = [];
  for (const r of rows) {
    const row = await findSubscriptionById(db, r.id);
    if (row)
      due.push({ ...row, cancel_reason: r.cancel_reason ?? (r.terminated ? 'user_terminated' : 'business_closed') });
  }
  return due;
}
