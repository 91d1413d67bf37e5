/** Who holds a stored object: people's libraries (user_files) and boards (board_files). */
import type { Db } from './db';
import type { ObjectRow } from './objects';

/** one library entry with its object, as docs.list and doc.get present it */
export type LibraryRow = ObjectRow & { name: string; added_at: Date };

/**
 * What `userId` stores, each distinct document once: their library plus the uploads charged to
 * them through their boards (spec §5 maxData; no double counting).
 */
export async function usageOf(db: Db, userId: number): Promise<number> {
  const { rows } = await db.query<{ bytes: string }>(
    `SELECT COALESCE(sum(o.size), 0)::text AS bytes FROM objects o
     WHERE o.id IN (SELECT doc_id FROM user_files WHERE user_id = $1
                    UNION SELECT doc_id FROM board_files WHERE owner_id = $1)`,
    [userId],
  );
  return Number(rows[0]!.bytes);
}

/** does `userId`'s usage already count `docId` */
export async function chargedWith(db: Db, userId: number, docId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM user_files WHERE user_id = $1 AND doc_id = $2
     UNION ALL SELECT 1 FROM board_files WHERE owner_id = $1 AND doc_id = $2 LIMIT 1`,
    [userId, docId],
  );
  return (rowCount ?? 0) > 0;
}

/** add to the library; an entry already there keeps its name and date. Answers the entry. */
export async function addToLibrary(
  db: Db,
  userId: number,
  docId: string,
  name: string,
  now: Date,
): Promise<{ name: string; created_at: Date }> {
  const { rows } = await db.query<{ name: string; created_at: Date }>(
    `WITH ins AS (
       INSERT INTO user_files (user_id, doc_id, name, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, doc_id) DO NOTHING RETURNING name, created_at
     )
     SELECT name, created_at FROM ins
     UNION ALL SELECT name, created_at FROM user_files WHERE user_id = $1 AND doc_id = $2
     LIMIT 1`,
    [userId, docId, name, now],
  );
  return rows[0]!;
}

/** add to a board; a file already on it keeps its name and date. Answers the entry. */
export async function addToBoard(
  db: Db,
  e: { boardId: string; docId: string; ownerId: number; addedBy: number; name: string; now: Date },
): Promise<{ name: string; created_at: Date }> {
  const { rows } = await db.query<{ name: string; created_at: Date }>(
    `WITH ins AS (
       INSERT INTO board_files (board_id, doc_id, owner_id, added_by, name, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (board_id, doc_id) DO NOTHING RETURNING name, created_at
     )
     SELECT name, created_at FROM ins
     UNION ALL SELECT name, created_at FROM board_files WHERE board_id = $1 AND doc_id = $2
     LIMIT 1`,
    [e.boardId, e.docId, e.ownerId, e.addedBy, e.name, e.now],
  );
  return rows[0]!;
}

const LIBRARY_COLUMNS =
  'o.id, o.format, o.is_image, o.mime, o.size, o.status, o.pages, o.pages_done, o.error, o.created_at, o.failed_at, u.name, u.created_at AS added_at';

export async function libraryOf(db: Db, userId: number): Promise<LibraryRow[]> {
  const { rows } = await db.query<LibraryRow>(
    `SELECT ${LIBRARY_COLUMNS} FROM user_files u JOIN objects o ON o.id = u.doc_id
     WHERE u.user_id = $1 ORDER BY u.created_at DESC, u.doc_id`,
    [userId],
  );
  return rows;
}

export async function libraryEntry(db: Db, userId: number, docId: string): Promise<LibraryRow | null> {
  const { rows } = await db.query<LibraryRow>(
    `SELECT ${LIBRARY_COLUMNS} FROM user_files u JOIN objects o ON o.id = u.doc_id
     WHERE u.user_id = $1 AND u.doc_id = $2`,
    [userId, docId],
  );
  return rows[0] ?? null;
}

/** remove from a library; answers the ids that were there */
export async function removeFromLibrary(db: Db, userId: number, docIds: string[]): Promise<string[]> {
  const { rows } = await db.query<{ doc_id: string }>(
    'DELETE FROM user_files WHERE user_id = $1 AND doc_id = ANY($2) RETURNING doc_id',
    [userId, docIds],
  );
  return rows.map((r) => r.doc_id);
}

export async function removeLibrary(db: Db, userId: number): Promise<string[]> {
  const { rows } = await db.query<{ doc_id: string }>('DELETE FROM user_files WHERE user_id = $1 RETURNING doc_id', [
    userId,
  ]);
  return rows.map((r) => r.doc_id);
}

export async function removeBoard(db: Db, boardId: string): Promise<string[]> {
  const { rows } = await db.query<{ doc_id: string }>('DELETE FROM board_files WHERE board_id = $1 RETURNING doc_id', [
    boardId,
  ]);
  return rows.map((r) => r.doc_id);
}

/** every registration of a document (its conversion failed) */
export async function removeAllOf(db: Db, docId: string): Promise<void> {
  await db.query('DELETE FROM user_files WHERE doc_id = $1', [docId]);
  await db.query('DELETE FROM board_files WHERE doc_id = $1', [docId]);
}

export async function isHeld(db: Db, docId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM user_files WHERE doc_id = $1 UNION ALL SELECT 1 FROM board_files WHERE doc_id = $1 LIMIT 1`,
    [docId],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * has `userId` shown they hold the bytes of `docId`: it is in their library, or they put it on a
 * board (both by uploading it or by answering a possession challenge)
 */
export async function possessedBy(db: Db, userId: number, docId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM user_files WHERE user_id = $1 AND doc_id = $2
     UNION ALL SELECT 1 FROM board_files WHERE added_by = $1 AND doc_id = $2 LIMIT 1`,
    [userId, docId],
  );
  return (rowCount ?? 0) > 0;
}
