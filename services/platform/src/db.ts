/**
 * PostgreSQL: a pool per service, each service in its own schema (search_path set on connect),
 * forward-only SQL migrations from the service's migrations/ folder (NNNN_name.sql), applied in
 * order at start under an advisory lock and recorded in <schema>.schema_migrations; a changed
 * already-applied file stops start-up (checksum). The platform's own tables (outbox,
 * processed_events) are created by `migrate` before the service's files.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, Pool as PgPool } from 'pg';
import type { Pool, PoolClient } from 'pg';
import type { Logger } from './logger';
export type { Pool, PoolClient } from 'pg';

export interface DbOptions {
  url: string;
  /** the service's schema, e.g. 'auth' */
  schema: string;
  poolSize?: number;
  log: Logger;
  /** shown in pg_stat_activity; default `wb-<schema>` */
  applicationName?: string;
}

const SCHEMA_RE = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema names are interpolated into SQL, so only plain lower-case identifiers are accepted. */
export function assertSchemaName(schema: string): string {
  if (!SCHEMA_RE.test(schema)) throw new Error(`invalid schema name "${schema}" (expected [a-z_][a-z0-9_]*)`);
  return schema;
}

export function createPool(opts: DbOptions): Pool {
  const schema = assertSchemaName(opts.schema);
  const pool = new PgPool({
    connectionString: opts.url,
    max: opts.poolSize ?? 10,
    application_name: opts.applicationName ?? `wb-${schema}`,
    // Startup parameter: every connection resolves unqualified names in the service's schema.
    options: `-c search_path=${schema},public`,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its connection emits on the pool; without a listener the process dies.
  pool.on('error', (err) => opts.log.error({ err, schema }, 'idle PostgreSQL client error'));
  return pool;
}

/** BEGIN … COMMIT around fn; ROLLBACK and rethrow on error. */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackErr) {
      // The connection is unusable; make the pool discard it instead of handing it out again.
      broken = rollbackErr as Error;
    }
    throw err;
  } finally {
    client.release(broken);
  }
}

// ---------------------------------------------------------------------------------------------
// Migrations

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** The platform's own tables, applied before the service's files (recorded as `platform/…`). */
const BUILTIN_MIGRATIONS: ReadonlyArray<{ name: string; sql: string }> = [
  {
    name: 'platform/0001_outbox',
    sql: `
CREATE TABLE outbox (
  id           bigserial PRIMARY KEY,
  type         text NOT NULL,
  data         jsonb NOT NULL,
  traceparent  text,
  tracestate   text,
  occurred_at  timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz
);
CREATE INDEX outbox_pending_idx ON outbox (id) WHERE published_at IS NULL;
CREATE INDEX outbox_published_at_idx ON outbox (published_at) WHERE published_at IS NOT NULL;`,
  },
  {
    name: 'platform/0002_processed_events',
    sql: `
CREATE TABLE processed_events (
  consumer     text NOT NULL,
  event_id     text NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);
CREATE INDEX processed_events_processed_at_idx ON processed_events (processed_at);`,
  },
];

const MIGRATION_FILE_RE = /^(\d{4})_[A-Za-z0-9_-]+\.sql$/;
/** First key of the two-int advisory lock used for migrations ("wbmg"); the second is the schema hash. */
const MIGRATION_LOCK_CLASS = 0x77626d67;

export function checksumOf(sql: string): string {
  // Line endings are normalised so a checkout with CRLF does not count as a changed file.
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');
}

async function readMigrationFiles(dir: string): Promise<Migration[]> {
  const names = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const seen = new Map<string, string>();
  const out: Migration[] = [];
  for (const file of names) {
    const m = MIGRATION_FILE_RE.exec(file);
    if (!m) throw new Error(`migration file "${file}" in ${dir} is not named NNNN_name.sql`);
    const other = seen.get(m[1]!);
    if (other) throw new Error(`migrations "${other}" and "${file}" share the number ${m[1]}`);
    seen.set(m[1]!, file);
    const sql = await readFile(join(dir, file), 'utf8');
    out.push({ name: file.slice(0, -'.sql'.length), sql, checksum: checksumOf(sql) });
  }
  return out;
}

/**
 * Apply the platform's and then the service's migrations that are not yet recorded, each in its
 * own transaction, under a session advisory lock keyed on the schema (so concurrent replicas
 * starting together apply each file exactly once). Throws when an applied file has changed.
 */
export async function migrate(
  pool: Pool,
  opts: { schema: string; dir: string; log: Logger },
): Promise<{ applied: string[] }> {
  const schema = assertSchemaName(opts.schema);
  const migrations: Migration[] = [
    ...BUILTIN_MIGRATIONS.map((b) => ({ ...b, checksum: checksumOf(b.sql) })),
    ...(await readMigrationFiles(opts.dir)),
  ];
  const client = await pool.connect();
  let broken: Error | undefined;
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [MIGRATION_LOCK_CLASS, schema]);
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS "${schema}".schema_migrations (
           name       text PRIMARY KEY,
           checksum   text NOT NULL,
           applied_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      const { rows } = await client.query<{ name: string; checksum: string }>(
        `SELECT name, checksum FROM "${schema}".schema_migrations`,
      );
      const done = new Map(rows.map((r) => [r.name, r.checksum]));
      for (const m of migrations) {
        const previous = done.get(m.name);
        if (previous !== undefined) {
          if (previous !== m.checksum) {
            throw new Error(
              `migration ${schema}/${m.name} was changed after it was applied (checksum ${previous.slice(0, 12)}… ≠ ${m.checksum.slice(0, 12)}…); add a new migration instead`,
            );
          }
          continue;
        }
        await client.query('BEGIN');
        try {
          // Unqualified names in the file land in the service's schema whatever the pool's settings.
          await client.query(`SET LOCAL search_path TO "${schema}", public`);
          await client.query(m.sql);
          await client.query(`INSERT INTO "${schema}".schema_migrations (name, checksum) VALUES ($1, $2)`, [
            m.name,
            m.checksum,
          ]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          const e = err as Error;
          e.message = `migration ${schema}/${m.name} failed: ${e.message}`;
          throw e;
        }
        applied.push(m.name);
        opts.log.info({ schema, migration: m.name }, 'migration applied');
      }
      const known = new Set(migrations.map((m) => m.name));
      const unknown = [...done.keys()].filter((n) => !known.has(n));
      if (unknown.length) opts.log.warn({ schema, unknown }, 'applied migrations missing from the migrations folder');
    } finally {
      await client
        .query('SELECT pg_advisory_unlock($1, hashtext($2))', [MIGRATION_LOCK_CLASS, schema])
        .catch((err: Error) => {
          // A session lock that cannot be released must not return to the pool with the client.
          broken = err;
        });
    }
  } catch (err) {
    // Migrations run once at start: dropping the connection costs nothing and guarantees no
    // half-finished session state (open transaction, held lock) goes back into the pool.
    broken ??= err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
  return { applied };
}

// ---------------------------------------------------------------------------------------------
// Databases

function databaseNameOf(url: string): { name: string; adminUrl: string } {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!name) throw new Error(`no database name in ${u.protocol}//${u.host}`);
  u.pathname = '/postgres';
  return { name, adminUrl: u.toString() };
}

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Create the database named in `url` if it does not exist (used by `make up` and tests). */
export async function ensureDatabase(url: string): Promise<void> {
  const { name, adminUrl } = databaseNameOf(url);
  const admin = new Client({ connectionString: adminUrl, application_name: 'wb-ensure-database' });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    try {
      await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
    } catch (err) {
      // Two callers racing: the loser gets duplicate_database (42P04) or, when both passed the
      // catalogue check at once, unique_violation (23505) on pg_database's name index.
      const code = (err as { code?: string }).code;
      if (code !== '42P04' && code !== '23505') throw err;
    }
  } finally {
    await admin.end();
  }
}

/** Drop the database named in `url` (terminating its connections); no error when it is missing. */
export async function dropDatabase(url: string): Promise<void> {
  const { name, adminUrl } = databaseNameOf(url);
  const admin = new Client({ connectionString: adminUrl, application_name: 'wb-drop-database' });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
