/** SQL on boards.board_users: explicit grants and joins ("shared with me"). */
import type { BoardPermission } from '@wb/proto';
import type { Db } from './db';

export interface MemberRow {
  user_id: number;
  permission: BoardPermission | null;
  joined_at: Date | null;
}

/**
 * Record the first join of a non-owner. Joining again changes nothing (no write, so the user's
 * list version and cache stay as they are).
 */
export async function recordJoin(db: Db, boardId: string, userId: number, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO board_users (board_id, user_id, joined_at) VALUES ($1, $2, $3)
     ON CONFLICT (board_id, user_id) DO UPDATE SET joined_at = EXCLUDED.joined_at
      WHERE board_users.joined_at IS NULL`,
    [boardId, userId, at],
  );
}

/** set (or with null remove) one user's explicit permission; a row left with neither grant nor join is deleted */
export async function setGrant(
  db: Db,
  boardId: string,
  userId: number,
  permission: BoardPermission | null,
): Promise<void> {
  if (permission === null) {
    await db.query('UPDATE board_users SET permission = NULL WHERE board_id = $1 AND user_id = $2', [boardId, userId]);
    await dropEmpty(db, boardId, [userId]);
    return;
  }
  await db.query(
    `INSERT INTO board_users (board_id, user_id, permission) VALUES ($1, $2, $3)
     ON CONFLICT (board_id, user_id) DO UPDATE SET permission = EXCLUDED.permission`,
    [boardId, userId, permission],
  );
}

export async function listMembers(db: Db, boardId: string): Promise<MemberRow[]> {
  const { rows } = await db.query<MemberRow>(
    `SELECT user_id, permission, joined_at FROM board_users WHERE board_id = $1
      ORDER BY joined_at DESC NULLS LAST, user_id`,
    [boardId],
  );
  return rows;
}

/** take boards out of the user's "shared with me" (explicit grants stay) */
export async function leaveBoards(db: Db, userId: number, boardIds: string[]): Promise<string[]> {
  const { rows } = await db.query<{ board_id: string }>(
    `UPDATE board_users SET joined_at = NULL
      WHERE user_id = $1 AND board_id = ANY($2::text[]) AND joined_at IS NOT NULL RETURNING board_id`,
    [userId, boardIds],
  );
  await db.query(
    'DELETE FROM board_users WHERE user_id = $1 AND board_id = ANY($2::text[]) AND permission IS NULL AND joined_at IS NULL',
    [userId, boardIds],
  );
  return rows.map((r) => r.board_id);
}

async function dropEmpty(db: Db, boardId: string, userIds: number[]): Promise<void> {
  await db.query(
    'DELETE FROM board_users WHERE board_id = $1 AND user_id = ANY($2::int[]) AND permission IS NULL AND joined_at IS NULL',
    [boardId, userIds],
  );
}

/** a terminated account: its joins and grants on other people's boards */
export async function deleteUserMemberships(db: Db, userId: number): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM board_users WHERE user_id = $1', [userId]);
  return rowCount ?? 0;
}
