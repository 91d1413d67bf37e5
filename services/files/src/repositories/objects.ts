/** Stored originals: one row per distinct content (id = SHA-256) with its conversion state. */
import type { DocStatus, FileFormat } from '@wb/proto';
import type { Db } from './db';

export interface ObjectRow {
  id: string;
  format: FileFormat;
  is_image: boolean;
  mime: string;
  size: string; // bigint
  status: DocStatus;
  pages: number;
  pages_done: number;
  error: string | null;
  created_at: Date;
  failed_at: Date | null;
}

const COLUMNS = 'id, format, is_image, mime, size, status, pages, pages_done, error, created_at, failed_at';

export async function findObject(db: Db, id: string, opts: { lock?: boolean } = {}): Promise<ObjectRow | null> {
  const { rows } = await db.query<ObjectRow>(
    `SELECT ${COLUMNS} FROM objects WHERE id = $1${opts.lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * Insert a new object in processing, or take up a tombstone (a failed conversion) again for a
 * new attempt; an object already stored is left as it is. Answers the row locked, and whether
 * a conversion must be started.
 */
export async function claimObject(
  db: Db,
  o: { id: string; format: FileFormat; isImage: boolean; mime: string; size: number },
): Promise<{ row: ObjectRow; convert: boolean }> {
  // ON CONFLICT waits for a parallel insert of the same bytes to commit, then does nothing
  const inserted = await db.query<ObjectRow>(
    `INSERT INTO objects (id, format, is_image, mime, size) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO NOTHING RETURNING ${COLUMNS}`,
    [o.id, o.format, o.isImage, o.mime, o.size],
  );
  if (inserted.rows[0]) return { row: inserted.rows[0], convert: true };
  const existing = await findObject(db, o.id, { lock: true });
  if (!existing) throw new Error(`object ${o.id} vanished while it was being claimed`);
  if (existing.status !== 'failed') return { row: existing, convert: false };
  const { rows } = await db.query<ObjectRow>(
    `UPDATE objects SET format = $2, is_image = $3, mime = $4, size = $5, status = 'processing', pages = 0,
            pages_done = 0, error = NULL, failed_at = NULL, created_at = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [o.id, o.format, o.isImage, o.mime, o.size],
  );
  return { row: rows[0]!, convert: true };
}

/** a conversion's progress; a finished (ready or failed) object is not taken back to processing */
/** progress of a conversion; `notice` is what the worker says while it retries (null clears it) */
export async function recordProgress(
  db: Db,
  id: string,
  pages: number,
  pagesDone: number,
  notice: string | null,
): Promise<ObjectRow | null> {
  const { rows } = await db.query<ObjectRow>(
    `UPDATE objects SET pages = $2, pages_done = GREATEST(pages_done, $3), error = $4
     WHERE id = $1 AND status = 'processing' RETURNING ${COLUMNS}`,
    [id, pages, pagesDone, notice],
  );
  return rows[0] ?? null;
}

export async function markReady(db: Db, id: string, pages: number): Promise<ObjectRow | null> {
  const { rows } = await db.query<ObjectRow>(
    `UPDATE objects SET status = 'ready', pages = $2, pages_done = $2, error = NULL
     WHERE id = $1 AND status = 'processing' RETURNING ${COLUMNS}`,
    [id, pages],
  );
  return rows[0] ?? null;
}

export async function markFailed(db: Db, id: string, error: string, now: Date): Promise<ObjectRow | null> {
  const { rows } = await db.query<ObjectRow>(
    `UPDATE objects SET status = 'failed', error = $2, failed_at = $3
     WHERE id = $1 AND status <> 'failed' RETURNING ${COLUMNS}`,
    [id, error, now],
  );
  return rows[0] ?? null;
}

export async function deleteObjectRow(db: Db, id: string): Promise<void> {
  await db.query('DELETE FROM objects WHERE id = $1', [id]);
}

/** tombstones older than `before`, locked (SKIP LOCKED: a retry taking one up is left alone) */
export async function expiredTombstones(db: Db, before: Date, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM objects WHERE failed_at IS NOT NULL AND failed_at < $1
     ORDER BY failed_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [before, limit],
  );
  return rows.map((r) => r.id);
}

export async function isDisplayImage(db: Db, id: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM display_images WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}

export async function recordDisplayImage(db: Db, id: string): Promise<void> {
  await db.query('INSERT INTO display_images (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [id]);
}
