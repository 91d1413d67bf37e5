/** SQL of courses and participants. */
import type { Db } from './db';

export interface CourseRow {
  id: number;
  owner_id: number;
  name: string;
  created_at: Date;
  updated_at: Date;
}
/** a course with what the lists show */
export interface CourseListRow extends CourseRow {
  lessons: number;
  items: number;
  participants: number;
  /** the asking participant's items with any mark */
  done: number;
}

const COLS = 'c.id, c.owner_id, c.name, c.created_at, c.updated_at';

/**
 * The courses `picked` selects (a query over `courses c` returning ids and an order key `ord`),
 * with the counts the cards show, each counted in one grouped pass over the picked ids rather
 * than a subquery per course (a teacher's 200 cards). `$1` = the asking user (their progress).
 */
function withCounts(picked: string): string {
  return `WITH picked AS (${picked}),
    l AS (SELECT course_id, count(*)::int AS n FROM lessons WHERE course_id IN (SELECT id FROM picked) GROUP BY course_id),
    i AS (SELECT course_id, count(*)::int AS n FROM items WHERE course_id IN (SELECT id FROM picked) GROUP BY course_id),
    p AS (SELECT course_id, count(*)::int AS n FROM participants WHERE course_id IN (SELECT id FROM picked) GROUP BY course_id),
    g AS (SELECT course_id, count(*)::int AS n FROM progress
          WHERE user_id = $1 AND course_id IN (SELECT id FROM picked) GROUP BY course_id)
  SELECT ${COLS}, coalesce(l.n, 0) AS lessons, coalesce(i.n, 0) AS items, coalesce(p.n, 0) AS participants,
         coalesce(g.n, 0) AS done
  FROM picked JOIN courses c ON c.id = picked.id
  LEFT JOIN l ON l.course_id = c.id LEFT JOIN i ON i.course_id = c.id
  LEFT JOIN p ON p.course_id = c.id LEFT JOIN g ON g.course_id = c.id
  ORDER BY picked.ord`;
}

export async function insertCourse(db: Db, ownerId: number, name: string, at: Date): Promise<CourseRow> {
  const { rows } = await db.query<CourseRow>(
    `INSERT INTO courses (owner_id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)
     RETURNING id, owner_id, name, created_at, updated_at`,
    [ownerId, name, at],
  );
  return rows[0]!;
}

export async function findCourse(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<CourseRow | null> {
  const { rows } = await db.query<CourseRow>(
    `SELECT ${COLS} FROM courses c WHERE c.id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findCourseWithCounts(db: Db, id: number, userId: number): Promise<CourseListRow | null> {
  const { rows } = await db.query<CourseListRow>(withCounts('SELECT id, 0 AS ord FROM courses WHERE id = $2'), [
    userId,
    id,
  ]);
  return rows[0] ?? null;
}

export async function listOwned(db: Db, userId: number): Promise<CourseListRow[]> {
  const { rows } = await db.query<CourseListRow>(
    withCounts(
      'SELECT id, row_number() OVER (ORDER BY created_at DESC, id DESC) AS ord FROM courses WHERE owner_id = $1',
    ),
    [userId],
  );
  return rows;
}

export async function listAttended(db: Db, userId: number): Promise<CourseListRow[]> {
  const { rows } = await db.query<CourseListRow>(
    withCounts(
      'SELECT course_id AS id, row_number() OVER (ORDER BY joined_at DESC, course_id DESC) AS ord FROM participants WHERE user_id = $1',
    ),
    [userId],
  );
  return rows;
}

/** the version of the user's GET /api/courses (migration 0002's triggers); '0' when never written */
export async function listVersion(db: Db, userId: number): Promise<string> {
  const { rows } = await db.query<{ version: string }>({
    name: 'courses-list-version',
    text: 'SELECT version FROM list_versions WHERE user_id = $1',
    values: [userId],
  });
  return rows[0]?.version ?? '0';
}

export async function renameCourse(db: Db, id: number, name: string, at: Date): Promise<CourseRow> {
  const { rows } = await db.query<CourseRow>(
    `UPDATE courses SET name = $2, updated_at = $3 WHERE id = $1 RETURNING id, owner_id, name, created_at, updated_at`,
    [id, name, at],
  );
  return rows[0]!;
}

export async function touchCourse(db: Db, id: number, at: Date): Promise<void> {
  await db.query('UPDATE courses SET updated_at = $2 WHERE id = $1', [id, at]);
}

export async function deleteCourse(db: Db, id: number): Promise<void> {
  await db.query('DELETE FROM courses WHERE id = $1', [id]);
}

export async function ownedCourseIds(db: Db, ownerId: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM courses WHERE owner_id = $1 FOR UPDATE', [ownerId]);
  return rows.map((r) => r.id);
}

// participants

export interface ParticipantRow {
  course_id: number;
  user_id: number;
  joined_at: Date;
}

export async function isParticipant(db: Db, courseId: number, userId: number): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM participants WHERE course_id = $1 AND user_id = $2', [
    courseId,
    userId,
  ]);
  return rows.length > 0;
}

export async function listParticipants(db: Db, courseId: number): Promise<ParticipantRow[]> {
  const { rows } = await db.query<ParticipantRow>(
    'SELECT course_id, user_id, joined_at FROM participants WHERE course_id = $1 ORDER BY joined_at, user_id',
    [courseId],
  );
  return rows;
}

/** false when they were in it already */
export async function addParticipant(db: Db, courseId: number, userId: number, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    'INSERT INTO participants (course_id, user_id, joined_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [courseId, userId, at],
  );
  return rowCount === 1;
}

/** false when they were not in it; their progress and copies records go with them */
export async function removeParticipant(db: Db, courseId: number, userId: number): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM participants WHERE course_id = $1 AND user_id = $2', [
    courseId,
    userId,
  ]);
  await db.query('DELETE FROM progress WHERE course_id = $1 AND user_id = $2', [courseId, userId]);
  await db.query('DELETE FROM board_copies WHERE course_id = $1 AND user_id = $2', [courseId, userId]);
  return rowCount === 1;
}

export async function attendedCourses(db: Db, userId: number): Promise<Array<{ id: number; owner_id: number }>> {
  const { rows } = await db.query<{ id: number; owner_id: number }>(
    'SELECT c.id, c.owner_id FROM participants p JOIN courses c ON c.id = p.course_id WHERE p.user_id = $1',
    [userId],
  );
  return rows;
}
