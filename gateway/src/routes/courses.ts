/**
 * Courses routes (issue 29; spec §2, §7: GET /api/courses, /api/courses/{id}, /lessons, /content,
 * plus the writes). Paths are the web's; operations and schemas come from `coursesOperations` in
 * proto, so every field is validated here and again by the service. `POST /api/courses/join` is
 * listed before the `{courseId}` routes. Someone else's course answers 404 (ERR_NOT_FOUND).
 */
import { z } from 'zod';
import {
  courseEmptyBodySchema,
  courseIdParamSchema,
  courseInvitationIdParamSchema,
  courseInvitationsBodySchema,
  coursesOperations,
  courseUpdateBodySchema,
  itemCreateBodySchema,
  itemIdParamSchema,
  itemMoveBodySchema,
  itemsReorderBodySchema,
  itemUpdateBodySchema,
  lessonBodySchema,
  lessonIdParamSchema,
  lessonsReorderBodySchema,
  participantIdParamSchema,
  progressBodySchema,
  splitItemCreateBody,
} from '@wb/proto';
import type { CoursesOperation, ErrorCode } from '@wb/proto';
import { defineRoutes } from './types';
import type { HttpMethod, RouteDef } from './types';

const courseParams = z.object({ courseId: courseIdParamSchema });
const lessonParams = z.object({ courseId: courseIdParamSchema, lessonId: lessonIdParamSchema });
const itemParams = z.object({ courseId: courseIdParamSchema, itemId: itemIdParamSchema });
const invitationParams = z.object({ courseId: courseIdParamSchema, invitationId: courseInvitationIdParamSchema });
const participantParams = z.object({ courseId: courseIdParamSchema, userId: participantIdParamSchema });

function route(
  method: HttpMethod,
  path: string,
  operation: CoursesOperation,
  summary: string,
  extra: Partial<RouteDef> = {},
): RouteDef {
  const op = coursesOperations[operation];
  return {
    method,
    path,
    summary,
    tag: 'courses',
    service: 'courses',
    operation,
    auth: 'required',
    ...(method === 'get' || method === 'delete' ? {} : { body: op.input }),
    response: op.output,
    ...extra,
  };
}

const read: ErrorCode[] = ['ERR_NOT_FOUND'];
/** an owner's change: not theirs (404), a participant (403), no courses feature (403) */
const edit: ErrorCode[] = ['ERR_NOT_FOUND', 'ERR_FORBIDDEN', 'ERR_FEATURE_NOT_ENABLED', 'ERR_INVALID_INPUT'];
const itemErrors: ErrorCode[] = [...edit, 'ERR_BOARD_NOT_FOUND', 'ERR_TEMPORARY_PROBLEM'];

export const coursesRoutes = defineRoutes([
  route('get', '/api/courses', 'courses.list', 'The caller’s courses: owned and attended'),
  route('post', '/api/courses', 'course.create', 'Create a course (needs the courses feature)', {
    errors: ['ERR_FEATURE_NOT_ENABLED', 'ERR_INVALID_INPUT'],
  }),
  route('post', '/api/courses/join', 'join', 'Join a course with the token of the join-course link', {
    errors: ['ERR_COURSE_INVITATION_MISSING', 'ERR_USER_IN_COURSE', 'ERR_TEMPORARY_PROBLEM', 'ERR_INVALID_INPUT'],
  }),
  route('get', '/api/courses/:courseId', 'course.get', 'One course (owner or participant)', {
    params: courseParams,
    errors: read,
  }),
  route('put', '/api/courses/:courseId', 'course.update', 'Rename a course (owner)', {
    params: courseParams,
    body: courseUpdateBodySchema,
    errors: edit,
  }),
  route(
    'delete',
    '/api/courses/:courseId',
    'course.delete',
    'Delete a course with its lessons, items and participants (owner)',
    {
      params: courseParams,
      errors: ['ERR_NOT_FOUND', 'ERR_FORBIDDEN'],
    },
  ),
  route('get', '/api/courses/:courseId/lessons', 'lessons.list', 'The course’s lessons in order', {
    params: courseParams,
    errors: read,
  }),
  route('post', '/api/courses/:courseId/lessons', 'lesson.create', 'Add a lesson at the end (owner)', {
    params: courseParams,
    body: lessonBodySchema,
    errors: edit,
  }),
  route(
    'post',
    '/api/courses/:courseId/lessons/reorder',
    'lessons.reorder',
    'Put every lesson in a new order (owner)',
    {
      params: courseParams,
      body: lessonsReorderBodySchema,
      errors: edit,
    },
  ),
  route('put', '/api/courses/:courseId/lessons/:lessonId', 'lesson.update', 'Rename a lesson (owner)', {
    params: lessonParams,
    body: lessonBodySchema,
    errors: edit,
  }),
  route(
    'delete',
    '/api/courses/:courseId/lessons/:lessonId',
    'lesson.delete',
    'Delete a lesson; its items move to the default group (owner)',
    {
      params: lessonParams,
      errors: edit,
    },
  ),
  route(
    'get',
    '/api/courses/:courseId/content',
    'content.list',
    'The course’s items with lesson_id (none: the default group) and the caller’s progress',
    {
      params: courseParams,
      errors: read,
    },
  ),
  route(
    'post',
    '/api/courses/:courseId/content',
    'item.create',
    'Add an item {lesson_id?, kind, title?, …the kind’s fields} (owner)',
    {
      params: courseParams,
      body: itemCreateBodySchema,
      input: ({ params, body }) => ({ ...(params as object), ...splitItemCreateBody(body as Record<string, unknown>) }),
      errors: itemErrors,
    },
  ),
  route(
    'post',
    '/api/courses/:courseId/content/reorder',
    'items.reorder',
    'Put a group’s items in a new order; items from another group move into it (owner)',
    {
      params: courseParams,
      body: itemsReorderBodySchema,
      errors: edit,
    },
  ),
  route(
    'put',
    '/api/courses/:courseId/content/:itemId',
    'item.update',
    'Edit an item’s title and/or fields of its kind (owner)',
    {
      params: itemParams,
      body: itemUpdateBodySchema,
      errors: itemErrors,
    },
  ),
  route('delete', '/api/courses/:courseId/content/:itemId', 'item.delete', 'Delete an item (owner)', {
    params: itemParams,
    errors: edit,
  }),
  route(
    'post',
    '/api/courses/:courseId/content/:itemId/move',
    'item.move',
    'Move an item to the end of another lesson (null: the default group) (owner)',
    {
      params: itemParams,
      body: itemMoveBodySchema,
      errors: edit,
    },
  ),
  route(
    'post',
    '/api/courses/:courseId/content/:itemId/open',
    'item.open',
    'Open an item: marks it viewed; for a board, the board to open (a participant’s own copy in copy mode)',
    {
      params: itemParams,
      body: courseEmptyBodySchema,
      errors: ['ERR_NOT_FOUND', 'ERR_TEMPORARY_PROBLEM'],
      timeoutMs: 15_000,
    },
  ),
  route(
    'post',
    '/api/courses/:courseId/content/:itemId/progress',
    'item.progress',
    'A participant’s progress mark on an item (viewed, drew, submitted)',
    {
      params: itemParams,
      body: progressBodySchema,
      errors: ['ERR_NOT_FOUND', 'ERR_FORBIDDEN', 'ERR_INVALID_INPUT'],
    },
  ),
  route(
    'get',
    '/api/courses/:courseId/content/:itemId/copies',
    'item.copies',
    'The participants’ own copies of a copy-mode board item (owner)',
    {
      params: itemParams,
      errors: ['ERR_NOT_FOUND', 'ERR_FORBIDDEN'],
    },
  ),
  route('get', '/api/courses/:courseId/progress', 'progress.get', 'Every participant’s progress per item (owner)', {
    params: courseParams,
    errors: ['ERR_NOT_FOUND', 'ERR_FORBIDDEN'],
  }),
  route(
    'get',
    '/api/courses/:courseId/participants',
    'participants.list',
    'The participants; the owner also gets pending invitations',
    {
      params: courseParams,
      errors: read,
    },
  ),
  route(
    'post',
    '/api/courses/:courseId/invitations',
    'invitations.create',
    'Invite by email (owner; at most 100 addresses per call); one result per address',
    {
      params: courseParams,
      body: courseInvitationsBodySchema,
      errors: [...edit, 'ERR_TEMPORARY_PROBLEM'],
    },
  ),
  route(
    'delete',
    '/api/courses/:courseId/invitations/:invitationId',
    'invitation.cancel',
    'Cancel a pending invitation (owner)',
    {
      params: invitationParams,
      errors: [...edit, 'ERR_COURSE_INVITATION_MISSING'],
    },
  ),
  route('delete', '/api/courses/:courseId/participants/:userId', 'participant.remove', 'Remove a participant (owner)', {
    params: participantParams,
    errors: ['ERR_NOT_FOUND', 'ERR_FORBIDDEN'],
  }),
  route('post', '/api/courses/:courseId/leave', 'leave', 'Leave a course (participant)', {
    params: courseParams,
    body: courseEmptyBodySchema,
    errors: ['ERR_NOT_FOUND', 'ERR_FORBIDDEN'],
  }),
]);
