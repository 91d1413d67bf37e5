import type { Pool, PoolClient } from '@wb/platform';

/** a pool or a client inside a transaction: repositories work with either */
export type Db = Pool | PoolClient;

/** First key of the two-int advisory lock serialising one user's billing writes ("wbbi"). */
const USER_LOCK_CLASS = 0x77626269;

/** Serialise the transactions that change one user's subscriptions and entitlement. */
export async function lockUser(db: Db, userId: number): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1, $2)', [USER_LOCK_CLASS, userId]);
}
