/**
 * The orphan sweep (issue 25 §5): stored bytes that no record points at — an original with
 * neither an object row nor a profile-picture row (a refused or timed-out picture, a crash
 * between a move and its commit), a staged upload nobody finished, a profile picture without its
 * row. The store keeps no dates, so the sweep remembers when it first saw each one
 * (`orphan_candidates`) and deletes those still unrecorded `ORPHAN_GRACE_MS` later. Runs in the
 * files-tombstones repeatable job.
 */
import { withTransaction } from '@wb/platform';
import type { Db } from '../repositories/db';
import type { FilesDeps } from './deps';

const BATCH = 500;
const HEX64 = /^[0-9a-f]{64}$/;
const AVATAR = /^images\/([0-9a-f]{64})-avatar\.webp$/;

type Prefix = 'originals' | 'staging' | 'images';

/** of these content hashes, the ones an object or profile-picture row names */
async function recorded(db: Db, ids: string[], withObjects: boolean): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const sql = withObjects
    ? 'SELECT id FROM objects WHERE id = ANY($1) UNION SELECT id FROM display_images WHERE id = ANY($1)'
    : 'SELECT id FROM display_images WHERE id = ANY($1)';
  const { rows } = await db.query<{ id: string }>(sql, [ids]);
  return new Set(rows.map((r) => r.id));
}

/** keys under `prefix` that name no record, in batches */
async function unrecordedKeys(deps: Pick<FilesDeps, 'pool' | 'store'>, prefix: Prefix): Promise<string[]> {
  const out: string[] = [];
  let batch: { key: string; id: string }[] = [];
  const flush = async (): Promise<void> => {
    const known = await recorded(
      deps.pool,
      batch.map((b) => b.id),
      prefix === 'originals',
    );
    for (const b of batch) if (!known.has(b.id)) out.push(b.key);
    batch = [];
  };
  for await (const key of deps.store.list(`${prefix}/`)) {
    if (prefix === 'staging') {
      out.push(key);
      continue;
    }
    const id = prefix === 'originals' ? key.slice('originals/'.length) : AVATAR.exec(key)?.[1];
    // document images are removed with their document (deleteStoredBytes); only pictures here
    if (!id || !HEX64.test(id)) continue;
    batch.push({ key, id });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return out;
}

export async function sweepOrphans(
  deps: Pick<FilesDeps, 'pool' | 'store' | 'log' | 'now' | 'metrics'> & { env: { ORPHAN_GRACE_MS: number } },
): Promise<number> {
  const now = deps.now();
  const found: { key: string; prefix: Prefix }[] = [];
  for (const prefix of ['originals', 'staging', 'images'] as const)
    for (const key of await unrecordedKeys(deps, prefix)) found.push({ key, prefix });
  const keys = found.map((f) => f.key);
  const due = await withTransaction(deps.pool, async (client) => {
    // a key recorded (or gone) since it was first seen starts again
    await client.query('DELETE FROM orphan_candidates WHERE NOT (key = ANY($1))', [keys]);
    await client.query(
      'INSERT INTO orphan_candidates (key, first_seen) SELECT unnest($1::text[]), $2 ON CONFLICT (key) DO NOTHING',
      [keys, now],
    );
    const { rows } = await client.query<{ key: string }>('SELECT key FROM orphan_candidates WHERE first_seen <= $1', [
      new Date(now.getTime() - deps.env.ORPHAN_GRACE_MS),
    ]);
    return new Set(rows.map((r) => r.key));
  });
  let removed = 0;
  for (const f of found) {
    if (!due.has(f.key)) continue;
    // asked again at the last moment: an upload of the same bytes may have recorded it since
    if (f.prefix !== 'staging') {
      const id = f.prefix === 'originals' ? f.key.slice('originals/'.length) : AVATAR.exec(f.key)![1]!;
      if ((await recorded(deps.pool, [id], f.prefix === 'originals')).size > 0) continue;
    }
    await deps.store.delete([f.key]);
    await deps.pool.query('DELETE FROM orphan_candidates WHERE key = $1', [f.key]);
    deps.metrics.orphansSwept.inc({ prefix: f.prefix });
    removed += 1;
  }
  if (removed) deps.log.info({ removed }, 'orphaned stored objects removed');
  return removed;
}
