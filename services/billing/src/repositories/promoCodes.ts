/** billing.promo_codes: SQL only. */
import type { Db } from './db';

/** percent off of an active, unexpired code; null when there is none */
export async function findPromoPercent(db: Db, code: string, now: Date): Promise<number | null> {
  const { rows } = await db.query<{ percent_off: number }>(
    `SELECT percent_off FROM promo_codes WHERE code = $1 AND active AND (expires_at IS NULL OR expires_at > $2)`,
    [code, now],
  );
  return rows[0]?.percent_off ?? null;
}
