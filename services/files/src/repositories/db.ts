import type { Pool, PoolClient } from '@wb/platform';

/** a pool or a client inside a transaction: repositories work with either */
export type Db = Pool | PoolClient;

/** First key of the two-int advisory lock serialising one person's quota checks ("wbfi"). */
const QUOTA_LOCK_CLASS = 0x77626669;

/**
 * Serialise the registrations charged to one person (uploads, adds), so two parallel uploads
 * cannot both pass the quota check. Held until the transaction ends.
 */
export async function lockQuota(db: Db, userId: number): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1, $2)', [QUOTA_LOCK_CLASS, userId]);
}
