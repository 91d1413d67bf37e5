/** SQL on boards.collaboration_spans (the weekly collaboration-minutes counter per owner). */
import type { Db } from './db';

export interface SpanPiece {
  spanId: string;
  weekStart: string;
  sessionId: string;
  ownerId: number;
  boardId: string;
  from: Date;
  to: Date;
}

/**
 * Record a checkpoint of one span piece: a later `to` moves it forward, an earlier or repeated one
 * changes nothing (redelivery, out-of-order delivery, the event and the request both arriving).
 */
export async function upsertSpanPiece(db: Db, p: SpanPiece): Promise<void> {
  await db.query(
    `INSERT INTO collaboration_spans AS c (span_id, week_start, session_id, owner_id, board_id, from_at, to_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (span_id, week_start) DO UPDATE
        SET from_at = LEAST(c.from_at, EXCLUDED.from_at),
            to_at = GREATEST(c.to_at, EXCLUDED.to_at)`,
    [p.spanId, p.weekStart, p.sessionId, p.ownerId, p.boardId, p.from, p.to],
  );
}

/** the owner's collaboration time in the week starting `weekStart`, in whole ms */
export async function weekUsedMs(db: Db, ownerId: number, weekStart: string): Promise<number> {
  const { rows } = await db.query<{ ms: string }>(
    `SELECT coalesce(floor(sum(extract(epoch FROM to_at - from_at)) * 1000), 0)::bigint AS ms
       FROM collaboration_spans WHERE owner_id = $1 AND week_start = $2`,
    [ownerId, weekStart],
  );
  return Number(rows[0]!.ms);
}

/**
 * What the read-only rule needs in one round trip: the board's place among its owner's boards in
 * the trash-free list, oldest first (1-based; course copies are outside the limit: they are not
 * counted and a copy itself is rank 0), and the owner's collaboration time this week.
 */
export async function readOnlyFacts(
  db: Db,
  board: { id: string; ownerId: number; createdAt: Date },
  weekStart: string,
): Promise<{ rank: number; weekUsedMs: number }> {
  const { rows } = await db.query<{ rank: string; ms: string }>(
    `SELECT (SELECT CASE WHEN me.copied_from IS NOT NULL THEN 0 ELSE
               (SELECT count(*) FROM boards
                 WHERE user_id = $1 AND trashed_at IS NULL AND copied_from IS NULL
                   AND (created_at, id) <= ($2, $3)) END
               FROM boards me WHERE me.id = $3) AS rank,
            (SELECT coalesce(floor(sum(extract(epoch FROM to_at - from_at)) * 1000), 0)::bigint
               FROM collaboration_spans WHERE owner_id = $1 AND week_start = $4) AS ms`,
    [board.ownerId, board.createdAt, board.id, weekStart],
  );
  return { rank: Number(rows[0]!.rank), weekUsedMs: Number(rows[0]!.ms) };
}
