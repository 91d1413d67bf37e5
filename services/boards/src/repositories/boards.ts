/** SQL on boards.boards. No rules here: callers decide what may change. */
import type { BoardBackground, BoardPermission } from '@wb/proto';
import type { Db } from './db';

export interface BoardRow {
  id: string;
  user_id: number;
  title: string;
  folder_id: number | null;
  trashed_at: Date | null;
  trashed_count: number;
  background: BoardBackground;
  default_permission: BoardPermission;
  delete_own_only: boolean;
  created_at: Date;
  updated_at: Date;
  /** the dashboard preview's version (bigint as text), null until the first one */
  preview_version: string | null;
  /** a course copy's source board (board.duplicate), null otherwise */
  copied_from: string | null;
}

/** the columns of one GET /api/boards item */

const COLUMNS =
  'id, user_id, title, folder_id, trashed_at, trashed_count, background, default_permission, delete_own_only, created_at, updated_at, preview_version, copied_from';
const JOINED_COLUMNS = COLUMNS.split(', ')
  .map((c) => `b.${c}`)
  .join(', ');

export async function insertBoard(
  db: Db,
  b: {
    id: string;
    userId: number;
    title: string;
    folderId: number | null;
    background: BoardBackground;
    defaultPermission: BoardPermission;
    deleteOwnOnly: boolean;
    now: Date;
    /** a course copy's source board (board.duplicate) */
    copiedFrom?: string;
  },
): Promise<BoardRow> {
  const { rows } = await db.query<BoardRow>(
    `INSERT INTO boards (id, user_id, title, folder_id, background, default_permission, delete_own_only, created_at, updated_at, copied_from)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9) RETURNING ${COLUMNS}`,
    [
      b.id,
      b.userId,
      b.title,
      b.folderId,
      b.background,
      b.defaultPermission,
      b.deleteOwnOnly,
      b.now,
      b.copiedFrom ?? null,
    ],
  );
  return rows[0]!;
}

export async function findBoard(db: Db, id: string, opts: { forUpdate?: boolean } = {}): Promise<BoardRow | null> {
  const { rows } = await db.query<BoardRow>(
    `SELECT ${COLUMNS} FROM boards WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/** a board with the explicit grant of one user (null when none) */
export async function findBoardForUser(
  db: Db,
  id: string,
  userId: number,
): Promise<(BoardRow & { grant: BoardPermission | null }) | null> {
  const { rows } = await db.query<BoardRow & { grant: BoardPermission | null }>(
    `SELECT b.id, b.user_id, b.title, b.folder_id, b.trashed_at, b.trashed_count, b.background,
            b.default_permission, b.delete_own_only, b.created_at, b.updated_at, b.preview_version, b.copied_from, m.permission AS grant
       FROM boards b LEFT JOIN board_users m ON m.board_id = b.id AND m.user_id = $2
      WHERE b.id = $1`,
    [id, userId],
  );
  return rows[0] ?? null;
}

/** lock the named boards (in id order, so two batch calls cannot deadlock); unknown ids are simply absent */
export async function lockBoards(db: Db, ids: string[]): Promise<BoardRow[]> {
  const { rows } = await db.query<BoardRow>(
    `SELECT ${COLUMNS} FROM boards WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
  return rows;
}

export async function findBoards(db: Db, ids: string[]): Promise<BoardRow[]> {
  const { rows } = await db.query<BoardRow>(`SELECT ${COLUMNS} FROM boards WHERE id = ANY($1::text[])`, [ids]);
  return rows;
}

/** the owner's boards that are not in the trash (what counts against maxBoards; course copies do not) */
export async function countActiveOwned(db: Db, userId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM boards WHERE user_id = $1 AND trashed_at IS NULL AND copied_from IS NULL',
    [userId],
  );
  return rows[0]!.n;
}

export async function updateBoard(
  db: Db,
  id: string,
  p: {
    title?: string;
    background?: BoardBackground;
    defaultPermission?: BoardPermission;
    deleteOwnOnly?: boolean;
    now: Date;
  },
): Promise<BoardRow> {
  const sets: string[] = ['updated_at = $2'];
  const values: unknown[] = [id, p.now];
  const add = (column: string, value: unknown): void => {
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  };
  if (p.title !== undefined) add('title', p.title);
  if (p.background !== undefined) add('background', p.background);
  if (p.defaultPermission !== undefined) add('default_permission', p.defaultPermission);
  if (p.deleteOwnOnly !== undefined) add('delete_own_only', p.deleteOwnOnly);
  const { rows } = await db.query<BoardRow>(
    `UPDATE boards SET ${sets.join(', ')} WHERE id = $1 RETURNING ${COLUMNS}`,
    values,
  );
  return rows[0]!;
}

export async function markTrashed(db: Db, ids: string[], at: Date): Promise<BoardRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<BoardRow>(
    `UPDATE boards SET trashed_at = $2, trashed_count = trashed_count + 1, updated_at = $2
      WHERE id = ANY($1::text[]) RETURNING ${COLUMNS}`,
    [ids, at],
  );
  return rows;
}

export async function clearTrashed(db: Db, ids: string[], at: Date): Promise<BoardRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<BoardRow>(
    `UPDATE boards SET trashed_at = NULL, updated_at = $2 WHERE id = ANY($1::text[]) RETURNING ${COLUMNS}`,
    [ids, at],
  );
  return rows;
}

export async function setFolder(db: Db, ids: string[], folderId: number | null, at: Date): Promise<BoardRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<BoardRow>(
    `UPDATE boards SET folder_id = $2, updated_at = $3 WHERE id = ANY($1::text[]) RETURNING ${COLUMNS}`,
    [ids, folderId, at],
  );
  return rows;
}

/** unsort every board of a folder; returns their ids */
export async function unsortFolder(db: Db, folderId: number, at: Date): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'UPDATE boards SET folder_id = NULL, updated_at = $2 WHERE folder_id = $1 RETURNING id',
    [folderId, at],
  );
  return rows.map((r) => r.id);
}

export async function deleteBoards(db: Db, ids: string[]): Promise<Array<{ id: string; user_id: number }>> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: string; user_id: number }>(
    'DELETE FROM boards WHERE id = ANY($1::text[]) RETURNING id, user_id',
    [ids],
  );
  return rows;
}

/**
 * Delete up to `limit` boards trashed at or before `cutoff`, oldest first. SKIP LOCKED: a board
 * a user is restoring right now is left for the next run instead of waiting on it.
 */
export async function deleteExpiredTrash(
  db: Db,
  cutoff: Date,
  limit: number,
): Promise<Array<{ id: string; user_id: number }>> {
  const { rows } = await db.query<{ id: string; user_id: number }>(
    `DELETE FROM boards WHERE id IN (
       SELECT id FROM boards WHERE trashed_at <= $1 ORDER BY trashed_at LIMIT $2 FOR UPDATE SKIP LOCKED
     ) RETURNING id, user_id`,
    [cutoff, limit],
  );
  return rows;
}

/** every board of an owner, deleted; returns their ids */
export async function deleteOwnedBoards(db: Db, userId: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('DELETE FROM boards WHERE user_id = $1 RETURNING id', [userId]);
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------
// The board list (GET /api/boards)

/** the version of the user's list; '0' when nothing was ever written for them */
export async function listVersion(db: Db, userId: number): Promise<string> {
  const { rows } = await db.query<{ version: string }>('SELECT version FROM list_versions WHERE user_id = $1', [
    userId,
  ]);
  return rows[0]?.version ?? '0';
}

/** every board the user owns, trashed included, newest first */
export async function listOwned(db: Db, userId: number): Promise<BoardRow[]> {
  const { rows } = await db.query<BoardRow>({
    name: 'boards-list-owned',
    text: `SELECT ${COLUMNS} FROM boards WHERE user_id = $1 ORDER BY created_at DESC, id`,
    values: [userId],
  });
  return rows;
}

export type JoinedBoardRow = BoardRow & { grant: BoardPermission | null };

/** boards of other owners the user joined, most recently joined first (access is decided by the caller) */
export async function listJoined(db: Db, userId: number): Promise<JoinedBoardRow[]> {
  const { rows } = await db.query<JoinedBoardRow>({
    name: 'boards-list-joined',
    text: `SELECT ${JOINED_COLUMNS}, m.permission AS grant
             FROM board_users m JOIN boards b ON b.id = m.board_id
            WHERE m.user_id = $1 AND m.joined_at IS NOT NULL AND b.user_id <> $1
            ORDER BY m.joined_at DESC, b.id`,
    values: [userId],
  });
  return rows;
}

/** a board's preview version, only ever raised (a late or repeated event changes nothing) */
export async function recordPreviewVersion(db: Db, boardId: string, version: number): Promise<void> {
  await db.query(
    'UPDATE boards SET preview_version = $2 WHERE id = $1 AND (preview_version IS NULL OR preview_version < $2)',
    [boardId, version],
  );
}
