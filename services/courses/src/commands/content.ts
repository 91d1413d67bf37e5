/**
 * Lessons and content items: the owner's edits (feature-checked through courseFor 'edit'), the
 * lists every reader sees, and a participant's side: opening an item (viewed; the board to open,
 * their own copy for copy-mode boards), progress marks with courses.item.completed.v1, and the
 * owner's progress table and list of copies.
 */
import { appendEvent, withTransaction } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import { AppError } from '@wb/proto';
import type {
  BoardCopy,
  ContentItem,
  ItemOpenReply,
  ItemPayload,
  ItemPayloadInput,
  Lesson,
  ProgressMark,
  ProgressTable,
  RequestActor,
} from '@wb/proto';
import { parseYouTubeUrl } from '@wb/proto';
import { sanitizeNotesHtml } from '../policies/notesHtml';
import { presentCopy, presentItem, presentLesson, progressFlags } from '../presenters/course';
import { listParticipants, touchCourse } from '../repositories/courses';
import {
  deleteItem,
  deleteLesson,
  findCopy,
  findItem,
  findLesson,
  insertCopy,
  insertItem,
  insertLesson,
  listCopies,
  listItems,
  listLessons,
  markProgress,
  moveItem,
  progressOf,
  renameLesson,
  setItemOrder,
  setLessonOrder,
  updateItem,
} from '../repositories/content';
import type { ItemRow } from '../repositories/content';
import type { Db } from '../repositories/db';
import { courseFor } from './courses';
import type { CourseContext } from './courses';
import { SCHEMA } from './deps';
import type { CoursesDeps } from './deps';

const OK = { ok: true } as const;

// ---------------------------------------------------------------------------------------------
// lessons

export async function lessonsOf(deps: CoursesDeps, courseId: number, actor: RequestActor): Promise<Lesson[]> {
  await courseFor(deps, deps.pool, courseId, actor, 'read');
  return (await listLessons(deps.pool, courseId)).map(presentLesson);
}

/** an owner's edit in one transaction, the course row locked (orders stay consistent) */
function edit<T>(
  deps: CoursesDeps,
  courseId: number,
  actor: RequestActor,
  work: (db: Db, ctx: CourseContext) => Promise<T>,
) {
  return withTransaction(deps.pool, async (client) => {
    const ctx = await courseFor(deps, client, courseId, actor, 'edit', { forUpdate: true });
    const out = await work(client, ctx);
    await touchCourse(client, courseId, deps.now());
    return out;
  });
}

const lessonMissing = () => new AppError('ERR_NOT_FOUND', 'Lesson not found');
const itemMissing = () => new AppError('ERR_NOT_FOUND', 'Item not found');

export function createLesson(deps: CoursesDeps, input: { courseId: number; name: string }, actor: RequestActor) {
  return edit(deps, input.courseId, actor, async (db) =>
    presentLesson(await insertLesson(db, input.courseId, input.name, deps.now())),
  );
}

export function updateLesson(
  deps: CoursesDeps,
  input: { courseId: number; lessonId: number; name: string },
  actor: RequestActor,
) {
  return edit(deps, input.courseId, actor, async (db) => {
    const row = await renameLesson(db, input.courseId, input.lessonId, input.name);
    if (!row) throw lessonMissing();
    return presentLesson(row);
  });
}

/** `ids`: every lesson of the course, each once, in the new order */
export function reorderLessons(deps: CoursesDeps, input: { courseId: number; ids: number[] }, actor: RequestActor) {
  return edit(deps, input.courseId, actor, async (db) => {
    const current = (await listLessons(db, input.courseId)).map((l) => l.id);
    if (
      new Set(input.ids).size !== input.ids.length ||
      input.ids.length !== current.length ||
      !input.ids.every((id) => current.includes(id))
    ) {
      throw new AppError('ERR_INVALID_INPUT', 'Name every lesson of the course once', {
        ids: 'not the course’s lessons',
      });
    }
    await setLessonOrder(db, input.courseId, input.ids);
    return (await listLessons(db, input.courseId)).map(presentLesson);
  });
}

export function removeLesson(deps: CoursesDeps, input: { courseId: number; lessonId: number }, actor: RequestActor) {
  return edit(deps, input.courseId, actor, async (db) => {
    if (!(await deleteLesson(db, input.courseId, input.lessonId))) throw lessonMissing();
    return OK;
  });
}

// ---------------------------------------------------------------------------------------------
// items

/** what is stored for a kind: ids checked against the owner's boards and files, notes sanitised, videos parsed */
async function payloadOf(
  deps: CoursesDeps,
  ownerId: number,
  input: ItemPayloadInput,
): Promise<{ payload: ItemPayload; title: string }> {
  switch (input.kind) {
    case 'board': {
      const board = await deps.library.ownBoard(ownerId, input.boardId);
      if (!board) throw new AppError('ERR_BOARD_NOT_FOUND', undefined, { boardId: 'not one of your boards' });
      return { payload: { kind: 'board', boardId: input.boardId, access: input.access }, title: board.title };
    }
    case 'file':
      if (!(await deps.library.fileOf(ownerId, input.fileId))) {
        throw new AppError('ERR_NOT_FOUND', 'File not found', { fileId: 'not in your files' });
      }
      return { payload: input, title: '' };
    case 'notes':
      return { payload: { kind: 'notes', html: sanitizeNotesHtml(input.html) }, title: '' };
    case 'link':
      return { payload: input, title: '' };
    case 'video': {
      const video = parseYouTubeUrl(input.url);
      if (!video) throw new AppError('ERR_INVALID_INPUT', 'Invalid video URL', { url: 'Invalid video URL' });
      return { payload: { kind: 'video', url: input.url, ...video }, title: '' };
    }
    case 'test':
      return { payload: input, title: '' };
  }
}

async function assertLesson(db: Db, courseId: number, lessonId: number | null | undefined): Promise<number | null> {
  if (lessonId === null || lessonId === undefined) return null;
  if (!(await findLesson(db, courseId, lessonId))) throw lessonMissing();
  return lessonId;
}

export async function contentOf(deps: CoursesDeps, courseId: number, actor: RequestActor): Promise<ContentItem[]> {
  const { userId, role } = await courseFor(deps, deps.pool, courseId, actor, 'read');
  const [items, progress] = await Promise.all([
    listItems(deps.pool, courseId),
    role === 'participant' ? progressOf(deps.pool, courseId, userId) : Promise.resolve([]),
  ]);
  const byItem = new Map(progress.map((p) => [p.item_id, p]));
  return items.map((i) => presentItem(i, byItem.get(i.id)));
}

export async function createItem(
  deps: CoursesDeps,
  input: { courseId: number; lesson_id?: number | null; title?: string; payload: ItemPayloadInput },
  actor: RequestActor,
): Promise<ContentItem> {
  // the owner's board or file is asked of boards / files before the transaction (no lock held meanwhile)
  const { course } = await courseFor(deps, deps.pool, input.courseId, actor, 'edit');
  const made = await payloadOf(deps, course.owner_id, input.payload);
  return edit(deps, input.courseId, actor, async (db) => {
    const lessonId = await assertLesson(db, input.courseId, input.lesson_id);
    const row = await insertItem(db, {
      courseId: input.courseId,
      lessonId,
      title: input.title || made.title,
      payload: made.payload,
      at: deps.now(),
    });
    return presentItem(row);
  });
}

export async function updateItemOf(
  deps: CoursesDeps,
  input: { courseId: number; itemId: number; title?: string; payload?: ItemPayloadInput },
  actor: RequestActor,
): Promise<ContentItem> {
  const { course } = await courseFor(deps, deps.pool, input.courseId, actor, 'edit');
  const made = input.payload ? await payloadOf(deps, course.owner_id, input.payload) : null;
  return edit(deps, input.courseId, actor, async (db) => {
    const item = await findItem(db, input.courseId, input.itemId);
    if (!item) throw itemMissing();
    if (made && made.payload.kind !== item.kind) {
      throw new AppError('ERR_INVALID_INPUT', 'An item keeps its kind', { kind: `this item is a ${item.kind}` });
    }
    const row = await updateItem(db, {
      courseId: input.courseId,
      itemId: item.id,
      title: input.title ?? item.title,
      payload: made?.payload ?? item.payload,
      at: deps.now(),
    });
    return presentItem(row);
  });
}

export function reorderItems(
  deps: CoursesDeps,
  input: { courseId: number; lesson_id: number | null; ids: number[] },
  actor: RequestActor,
): Promise<ContentItem[]> {
  return edit(deps, input.courseId, actor, async (db) => {
    const lessonId = await assertLesson(db, input.courseId, input.lesson_id);
    const items = await listItems(db, input.courseId);
    const known = new Set(items.map((i) => i.id));
    if (new Set(input.ids).size !== input.ids.length || !input.ids.every((id) => known.has(id))) {
      throw new AppError('ERR_INVALID_INPUT', 'Name items of this course once each', {
        ids: 'unknown or repeated item',
      });
    }
    // the group's items left out keep their order after the named ones
    const rest = items.filter((i) => i.lesson_id === lessonId && !input.ids.includes(i.id)).map((i) => i.id);
    await setItemOrder(db, input.courseId, lessonId, [...input.ids, ...rest]);
    return (await listItems(db, input.courseId)).map((i) => presentItem(i));
  });
}

export function moveItemTo(
  deps: CoursesDeps,
  input: { courseId: number; itemId: number; lesson_id: number | null },
  actor: RequestActor,
): Promise<ContentItem> {
  return edit(deps, input.courseId, actor, async (db) => {
    const lessonId = await assertLesson(db, input.courseId, input.lesson_id);
    if (!(await findItem(db, input.courseId, input.itemId))) throw itemMissing();
    return presentItem(await moveItem(db, input.courseId, input.itemId, lessonId, deps.now()));
  });
}

export function removeItem(deps: CoursesDeps, input: { courseId: number; itemId: number }, actor: RequestActor) {
  return edit(deps, input.courseId, actor, async (db) => {
    if (!(await deleteItem(db, input.courseId, input.itemId))) throw itemMissing();
    return OK;
  });
}

// ---------------------------------------------------------------------------------------------
// a participant's side

async function mark(deps: CoursesDeps, db: PoolClient, item: ItemRow, userId: number, m: ProgressMark): Promise<void> {
  const fresh = await markProgress(db, { courseId: item.course_id, itemId: item.id, userId, mark: m, at: deps.now() });
  if (fresh) {
    await appendEvent(db, SCHEMA, 'courses.item.completed.v1', {
      courseId: item.course_id,
      itemId: item.id,
      userId,
      kind: item.kind,
      mark: m,
    });
  }
}

async function itemFor(deps: CoursesDeps, db: Db, input: { courseId: number; itemId: number }, actor: RequestActor) {
  const ctx = await courseFor(deps, db, input.courseId, actor, 'read');
  const item = await findItem(db, input.courseId, input.itemId);
  if (!item) throw itemMissing();
  return { ...ctx, item };
}

async function ownProgress(db: Db, item: ItemRow, userId: number) {
  return (await progressOf(db, item.course_id, userId)).find((p) => p.item_id === item.id);
}

/**
 * Opening an item: a participant's "viewed" mark, and for a board item the board to open —
 * the teacher's (an explicit view/edit grant is given on the way) or, in copy mode, the
 * participant's own copy, made by the boards service on the first open.
 */
export async function openItem(
  deps: CoursesDeps,
  input: { courseId: number; itemId: number },
  actor: RequestActor,
): Promise<ItemOpenReply> {
  const { item, role, userId, course } = await itemFor(deps, deps.pool, input, actor);
  let boardId: string | null = null;
  let boardAccess: ItemOpenReply['boardAccess'] = null;
  let document: ItemOpenReply['document'] = null;
  if (item.payload.kind === 'board') {
    const p = item.payload;
    if (role === 'owner') [boardId, boardAccess] = [p.boardId, 'own'];
    else if (p.access === 'copy') [boardId, boardAccess] = [await copyFor(deps, item, p.boardId, userId, actor), 'own'];
    else {
      await deps.library.grantBoard(course.owner_id, p.boardId, userId, p.access);
      [boardId, boardAccess] = [p.boardId, p.access];
    }
  } else if (item.payload.kind === 'file') {
    // participants read it through the owner's library (it is not in theirs); gone → null
    document = await deps.library.fileOf(course.owner_id, item.payload.fileId);
  }
  if (role === 'participant') await withTransaction(deps.pool, (db) => mark(deps, db, item, userId, 'viewed'));
  return {
    item: presentItem(item, role === 'participant' ? await ownProgress(deps.pool, item, userId) : undefined),
    boardId,
    boardAccess,
    document,
  };
}

async function copyFor(
  deps: CoursesDeps,
  item: ItemRow,
  sourceBoardId: string,
  userId: number,
  actor: RequestActor,
): Promise<string> {
  const existing = await findCopy(deps.pool, item.id, userId);
  if (existing) return existing.board_id;
  const names = await deps.directory.namesOf([userId]);
  const title = `${item.title || 'Board'} (${names?.[String(userId)] ?? 'copy'})`.slice(0, 200);
  let boardId: string;
  try {
    boardId = await deps.library.duplicateBoard(sourceBoardId, userId, title, actor);
  } catch (err) {
    deps.metrics.copies.inc({ outcome: 'failed' });
    throw err;
  }
  deps.metrics.copies.inc({ outcome: 'made' });
  // a concurrent first open may have recorded its copy first: that one is kept
  const row = await insertCopy(deps.pool, {
    courseId: item.course_id,
    itemId: item.id,
    userId,
    boardId,
    at: deps.now(),
  });
  if (row.board_id !== boardId)
    deps.log.warn({ itemId: item.id, userId, extra: boardId }, 'a second copy was made by a concurrent open');
  return row.board_id;
}

/** a participant's drew / submitted mark (viewed also comes from opening) */
export async function markItem(
  deps: CoursesDeps,
  input: { courseId: number; itemId: number; mark: ProgressMark },
  actor: RequestActor,
): Promise<ContentItem> {
  return withTransaction(deps.pool, async (db) => {
    await courseFor(deps, db, input.courseId, actor, 'progress');
    const { item, userId } = await itemFor(deps, db, input, actor);
    await mark(deps, db, item, userId, input.mark);
    return presentItem(item, await ownProgress(db, item, userId));
  });
}

/** the owner's list of the participants' copies of a copy-mode board item ("Ada's copy") */
export async function copiesOf(
  deps: CoursesDeps,
  input: { courseId: number; itemId: number },
  actor: RequestActor,
): Promise<BoardCopy[]> {
  const { item, role } = await itemFor(deps, deps.pool, input, actor);
  if (role !== 'owner') throw new AppError('ERR_FORBIDDEN');
  const copies = await listCopies(deps.pool, item.id);
  const names = await deps.directory.namesOf(copies.map((c) => c.user_id));
  return copies.map((c) => presentCopy(c, names?.[String(c.user_id)] ?? null));
}

/** the owner's course progress table: every participant's marks per item */
export async function progressTable(deps: CoursesDeps, courseId: number, actor: RequestActor): Promise<ProgressTable> {
  const { role } = await courseFor(deps, deps.pool, courseId, actor, 'read');
  if (role !== 'owner') throw new AppError('ERR_FORBIDDEN');
  const [items, participants, progress] = await Promise.all([
    listItems(deps.pool, courseId),
    listParticipants(deps.pool, courseId),
    progressOf(deps.pool, courseId),
  ]);
  const names = await deps.directory.namesOf(participants.map((p) => p.user_id));
  return {
    items: items.map((i) => ({ id: i.id, title: i.title, kind: i.kind })),
    participants: participants.map((p) => ({
      id: p.user_id,
      name: names?.[String(p.user_id)] ?? null,
      progress: Object.fromEntries(
        progress.filter((g) => g.user_id === p.user_id).map((g) => [String(g.item_id), progressFlags(g)]),
      ),
    })),
  };
}
