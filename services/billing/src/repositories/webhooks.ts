/** billing.webhook_notifications: SQL only. */
import type { Db } from './db';

/** false when this notification (by digest) was recorded before: a replay */
export async function recordNotification(
  db: Db,
  n: { digest: string; kind: string; subscriptionId: string | null; now: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO webhook_notifications (digest, kind, subscription_id, received_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (digest) DO NOTHING`,
    [n.digest, n.kind, n.subscriptionId, n.now],
  );
  return (rowCount ?? 0) > 0;
}
