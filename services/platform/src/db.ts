/**
 * PostgreSQL: a pool per service, each service in its own schema (search_path set on connect),
 * forward-only SQL migrations from the service's migrations/ folder (NNNN_name.sql), applied in
 * order at start under an advisory lock and recorded in <schema>.schema_migrations; a changed
 * already-applied file stops start-up (checksum). The platform's own tables (outbox,
 * processed_events) are created by `migrate` before the service's files.
 */
import type { Pool, PoolClient } from 'pg';
import type { Logger } from './logger';
export type { Pool, PoolClient } from 'pg';

export interface DbOptions {
  url: string;
  /** the service's schema, e.g. 'auth' */
  schema: string;
  poolSize?: number;
  log: Logger;
}
export function createPool(_opts: DbOptions): Pool {
  throw new Error('not implemented');
}
export async function migrate(_pool: Pool, _opts: { schema: string; dir: string; log: Logger }): Promise<{ applied: string[] }> {
  throw new Error('not implemented');
}
/** BEGIN … COMMIT around fn; ROLLBACK and rethrow on error. */
export async function withTransaction<T>(_pool: Pool, _fn: (client: PoolClient) => Promise<T>): Promise<T> {
  throw new Error('not implemented');
}
/** Create the database named in `url` if it does not exist (used by `make up` and tests). */
export async function ensureDatabase(_url: string): Promise<void> {
  throw new Error('not implemented');
}
