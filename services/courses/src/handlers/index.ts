/**
 * Every endpoint of the courses service, one per operation in `coursesOperations` (proto). The
 * handlers are one line each (decode by the proto schema → command), so they sit in this one
 * table rather than 26 files; rules live in commands/ and policies/.
 */
import { countOutcomes, endpoint } from '@wb/platform';
import type { Endpoint, RequestContext } from '@wb/platform';
import { coursesOperations } from '@wb/proto';
import type { CoursesOperation } from '@wb/proto';
import type { z } from 'zod';
import {
  copiesOf,
  contentOf,
  createItem,
  createLesson,
  lessonsOf,
  markItem,
  moveItemTo,
  openItem,
  progressTable,
  removeItem,
  removeLesson,
  reorderItems,
  reorderLessons,
  updateItemOf,
  updateLesson,
} from '../commands/content';
import { createCourse, deleteCourse, getCourse, listCourses, updateCourse } from '../commands/courses';
import type { CoursesDeps } from '../commands/deps';
import {
  cancelInvitation,
  createInvitations,
  joinCourse,
  leaveCourse,
  participantsOf,
  removeFromCourse,
} from '../commands/participants';

type Input<O extends CoursesOperation> = z.infer<(typeof coursesOperations)[O]['input']>;
type Handler<O extends CoursesOperation> = (
  deps: CoursesDeps,
  input: Input<O>,
  ctx: RequestContext,
) => Promise<unknown>;

const HANDLERS: { [O in CoursesOperation]: Handler<O> } = {
  'courses.list': (d, _i, c) => listCourses(d, c.actor),
  'course.get': (d, i, c) => getCourse(d, i.courseId, c.actor),
  'course.create': (d, i, c) => createCourse(d, i, c.actor),
  'course.update': (d, i, c) => updateCourse(d, i, c.actor),
  'course.delete': (d, i, c) => deleteCourse(d, i, c.actor),
  'lessons.list': (d, i, c) => lessonsOf(d, i.courseId, c.actor),
  'lesson.create': (d, i, c) => createLesson(d, i, c.actor),
  'lesson.update': (d, i, c) => updateLesson(d, i, c.actor),
  'lessons.reorder': (d, i, c) => reorderLessons(d, i, c.actor),
  'lesson.delete': (d, i, c) => removeLesson(d, i, c.actor),
  'content.list': (d, i, c) => contentOf(d, i.courseId, c.actor),
  'item.create': (d, i, c) => createItem(d, i, c.actor),
  'item.update': (d, i, c) => updateItemOf(d, i, c.actor),
  'items.reorder': (d, i, c) => reorderItems(d, i, c.actor),
  'item.move': (d, i, c) => moveItemTo(d, i, c.actor),
  'item.delete': (d, i, c) => removeItem(d, i, c.actor),
  'item.open': (d, i, c) => openItem(d, i, c.actor),
  'item.progress': (d, i, c) => markItem(d, i, c.actor),
  'item.copies': (d, i, c) => copiesOf(d, i, c.actor),
  'progress.get': (d, i, c) => progressTable(d, i.courseId, c.actor),
  'participants.list': (d, i, c) => participantsOf(d, i.courseId, c.actor),
  'invitations.create': (d, i, c) => createInvitations(d, i, c.actor),
  'invitation.cancel': (d, i, c) => cancelInvitation(d, i, c.actor),
  join: (d, i, c) => joinCourse(d, i, c.actor),
  'participant.remove': (d, i, c) => removeFromCourse(d, i, c.actor),
  leave: (d, i, c) => leaveCourse(d, i, c.actor),
};

export function buildEndpoints(deps: CoursesDeps): Endpoint[] {
  return (Object.keys(HANDLERS) as CoursesOperation[]).map((operation) => {
    const handler = HANDLERS[operation] as Handler<CoursesOperation>;
    const ep = endpoint({
      operation,
      ...coursesOperations[operation],
      handler: (input: Input<CoursesOperation>, ctx: RequestContext) => handler(deps, input, ctx),
    } as Endpoint);
    return countOutcomes(ep, deps.metrics.commands);
  });
}
