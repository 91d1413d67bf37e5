/** SQL on boards.folders. */
import type { Db } from './db';

export interface FolderRow {
  id: number;
  user_id: number;
  name: string;
}

export async function insertFolder(db: Db, userId: number, name: string, at: Date): Promise<FolderRow> {
  const { rows } = await db.query<FolderRow>(
    'INSERT INTO folders (user_id, name, created_at) VALUES ($1, $2, $3) RETURNING id, user_id, name',
    [userId, name, at],
  );
  return rows[0]!;
}

/** a folder of this user (another user's folder is simply not found) */
export async function findOwnFolder(
  db: Db,
  id: number,
  userId: number,
  opts: { forUpdate?: boolean } = {},
): Promise<FolderRow | null> {
  const { rows } = await db.query<FolderRow>(
    `SELECT id, user_id, name FROM folders WHERE id = $1 AND user_id = $2${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [id, userId],
  );
  return rows[0] ?? null;
}

export async function renameFolder(db: Db, id: number, name: string): Promise<FolderRow> {
  const { rows } = await db.query<FolderRow>('UPDATE folders SET name = $2 WHERE id = $1 RETURNING id, user_id, name', [
    id,
    name,
  ]);
  return rows[0]!;
}

export async function deleteFolder(db: Db, id: number): Promise<void> {
  await db.query('DELETE FROM folders WHERE id = $1', [id]);
}

export async function deleteUserFolders(db: Db, userId: number): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM folders WHERE user_id = $1', [userId]);
  return rowCount ?? 0;
}

/** the user's folders by name (case-insensitively), then id */
export async function listFolders(db: Db, userId: number): Promise<FolderRow[]> {
  const { rows } = await db.query<FolderRow>(
    'SELECT id, user_id, name FROM folders WHERE user_id = $1 ORDER BY lower(name), id',
    [userId],
  );
  return rows;
}
