/**
 * SQL of the realtime schema only: leases (fencing tokens), the change journal and snapshot
 * pointers. No rules here: who may write is decided by the fencing trigger (migrations/0001).
 */
import type { Pool, PoolClient } from '@wb/platform';
import { withTransaction } from '@wb/platform';

export const SCHEMA = 'realtime';
/** SQLSTATE raised by the fencing trigger */
export const STALE_TOKEN_SQLSTATE = 'WBF01';

export function isStaleToken(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === STALE_TOKEN_SQLSTATE;
}

/**
 * Record `token` as the board's current owner token. Returns false when a newer token already
 * claimed the board (this claimant is stale and must not serve the board). The same node may
 * re-claim with the same token (it reopened a room under a lease it still holds).
 */
export async function claimBoard(pool: Pool, boardId: string, token: number, nodeId: string): Promise<boolean> {
  const { rowCount } = await pool.query(
    `INSERT INTO board_leases (board_id, token, node_id) VALUES ($1, $2, $3)
     ON CONFLICT (board_id) DO UPDATE SET token = EXCLUDED.token, node_id = EXCLUDED.node_id, claimed_at = now()
       WHERE board_leases.token < EXCLUDED.token
          OR (board_leases.token = EXCLUDED.token AND board_leases.node_id = EXCLUDED.node_id)`,
    [boardId, token, nodeId],
  );
  return rowCount === 1;
}

/** Append changes (already-journaled hashes are skipped); returns the highest seq of the board. */
export async function appendChanges(
  pool: Pool,
  boardId: string,
  token: number,
  entries: { hash: string; bytes: Uint8Array }[],
): Promise<number> {
  const { rows } = await pool.query<{ seq: string | null }>(
    `WITH ins AS (
       INSERT INTO journal (board_id, token, hash, bytes)
       SELECT $1, $2, h, b FROM unnest($3::text[], $4::bytea[]) AS t(h, b)
       ON CONFLICT (board_id, hash) DO NOTHING
       RETURNING seq
     )
     SELECT max(seq)::text AS seq FROM ins`,
    [
      boardId,
      token,
      entries.map((e) => e.hash),
      entries.map((e) => Buffer.from(e.bytes.buffer, e.bytes.byteOffset, e.bytes.byteLength)),
    ],
  );
  return Number(rows[0]?.seq ?? 0);
}

export interface SnapshotRow {
  key: string;
  upToSeq: number;
  size: number;
}
/** The board's latest snapshot pointer (null: none yet). */
export async function latestSnapshot(pool: Pool | PoolClient, boardId: string): Promise<SnapshotRow | null> {
  const { rows } = await pool.query<{ storage_key: string; up_to_seq: string; size: number }>(
    `SELECT storage_key, up_to_seq::text, size FROM snapshots WHERE board_id = $1 ORDER BY snapshots.up_to_seq DESC LIMIT 1`,
    [boardId],
  );
  const s = rows[0];
  return s ? { key: s.storage_key, upToSeq: Number(s.up_to_seq), size: s.size } : null;
}

export interface JournalTail {
  /** change bytes in journal order */
  changes: Uint8Array[];
  /** seq of the last row (0 when none) */
  lastSeq: number;
  bytes: number;
}
/**
 * Journal rows after `afterSeq`, in seq order. (`ORDER BY journal.seq`: a bare `seq` would name
 * the text output column and sort "10" before "9".) The binary result format was measured slower
 * than hex text for bytea in node-postgres, so rows come as text.
 */
export async function journalTail(pool: Pool | PoolClient, boardId: string, afterSeq: number): Promise<JournalTail> {
  const { rows } = await pool.query<{ seq: string; bytes: Buffer }>(
    `SELECT seq::text AS seq, bytes FROM journal WHERE board_id = $1 AND seq > $2 ORDER BY journal.seq`,
    [boardId, afterSeq],
  );
  let bytes = 0;
  const changes = rows.map((r) => {
    bytes += r.bytes.length;
    return new Uint8Array(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
  });
  return { changes, lastSeq: rows.length ? Number(rows[rows.length - 1]!.seq) : 0, bytes };
}

/**
 * Record a snapshot covering seq ≤ upToSeq and compact: journal rows and older snapshot rows it
 * covers are deleted in the same (fenced) transaction. Returns the storage keys no longer needed.
 */
export async function recordSnapshot(
  pool: Pool,
  boardId: string,
  token: number,
  key: string,
  upToSeq: number,
  size: number,
): Promise<string[]> {
  return withTransaction(pool, async (c: PoolClient) => {
    await c.query(
      `INSERT INTO snapshots (board_id, up_to_seq, token, storage_key, size) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (board_id, up_to_seq) DO NOTHING`,
      [boardId, upToSeq, token, key, size],
    );
    await c.query(`DELETE FROM journal WHERE board_id = $1 AND seq <= $2`, [boardId, upToSeq]);
    const old = await c.query<{ storage_key: string }>(
      `DELETE FROM snapshots WHERE board_id = $1 AND up_to_seq < $2 RETURNING storage_key`,
      [boardId, upToSeq],
    );
    return old.rows.map((r) => r.storage_key);
  });
}

/** Highest journal seq of a board (0 when none). */
export async function lastSeq(pool: Pool, boardId: string): Promise<number> {
  const { rows } = await pool.query<{ seq: string | null }>(
    `SELECT max(seq)::text AS seq FROM journal WHERE board_id = $1`,
    [boardId],
  );
  return Number(rows[0]?.seq ?? 0);
}

/** Purge (boards event): everything of the board; returns the snapshot keys to delete. */
export async function purgeBoard(client: PoolClient, boardId: string): Promise<string[]> {
  await client.query(`DELETE FROM journal WHERE board_id = $1`, [boardId]);
  const { rows } = await client.query<{ storage_key: string }>(
    `DELETE FROM snapshots WHERE board_id = $1 RETURNING storage_key`,
    [boardId],
  );
  // a purged board keeps a lease row with a token above any live owner: late writes fail
  await client.query(`UPDATE board_leases SET token = 9007199254740991 WHERE board_id = $1`, [boardId]);
  return rows.map((r) => r.storage_key);
}

/**
 * The board's committed content as one consistent read (board copies, read while the owner node
 * may be writing): the latest snapshot pointer and the journal after it, under one REPEATABLE
 * READ snapshot, so a compaction committed between the two reads cannot drop the rows it covered.
 */
export async function committedContent(
  pool: Pool,
  boardId: string,
): Promise<{ snapshot: SnapshotRow | null; tail: JournalTail }> {
  return withTransaction(pool, async (c) => {
    await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const snapshot = await latestSnapshot(c, boardId);
    const tail = await journalTail(c, boardId, snapshot?.upToSeq ?? 0);
    return { snapshot, tail };
  });
}

/**
 * The first snapshot of a board nobody has opened yet (a copy): recorded under token 0 in a new
 * lease row, below every token a node will claim it with (Redis INCR starts at 1), so the first
 * owner loads it like any snapshot. Fails (WBF01) when a node already claimed the board.
 */
export async function recordFirstSnapshot(pool: Pool, boardId: string, key: string, size: number): Promise<void> {
  await withTransaction(pool, async (c) => {
    await c.query(
      `INSERT INTO board_leases (board_id, token, node_id) VALUES ($1, 0, 'copy') ON CONFLICT (board_id) DO NOTHING`,
      [boardId],
    );
    await c.query(`INSERT INTO snapshots (board_id, up_to_seq, token, storage_key, size) VALUES ($1, 0, 0, $2, $3)`, [
      boardId,
      key,
      size,
    ]);
  });
}
