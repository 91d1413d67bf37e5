/** SQL on boards.collaboration_sessions (weekly collaboration minutes per owner). */
import type { Db } from './db';

/** widen the session's collaborator span by one participant's stay (idempotent) */
export async function recordCollaboratorStay(
  db: Db,
  s: { sessionId: string; ownerId: number; boardId: string; weekStart: string; joinedAt: Date; leftAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO collaboration_sessions AS c (session_id, owner_id, board_id, week_start, first_join, last_leave)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (session_id) DO UPDATE
        SET first_join = LEAST(c.first_join, EXCLUDED.first_join),
            last_leave = GREATEST(c.last_leave, EXCLUDED.last_leave)`,
    [s.sessionId, s.ownerId, s.boardId, s.weekStart, s.joinedAt, s.leftAt],
  );
}

/**
 * What the read-only rule needs in one round trip: the board's place among its owner's boards in
 * the trash-free list, oldest first (1-based), and the owner's collaboration minutes this week.
 */
export async function readOnlyFacts(
  db: Db,
  board: { id: string; ownerId: number; createdAt: Date },
  weekStart: string,
): Promise<{ rank: number; weekMinutes: number }> {
  const { rows } = await db.query<{ rank: string; minutes: string }>(
    `SELECT (SELECT count(*) FROM boards
              WHERE user_id = $1 AND trashed_at IS NULL AND (created_at, id) <= ($2, $3)) AS rank,
            (SELECT coalesce(sum(extract(epoch FROM last_leave - first_join)), 0) / 60
               FROM collaboration_sessions WHERE owner_id = $1 AND week_start = $4) AS minutes`,
    [board.ownerId, board.createdAt, board.id, weekStart],
  );
  return { rank: Number(rows[0]!.rank), weekMinutes: Number(rows[0]!.minutes) };
}
