import type { Pool, PoolClient } from '@wb/platform';

/** a pool or a client inside a transaction: repositories work with either */
export type Db = Pool | PoolClient;

/** PostgreSQL's unique_violation: a concurrent writer got there first */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}
