/** Migrations, transactions and database creation against the real PostgreSQL. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { createPool, ensureDatabase, migrate, withTransaction } from '../src/db';
import type { Pool } from '../src/db';
import { createTestDatabase, dropTestDatabase, randomId } from '../src/testing/stack';
import { captureLog, migrationsDir } from './fixtures';

const { log } = captureLog('silent');
let url: string;
const pools: Pool[] = [];
const pool = (schema: string): Pool => {
  const p = createPool({ url, schema, log, poolSize: 3 });
  pools.push(p);
  return p;
};

beforeAll(async () => {
  url = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await dropTestDatabase(url);
});

const FILES = {
  // 0010 sorts after 0002 and uses what 0001/0002 created: applying out of order would fail.
  '0010_third.sql': `INSERT INTO runs (name) VALUES ('0010'); ALTER TABLE widgets ADD COLUMN colour text;`,
  '0001_first.sql': `CREATE TABLE runs (name text NOT NULL); INSERT INTO runs (name) VALUES ('0001');`,
  '0002_second.sql': `CREATE TABLE widgets (id serial PRIMARY KEY, name text NOT NULL); INSERT INTO runs (name) VALUES ('0002');`,
};

async function runs(p: Pool, schema: string): Promise<string[]> {
  const { rows } = await p.query<{ name: string }>(`SELECT name FROM "${schema}".runs ORDER BY ctid`);
  return rows.map((r) => r.name);
}

describe('migrate', () => {
  it('creates the schema, applies the platform tables then the files in order, once', async () => {
    const schema = `m${randomId()}`;
    const dir = migrationsDir(FILES);
    const p = pool(schema);
    const first = await migrate(p, { schema, dir, log });
    expect(first.applied).toEqual([
      'platform/0001_outbox',
      'platform/0002_processed_events',
      '0001_first',
      '0002_second',
      '0010_third',
    ]);
    expect(await runs(p, schema)).toEqual(['0001', '0002', '0010']);

    const tables = await p.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`,
      [schema],
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual([
      'outbox',
      'processed_events',
      'runs',
      'schema_migrations',
      'widgets',
    ]);
    const recorded = await p.query<{ name: string; checksum: string }>(
      `SELECT name, checksum FROM "${schema}".schema_migrations ORDER BY applied_at, name`,
    );
    expect(recorded.rows.map((r) => r.name)).toHaveLength(5);
    expect(recorded.rows.every((r) => /^[0-9a-f]{64}$/.test(r.checksum))).toBe(true);

    const again = await migrate(p, { schema, dir, log });
    expect(again.applied).toEqual([]);
    expect(await runs(p, schema)).toEqual(['0001', '0002', '0010']);

    // A new file later on is applied alone.
    writeFileSync(join(dir, '0011_fourth.sql'), `INSERT INTO runs (name) VALUES ('0011');`);
    expect((await migrate(p, { schema, dir, log })).applied).toEqual(['0011_fourth']);
  });

  it('applies each file exactly once when two replicas start together', async () => {
    const schema = `m${randomId()}`;
    const dir = migrationsDir(FILES);
    const [a, b] = await Promise.all([
      migrate(pool(schema), { schema, dir, log }),
      migrate(pool(schema), { schema, dir, log }),
    ]);
    expect([...a.applied, ...b.applied].sort()).toEqual([
      '0001_first',
      '0002_second',
      '0010_third',
      'platform/0001_outbox',
      'platform/0002_processed_events',
    ]);
    // One of them did all the work; the other waited on the lock and found nothing left.
    expect(Math.min(a.applied.length, b.applied.length)).toBe(0);
    expect(await runs(pool(schema), schema)).toEqual(['0001', '0002', '0010']);
  });

  it('refuses to start when an applied file changed', async () => {
    const schema = `m${randomId()}`;
    const dir = migrationsDir(FILES);
    const p = pool(schema);
    await migrate(p, { schema, dir, log });
    writeFileSync(join(dir, '0002_second.sql'), `${FILES['0002_second.sql']}\n-- edited after the fact`);
    writeFileSync(join(dir, '0020_later.sql'), `INSERT INTO runs (name) VALUES ('0020');`);
    await expect(migrate(p, { schema, dir, log })).rejects.toThrow(/0002_second was changed after it was applied/);
    // Nothing after the changed file ran.
    expect(await runs(p, schema)).toEqual(['0001', '0002', '0010']);
    // The pool is still usable (the advisory lock was released).
    await expect(migrate(pool(schema), { schema, dir: migrationsDir(FILES), log })).resolves.toEqual({ applied: [] });
  });

  it('rolls a failing file back completely and applies it once fixed', async () => {
    const schema = `m${randomId()}`;
    const dir = migrationsDir({
      '0001_ok.sql': 'CREATE TABLE a (x int);',
      '0002_bad.sql': 'CREATE TABLE b (x int); SELECT * FROM no_such_table;',
    });
    const p = pool(schema);
    await expect(migrate(p, { schema, dir, log })).rejects.toThrow(/0002_bad failed: .*no_such_table/);
    const b = await p.query(`SELECT to_regclass($1) AS t`, [`${schema}.b`]);
    expect(b.rows[0].t).toBeNull();
    writeFileSync(join(dir, '0002_bad.sql'), 'CREATE TABLE b (x int);');
    expect((await migrate(p, { schema, dir, log })).applied).toEqual(['0002_bad']);
  });

  it('rejects badly named files and duplicate numbers', async () => {
    const schema = `m${randomId()}`;
    await expect(
      migrate(pool(schema), { schema, dir: migrationsDir({ 'init.sql': 'SELECT 1' }), log }),
    ).rejects.toThrow(/NNNN_name\.sql/);
    await expect(
      migrate(pool(schema), {
        schema,
        dir: migrationsDir({ '0001_a.sql': 'SELECT 1', '0001_b.sql': 'SELECT 1' }),
        log,
      }),
    ).rejects.toThrow(/share the number 0001/);
    expect(() => createPool({ url, schema: 'Bad-Name', log })).toThrow(/invalid schema name/);
  });
});

describe('pool and transactions', () => {
  it('resolves unqualified names in the service schema and names the connection', async () => {
    const schema = `m${randomId()}`;
    const p = pool(schema);
    await migrate(p, { schema, dir: migrationsDir({ '0001_t.sql': 'CREATE TABLE things (id int);' }), log });
    await p.query('INSERT INTO things VALUES (1)');
    const { rows } = await p.query(
      `SELECT current_schema() AS s, current_setting('application_name') AS app, (SELECT count(*)::int FROM "${schema}".things) AS n`,
    );
    expect(rows[0]).toEqual({ s: schema, app: `wb-${schema}`, n: 1 });
  });

  it('commits on success and rolls back on error', async () => {
    const schema = `m${randomId()}`;
    const p = pool(schema);
    await migrate(p, { schema, dir: migrationsDir({ '0001_t.sql': 'CREATE TABLE things (id int);' }), log });
    await expect(
      withTransaction(p, async (c) => (await c.query('INSERT INTO things VALUES (1) RETURNING id')).rows[0].id),
    ).resolves.toBe(1);
    await expect(
      withTransaction(p, async (c) => {
        await c.query('INSERT INTO things VALUES (2)');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await p.query('SELECT id FROM things ORDER BY id')).rows).toEqual([{ id: 1 }]);
  });
});

describe('ensureDatabase', () => {
  it('creates a missing database once even when called concurrently', async () => {
    const u = new URL(url);
    u.pathname = `/wb_test_${randomId()}`;
    const other = u.toString();
    try {
      await Promise.all([ensureDatabase(other), ensureDatabase(other), ensureDatabase(other)]);
      await ensureDatabase(other);
      const c = new Client({ connectionString: other });
      await c.connect();
      expect((await c.query('SELECT current_database() AS d')).rows[0].d).toBe(u.pathname.slice(1));
      await c.end();
    } finally {
      await dropTestDatabase(other);
    }
  });
});
