import type { Pool, PoolClient } from '@wb/platform';

/** a pool or a client inside a transaction: repositories work with either */
export type Db = Pool | PoolClient;

/** First key of the two-int advisory lock serialising one owner's board-count checks ("wbbo"). */
const OWNER_LOCK_CLASS = 0x7762626f;

/**
 * Serialise the transactions that count an owner's boards against the limit (create, restore),
 * so two at once cannot both pass the check. Held until the transaction ends.
 */
export async function lockOwner(db: Db, userId: number): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1, $2)', [OWNER_LOCK_CLASS, userId]);
}
