/**
 * Courses themselves: the lists (GET /api/courses: owned and attended), one course, and the
 * owner's create / rename / delete with their events. `courseFor` is every command's first step:
 * the course and the caller's role in it, or 404 for anyone else.
 */
import { appendEvent, EncodedJson, withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { Course, CourseList, RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { assertCan, assertCoursesFeature, roleIn } from '../policies/courseAccess';
import type { CourseAction, CourseRole } from '../policies/courseAccess';
import { presentCourse } from '../presenters/course';
import {
  deleteCourse as deleteCourseRow,
  findCourse,
  findCourseWithCounts,
  insertCourse,
  isParticipant,
  listAttended,
  listOwned,
  listVersion,
  renameCourse,
} from '../repositories/courses';
import type { CourseListRow, CourseRow } from '../repositories/courses';
import type { Db } from '../repositories/db';
import { SCHEMA } from './deps';
import type { CoursesDeps } from './deps';

export interface CourseContext {
  course: CourseRow;
  role: Exclude<CourseRole, 'none'>;
  userId: number;
}

/** the course and the caller's role; ERR_NOT_FOUND for a course that is not theirs (or is gone) */
export async function courseFor(
  deps: CoursesDeps,
  db: Db,
  courseId: number,
  actor: RequestActor,
  action: CourseAction,
  opts: { forUpdate?: boolean } = {},
): Promise<CourseContext> {
  const userId = requireUserId(actor);
  const course = await findCourse(db, courseId, opts);
  if (!course) throw new AppError('ERR_NOT_FOUND', 'Course not found');
  const role = roleIn(course, userId, course.owner_id !== userId && (await isParticipant(db, courseId, userId)));
  assertCan(role, action);
  if (action === 'edit' || action === 'manage_participants')
    assertCoursesFeature(await deps.plans.planOf(course.owner_id));
  return { course, role: role as CourseContext['role'], userId };
}

async function present(deps: CoursesDeps, rows: CourseListRow[], userId: number): Promise<Course[]> {
  const ownerIds = [...new Set(rows.map((r) => r.owner_id))];
  const names = ownerIds.length ? await deps.directory.namesOf(ownerIds) : {};
  const editable = new Map<number, boolean>();
  await Promise.all(
    ownerIds.map(async (id) => {
      const plan = await deps.plans.planOf(id).catch(() => null);
      editable.set(id, Boolean(plan?.features.courses));
    }),
  );
  return rows.map((r) =>
    presentCourse(r, {
      role: r.owner_id === userId ? 'owner' : 'participant',
      editable: r.owner_id === userId ? (editable.get(r.owner_id) ?? false) : false,
      ownerName: names?.[String(r.owner_id)] ?? null,
    }),
  );
}

/** how long a cached list may show an owner's old name (names live in auth; no version covers them) */
const NAMES_FRESH_MS = 60_000;

/**
 * GET /api/courses, answered from the list cache while the caller's list version (bumped by
 * triggers on every write their cards show), their own plan's `courses` feature (the owned
 * cards' `editable`) and the minute are unchanged. The version is read BEFORE the lists, so a
 * write landing in between can only make the cache reload once more, never keep a stale answer.
 */
export async function listCourses(deps: CoursesDeps, actor: RequestActor): Promise<CourseList | EncodedJson> {
  const userId = requireUserId(actor);
  const [listed, plan] = await Promise.all([
    listVersion(deps.pool, userId),
    deps.plans.planOf(userId).catch(() => null),
  ]);
  const version = `${listed}:${plan?.features.courses ? 1 : 0}:${Math.floor(deps.now().getTime() / NAMES_FRESH_MS)}`;
  const cached = deps.lists.get(String(userId), version);
  if (cached) {
    deps.metrics.listCache.inc({ result: 'hit' });
    return cached;
  }
  deps.metrics.listCache.inc({ result: 'miss' });
  const [owned, attended] = await Promise.all([listOwned(deps.pool, userId), listAttended(deps.pool, userId)]);
  const [o, a] = await Promise.all([present(deps, owned, userId), present(deps, attended, userId)]);
  const list = { owned: o, attended: a };
  return deps.lists.set(String(userId), version, list, o.length + a.length);
}

export async function getCourse(deps: CoursesDeps, courseId: number, actor: RequestActor): Promise<Course> {
  const { userId } = await courseFor(deps, deps.pool, courseId, actor, 'read');
  const row = await findCourseWithCounts(deps.pool, courseId, userId);
  if (!row) throw new AppError('ERR_NOT_FOUND', 'Course not found');
  return (await present(deps, [row], userId))[0]!;
}

export async function createCourse(deps: CoursesDeps, input: { name: string }, actor: RequestActor): Promise<Course> {
  const userId = requireUserId(actor);
  assertCoursesFeature(await deps.plans.planOf(userId));
  const row = await withTransaction(deps.pool, async (client) => {
    const course = await insertCourse(client, userId, input.name, deps.now());
    await appendEvent(client, SCHEMA, 'courses.course.created.v1', {
      courseId: course.id,
      ownerId: userId,
      name: course.name,
    });
    return course;
  });
  return getCourse(deps, row.id, actor);
}

export async function updateCourse(
  deps: CoursesDeps,
  input: { courseId: number; name: string },
  actor: RequestActor,
): Promise<Course> {
  await withTransaction(deps.pool, async (client) => {
    const { course } = await courseFor(deps, client, input.courseId, actor, 'edit', { forUpdate: true });
    if (course.name === input.name) return;
    await renameCourse(client, course.id, input.name, deps.now());
    await appendEvent(client, SCHEMA, 'courses.course.renamed.v1', {
      courseId: course.id,
      ownerId: course.owner_id,
      name: input.name,
      previousName: course.name,
    });
  });
  return getCourse(deps, input.courseId, actor);
}

/** the owner deletes a course (lessons, items, participants, invitations, progress go with it) */
export async function deleteCourse(
  deps: CoursesDeps,
  input: { courseId: number },
  actor: RequestActor,
): Promise<{ ok: true }> {
  await withTransaction(deps.pool, async (client) => {
    const { course } = await courseFor(deps, client, input.courseId, actor, 'delete', { forUpdate: true });
    await deleteCourseRow(client, course.id);
    await appendEvent(client, SCHEMA, 'courses.course.deleted.v1', {
      courseId: course.id,
      ownerId: course.owner_id,
      reason: 'owner',
    });
  });
  return { ok: true };
}
