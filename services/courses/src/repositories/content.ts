/** SQL of lessons, items, progress and board copies. */
import type { ItemPayload, ProgressMark } from '@wb/proto';
import type { Db } from './db';

export interface LessonRow {
  id: number;
  course_id: number;
  name: string;
  position: number;
  created_at: Date;
}
export interface ItemRow {
  id: number;
  course_id: number;
  lesson_id: number | null;
  position: number;
  kind: ItemPayload['kind'];
  title: string;
  payload: ItemPayload;
  created_at: Date;
  updated_at: Date;
}
export interface ProgressRow {
  item_id: number;
  user_id: number;
  viewed_at: Date | null;
  drew_at: Date | null;
  submitted_at: Date | null;
}

const LESSON_COLS = 'id, course_id, name, position, created_at';
const ITEM_COLS = 'id, course_id, lesson_id, position, kind, title, payload, created_at, updated_at';

export async function listLessons(db: Db, courseId: number): Promise<LessonRow[]> {
  const { rows } = await db.query<LessonRow>(
    `SELECT ${LESSON_COLS} FROM lessons WHERE course_id = $1 ORDER BY position, id`,
    [courseId],
  );
  return rows;
}

export async function findLesson(db: Db, courseId: number, lessonId: number): Promise<LessonRow | null> {
  const { rows } = await db.query<LessonRow>(`SELECT ${LESSON_COLS} FROM lessons WHERE course_id = $1 AND id = $2`, [
    courseId,
    lessonId,
  ]);
  return rows[0] ?? null;
}

export async function insertLesson(db: Db, courseId: number, name: string, at: Date): Promise<LessonRow> {
  const { rows } = await db.query<LessonRow>(
    `INSERT INTO lessons (course_id, name, position, created_at)
     VALUES ($1, $2, (SELECT coalesce(max(position) + 1, 0) FROM lessons WHERE course_id = $1), $3)
     RETURNING ${LESSON_COLS}`,
    [courseId, name, at],
  );
  return rows[0]!;
}

export async function renameLesson(
  db: Db,
  courseId: number,
  lessonId: number,
  name: string,
): Promise<LessonRow | null> {
  const { rows } = await db.query<LessonRow>(
    `UPDATE lessons SET name = $3 WHERE course_id = $1 AND id = $2 RETURNING ${LESSON_COLS}`,
    [courseId, lessonId, name],
  );
  return rows[0] ?? null;
}

/** positions 0.. in the given order (every id must be a lesson of the course: checked by the caller) */
export async function setLessonOrder(db: Db, courseId: number, ids: number[]): Promise<void> {
  await db.query(
    `UPDATE lessons l SET position = o.ord - 1 FROM unnest($2::int[]) WITH ORDINALITY AS o(id, ord)
     WHERE l.course_id = $1 AND l.id = o.id`,
    [courseId, ids],
  );
}

/** its items move to the default group, after the items already there */
export async function deleteLesson(db: Db, courseId: number, lessonId: number): Promise<boolean> {
  await db.query(
    `UPDATE items SET lesson_id = NULL,
       position = (SELECT coalesce(max(position) + 1, 0) FROM items WHERE course_id = $1 AND lesson_id IS NULL) + position
     WHERE course_id = $1 AND lesson_id = $2`,
    [courseId, lessonId],
  );
  const { rowCount } = await db.query('DELETE FROM lessons WHERE course_id = $1 AND id = $2', [courseId, lessonId]);
  return rowCount === 1;
}

export async function listItems(db: Db, courseId: number): Promise<ItemRow[]> {
  const { rows } = await db.query<ItemRow>(
    `SELECT ${ITEM_COLS} FROM items WHERE course_id = $1 ORDER BY lesson_id NULLS FIRST, position, id`,
    [courseId],
  );
  return rows;
}

export async function findItem(db: Db, courseId: number, itemId: number): Promise<ItemRow | null> {
  const { rows } = await db.query<ItemRow>(`SELECT ${ITEM_COLS} FROM items WHERE course_id = $1 AND id = $2`, [
    courseId,
    itemId,
  ]);
  return rows[0] ?? null;
}

const NEXT_POSITION = `(SELECT coalesce(max(position) + 1, 0) FROM items WHERE course_id = $1 AND lesson_id IS NOT DISTINCT FROM $2)`;

export async function insertItem(
  db: Db,
  v: { courseId: number; lessonId: number | null; title: string; payload: ItemPayload; at: Date },
): Promise<ItemRow> {
  const { rows } = await db.query<ItemRow>(
    `INSERT INTO items (course_id, lesson_id, position, kind, title, payload, created_at, updated_at)
     VALUES ($1, $2, ${NEXT_POSITION}, $3, $4, $5, $6, $6) RETURNING ${ITEM_COLS}`,
    [v.courseId, v.lessonId, v.payload.kind, v.title, JSON.stringify(v.payload), v.at],
  );
  return rows[0]!;
}

export async function updateItem(
  db: Db,
  v: { courseId: number; itemId: number; title: string; payload: ItemPayload; at: Date },
): Promise<ItemRow> {
  const { rows } = await db.query<ItemRow>(
    `UPDATE items SET title = $3, payload = $4, updated_at = $5 WHERE course_id = $1 AND id = $2 RETURNING ${ITEM_COLS}`,
    [v.courseId, v.itemId, v.title, JSON.stringify(v.payload), v.at],
  );
  return rows[0]!;
}

export async function moveItem(
  db: Db,
  courseId: number,
  itemId: number,
  lessonId: number | null,
  at: Date,
): Promise<ItemRow> {
  const { rows } = await db.query<ItemRow>(
    `UPDATE items SET lesson_id = $2, position = ${NEXT_POSITION}, updated_at = $4
     WHERE course_id = $1 AND id = $3 RETURNING ${ITEM_COLS}`,
    [courseId, lessonId, itemId, at],
  );
  return rows[0]!;
}

/** the listed items go to `lessonId` at positions 0.. in that order */
export async function setItemOrder(db: Db, courseId: number, lessonId: number | null, ids: number[]): Promise<void> {
  await db.query(
    `UPDATE items i SET lesson_id = $2, position = o.ord - 1 FROM unnest($3::int[]) WITH ORDINALITY AS o(id, ord)
     WHERE i.course_id = $1 AND i.id = o.id`,
    [courseId, lessonId, ids],
  );
}

export async function deleteItem(db: Db, courseId: number, itemId: number): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM items WHERE course_id = $1 AND id = $2', [courseId, itemId]);
  return rowCount === 1;
}

export async function progressOf(db: Db, courseId: number, userId?: number): Promise<ProgressRow[]> {
  const { rows } = await db.query<ProgressRow>(
    `SELECT item_id, user_id, viewed_at, drew_at, submitted_at FROM progress
     WHERE course_id = $1 AND ($2::int IS NULL OR user_id = $2)`,
    [courseId, userId ?? null],
  );
  return rows;
}

/** sets the mark if not yet set; true when it was new */
export async function markProgress(
  db: Db,
  v: { courseId: number; itemId: number; userId: number; mark: ProgressMark; at: Date },
): Promise<boolean> {
  const col = `${v.mark}_at`;
  const { rows } = await db.query<{ fresh: boolean }>(
    `INSERT INTO progress AS p (item_id, user_id, course_id, ${col}) VALUES ($1, $2, $3, $4)
     ON CONFLICT (item_id, user_id) DO UPDATE SET ${col} = coalesce(p.${col}, EXCLUDED.${col})
     RETURNING (xmax = 0 OR p.${col} = $4) AS fresh`,
    [v.itemId, v.userId, v.courseId, v.at],
  );
  return rows[0]?.fresh ?? false;
}

export interface CopyRow {
  item_id: number;
  user_id: number;
  board_id: string;
  created_at: Date;
}

export async function findCopy(db: Db, itemId: number, userId: number): Promise<CopyRow | null> {
  const { rows } = await db.query<CopyRow>(
    'SELECT item_id, user_id, board_id, created_at FROM board_copies WHERE item_id = $1 AND user_id = $2',
    [itemId, userId],
  );
  return rows[0] ?? null;
}

export async function insertCopy(
  db: Db,
  v: { courseId: number; itemId: number; userId: number; boardId: string; at: Date },
): Promise<CopyRow> {
  const { rows } = await db.query<CopyRow>(
    `INSERT INTO board_copies (item_id, user_id, course_id, board_id, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (item_id, user_id) DO UPDATE SET item_id = EXCLUDED.item_id
     RETURNING item_id, user_id, board_id, created_at`,
    [v.itemId, v.userId, v.courseId, v.boardId, v.at],
  );
  return rows[0]!;
}

export async function listCopies(db: Db, itemId: number): Promise<CopyRow[]> {
  const { rows } = await db.query<CopyRow>(
    'SELECT item_id, user_id, board_id, created_at FROM board_copies WHERE item_id = $1 ORDER BY created_at, user_id',
    [itemId],
  );
  return rows;
}
