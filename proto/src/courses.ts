/**
 * Courses service contracts (issue 29; spec §2 courses routes and join-course, §3 Course, Lesson,
 * Content item, §4 course edit, §5 lesson link and video URL, §6 the `courses` plan feature, §7).
 * A course belongs to its owner, who edits it while their plan has `courses`; participants join
 * from a mailed link and read. (Owned by the courses service; the gateway and the web import these.)
 */
import { z } from 'zod';
import { emptyInputSchema, EMAIL_MAX_LENGTH, okReplySchema } from './auth';
import { boardIdSchema } from './boards';
import { ERROR_CODES } from './errors';
import { docIdSchema, documentDtoSchema } from './files';
import { DB_INT_MAX, userIdSchema } from './input';

export const COURSE_NAME_MAX_LENGTH = 200;
export const LESSON_NAME_MAX_LENGTH = 200;
export const ITEM_TITLE_MAX_LENGTH = 200;
export const LINK_MAX_LENGTH = 2000;
/** notes are HTML; the service sanitises them (allow-list) before storing */
export const NOTES_MAX_LENGTH = 100_000;
/** Most addresses one invitation call may carry (500 at once is refused with ERR_INVALID_INPUT, not a timeout). */
export const COURSE_INVITE_BATCH_MAX = 100;
/** Most pending invitations one course may have (bounds the mails an owner can cause). */
export const COURSE_PENDING_INVITATIONS_MAX = 1000;
/** A course invitation link works this long after it was sent. */
export const COURSE_INVITATION_TTL_DAYS = 30;
/** Most lessons / items one reorder call may name. */
export const COURSE_REORDER_MAX = 1000;
/** spec §5 messages */
export const LINK_INVALID_MESSAGE = 'Please enter a valid link';
export const VIDEO_INVALID_MESSAGE = 'Invalid video URL';
/** Pages of the web app the courses mails link to (spec §2). */
export const COURSE_LINK_PATHS = { joinCourse: '/join-course' } as const;

export const CONTENT_KINDS = ['board', 'file', 'notes', 'link', 'video', 'test'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];
/** what a participant gets of a board item: the teacher's board to view, to edit, or a copy of their own */
export const BOARD_ITEM_ACCESS = ['view', 'edit', 'copy'] as const;
export type BoardItemAccess = (typeof BOARD_ITEM_ACCESS)[number];
/** a participant's progress on one item (issue 29 "Completion") */
export const PROGRESS_MARKS = ['viewed', 'drew', 'submitted'] as const;
export type ProgressMark = (typeof PROGRESS_MARKS)[number];

// ---------------------------------------------------------------------------------------------
// URL rules shared by the web form, the gateway and the service (spec §5)

/** an absolute http(s) URL with a host that has a dot or is localhost */
export function isValidLink(value: string): boolean {
  if (value.length > LINK_MAX_LENGTH || /\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return url.hostname === 'localhost' || /^[^.]+(\.[^.]+)+$/.test(url.hostname);
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com']);
const NOCOOKIE_HOSTS = new Set(['youtube-nocookie.com', 'www.youtube-nocookie.com']);

/** "90", "90s", "1m30s", "1h2m3s" → seconds; null when it is none of those */
function parseStart(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value);
  if (!m || value === '') return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

export interface YouTubeVideo {
  videoId: string;
  /** seconds from the start, 0 when none was given */
  start: number;
}

/**
 * A YouTube URL in any of its usual forms (watch?v=, youtu.be/, /shorts/, /embed/, /live/, the
 * nocookie embed; start time as t= or start=, in seconds or 1m30s) → the video id and start;
 * null for anything else (spec §5 "Invalid video URL").
 */
export function parseYouTubeUrl(value: string): YouTubeVideo | null {
  if (value.length > LINK_MAX_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim()) ? value.trim() : `https://${value.trim()}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split('/').filter(Boolean);
  let id: string | undefined;
  if (host === 'youtu.be') id = parts[0];
  else if (YOUTUBE_HOSTS.has(host)) {
    if (parts[0] === 'watch') id = url.searchParams.get('v') ?? undefined;
    else if (['shorts', 'embed', 'live', 'v'].includes(parts[0] ?? '')) id = parts[1];
  } else if (NOCOOKIE_HOSTS.has(host) && parts[0] === 'embed') id = parts[1];
  if (!id || !YOUTUBE_ID.test(id)) return null;
  const t =
    url.searchParams.get('t') ?? url.searchParams.get('start') ?? /(?:^|&)t=([^&]+)/.exec(url.hash.slice(1))?.[1];
  const start = t === undefined || t === null ? 0 : parseStart(t);
  if (start === null) return null;
  return { videoId: id, start };
}

// ---------------------------------------------------------------------------------------------
// Ids

const idParam = (what: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,9}$/, `not ${what}`)
    .transform(Number)
    .pipe(z.number().int().positive().max(DB_INT_MAX));
const dbId = z.number().int().positive().max(DB_INT_MAX);

export const courseIdSchema = dbId;
export const lessonIdSchema = dbId;
export const itemIdSchema = dbId;
export const courseIdParamSchema = idParam('a course id');
export const lessonIdParamSchema = idParam('a lesson id');
export const itemIdParamSchema = idParam('an item id');
export const courseInvitationIdParamSchema = idParam('an invitation id');
export const participantIdParamSchema = idParam('a user id');

export const courseNameSchema = z.string().trim().min(1).max(COURSE_NAME_MAX_LENGTH);
export const lessonNameSchema = z.string().trim().min(1).max(LESSON_NAME_MAX_LENGTH);
const itemTitleSchema = z.string().trim().max(ITEM_TITLE_MAX_LENGTH);

// ---------------------------------------------------------------------------------------------
// Content items: one payload per kind

const linkSchema = z.string().trim().max(LINK_MAX_LENGTH).refine(isValidLink, LINK_INVALID_MESSAGE);
const videoUrlSchema = z
  .string()
  .trim()
  .max(LINK_MAX_LENGTH)
  .refine((v) => parseYouTubeUrl(v) !== null, VIDEO_INVALID_MESSAGE);

const payloadInputVariants = [
  z.strictObject({
    kind: z.literal('board'),
    boardId: boardIdSchema,
    access: z.enum(BOARD_ITEM_ACCESS).default('view'),
  }),
  z.strictObject({ kind: z.literal('file'), fileId: docIdSchema }),
  z.strictObject({ kind: z.literal('notes'), html: z.string().max(NOTES_MAX_LENGTH) }),
  z.strictObject({ kind: z.literal('link'), url: linkSchema }),
  z.strictObject({ kind: z.literal('video'), url: videoUrlSchema }),
  z.strictObject({ kind: z.literal('test'), assignmentId: z.string().trim().min(1).max(100) }),
] as const;
/** what the owner sends for each kind (the service checks ids against the owner's boards and files) */
export const itemPayloadInputSchema = z.discriminatedUnion('kind', [...payloadInputVariants]);
export type ItemPayloadInput = z.infer<typeof itemPayloadInputSchema>;

/** what is stored and answered for each kind */
export const itemPayloadSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('board'), boardId: z.string(), access: z.enum(BOARD_ITEM_ACCESS) }),
  z.object({ kind: z.literal('file'), fileId: z.string() }),
  /** sanitised HTML (allow-listed tags and attributes, links http(s)/mailto only) */
  z.object({ kind: z.literal('notes'), html: z.string() }),
  z.object({ kind: z.literal('link'), url: z.string() }),
  /** url as given; videoId and start (seconds) for the youtube-nocookie embed */
  z.object({ kind: z.literal('video'), url: z.string(), videoId: z.string(), start: z.number().int() }),
  z.object({ kind: z.literal('test'), assignmentId: z.string() }),
]);
export type ItemPayload = z.infer<typeof itemPayloadSchema>;

const progressSchema = z.object({
  viewed: z.boolean(),
  drew: z.boolean(),
  submitted: z.boolean(),
});
export type ItemProgress = z.infer<typeof progressSchema>;

export const contentItemSchema = z.object({
  id: z.number().int(),
  course_id: z.number().int(),
  /** absent: the default group (spec §3) */
  lesson_id: z.number().int().optional(),
  position: z.number().int(),
  title: z.string(),
  payload: itemPayloadSchema,
  /** the caller's own progress (a participant's ticks; all false for the owner) */
  progress: progressSchema,
  created: z.string(),
  updated: z.string(),
});
export type ContentItem = z.infer<typeof contentItemSchema>;

export const lessonSchema = z.object({
  id: z.number().int(),
  course_id: z.number().int(),
  name: z.string(),
  position: z.number().int(),
  created: z.string(),
});
export type Lesson = z.infer<typeof lessonSchema>;

export const COURSE_ROLES = ['owner', 'participant'] as const;
export const courseSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** owner */
  user_id: z.number().int(),
  owner_name: z.string().nullable(),
  role: z.enum(COURSE_ROLES),
  /** the owner's plan has `courses`: the course can be changed (else it stays, read-only) */
  editable: z.boolean(),
  lessons: z.number().int(),
  items: z.number().int(),
  participants: z.number().int(),
  /** participants: items with any progress mark, of `items` */
  done: z.number().int(),
  created: z.string(),
  updated: z.string(),
});
export type Course = z.infer<typeof courseSchema>;

export const courseListSchema = z.object({ owned: z.array(courseSchema), attended: z.array(courseSchema) });
export type CourseList = z.infer<typeof courseListSchema>;

export const courseParticipantSchema = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  joined: z.string(),
});
export const courseInvitationSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  created: z.string(),
  expires: z.string(),
});
export const participantsReplySchema = z.object({
  participants: z.array(courseParticipantSchema),
  /** owner only (empty for participants): pending invitations, newest first */
  invitations: z.array(courseInvitationSchema),
});
export type ParticipantsReply = z.infer<typeof participantsReplySchema>;

const errorCodeSchema = z.enum(ERROR_CODES as [string, ...string[]]);
export const courseInvitationResultSchema = z.object({
  email: z.string(),
  invitation: courseInvitationSchema.nullable(),
  /** null when invited; else ERR_EMAIL_INVALID, ERR_CANT_INVITE_YOURSELF, ERR_USER_IN_COURSE, ERR_COURSE_USER_ALREADY_INVITED, ERR_TOO_MANY_REQUESTS */
  code: errorCodeSchema.nullable(),
  message: z.string().nullable(),
});
export const courseInvitationsReplySchema = z.object({ results: z.array(courseInvitationResultSchema) });
export type CourseInvitationsReply = z.infer<typeof courseInvitationsReplySchema>;

/** one participant's own board made from a copy-mode board item ("Ada's copy") */
export const boardCopySchema = z.object({
  userId: z.number().int(),
  name: z.string().nullable(),
  boardId: z.string(),
  created: z.string(),
});
export type BoardCopy = z.infer<typeof boardCopySchema>;

/** what opening an item gives: the board to open (the teacher's, or the caller's own copy) */
export const itemOpenReplySchema = z.object({
  item: contentItemSchema,
  boardId: z.string().nullable(),
  /** what the caller may do on that board */
  boardAccess: z.enum(['own', 'edit', 'view']).nullable(),
  /** a file item: the document as the owner holds it (its image id shows the pages); null when gone */
  document: documentDtoSchema.nullable(),
});
export type ItemOpenReply = z.infer<typeof itemOpenReplySchema>;

export const progressTableSchema = z.object({
  items: z.array(z.object({ id: z.number().int(), title: z.string(), kind: z.enum(CONTENT_KINDS) })),
  participants: z.array(
    z.object({
      id: z.number().int(),
      name: z.string().nullable(),
      /** item id → progress (items without any mark are left out) */
      progress: z.record(z.string(), progressSchema),
    }),
  ),
});
export type ProgressTable = z.infer<typeof progressTableSchema>;

// ---------------------------------------------------------------------------------------------
// Inputs

const courseRef = { courseId: courseIdSchema };
export const courseRefSchema = z.strictObject(courseRef);
export const courseCreateInputSchema = z.strictObject({ name: courseNameSchema });
export const courseUpdateBodySchema = z.strictObject({ name: courseNameSchema });
export const courseUpdateInputSchema = z.strictObject({ ...courseRef, name: courseNameSchema });
export const lessonBodySchema = z.strictObject({ name: lessonNameSchema });
export const lessonCreateInputSchema = z.strictObject({ ...courseRef, name: lessonNameSchema });
export const lessonUpdateInputSchema = z.strictObject({
  ...courseRef,
  lessonId: lessonIdSchema,
  name: lessonNameSchema,
});
export const lessonRefSchema = z.strictObject({ ...courseRef, lessonId: lessonIdSchema });
export const lessonsReorderBodySchema = z.strictObject({
  ids: z.array(lessonIdSchema).min(1).max(COURSE_REORDER_MAX),
});
export const lessonsReorderInputSchema = z.strictObject({ ...courseRef, ...lessonsReorderBodySchema.shape });

/** POST /api/courses/{id}/content: `{lesson_id?, kind, title?, …the kind's fields}` */
const placement = { lesson_id: lessonIdSchema.nullable().optional(), title: itemTitleSchema.optional() };
export const itemCreateBodySchema = z.discriminatedUnion(
  'kind',
  payloadInputVariants.map((v) => v.extend(placement)) as unknown as [
    (typeof payloadInputVariants)[number],
    ...(typeof payloadInputVariants)[number][],
  ],
);
/** the gateway splits the body: placement fields, and the kind's payload */
export function splitItemCreateBody(body: Record<string, unknown>): {
  lesson_id?: unknown;
  title?: unknown;
  payload: Record<string, unknown>;
} {
  const { lesson_id, title, ...payload } = body;
  return { ...(lesson_id !== undefined ? { lesson_id } : {}), ...(title !== undefined ? { title } : {}), payload };
}
export const itemCreateInputSchema = z.object({
  courseId: courseIdSchema,
  lesson_id: lessonIdSchema.nullable().optional(),
  title: itemTitleSchema.optional(),
  payload: itemPayloadInputSchema,
});
/** PUT /api/courses/{id}/content/{itemId}: a new title and/or new fields of the same kind */
export const itemUpdateBodySchema = z.strictObject({
  title: itemTitleSchema.optional(),
  payload: itemPayloadInputSchema.optional(),
});
export const itemUpdateInputSchema = z.strictObject({
  ...courseRef,
  itemId: itemIdSchema,
  ...itemUpdateBodySchema.shape,
});
export const itemRefSchema = z.strictObject({ ...courseRef, itemId: itemIdSchema });
/** the group's items in their new order; items named from another group move into it */
export const itemsReorderBodySchema = z.strictObject({
  lesson_id: lessonIdSchema.nullable(),
  ids: z.array(itemIdSchema).min(1).max(COURSE_REORDER_MAX),
});
export const itemsReorderInputSchema = z.strictObject({ ...courseRef, ...itemsReorderBodySchema.shape });
/** move one item to the end of another lesson (null: the default group) */
export const itemMoveBodySchema = z.strictObject({ lesson_id: lessonIdSchema.nullable() });
export const itemMoveInputSchema = z.strictObject({ ...courseRef, itemId: itemIdSchema, ...itemMoveBodySchema.shape });
/** a participant's mark on an item (viewed is also set by opening it) */
export const progressBodySchema = z.strictObject({ mark: z.enum(PROGRESS_MARKS) });
export const progressInputSchema = z.strictObject({ ...courseRef, itemId: itemIdSchema, ...progressBodySchema.shape });

export const courseInvitationsBodySchema = z.strictObject({
  emails: z.array(z.string().max(EMAIL_MAX_LENGTH)).min(1).max(COURSE_INVITE_BATCH_MAX),
});
export const courseInvitationsInputSchema = z.strictObject({ ...courseRef, ...courseInvitationsBodySchema.shape });
export const courseInvitationRefSchema = z.strictObject({ ...courseRef, invitationId: dbId });
export const courseJoinInputSchema = z.strictObject({ token: z.string().min(1).max(512) });
export const participantRefSchema = z.strictObject({ ...courseRef, userId: userIdSchema });
export const courseEmptyBodySchema = z.strictObject({});

/** Every courses operation with its request and reply schema (the gateway routes refer to them by name). */
export const coursesOperations = {
  'courses.list': { input: emptyInputSchema, output: courseListSchema },
  'course.get': { input: courseRefSchema, output: courseSchema },
  'course.create': { input: courseCreateInputSchema, output: courseSchema },
  'course.update': { input: courseUpdateInputSchema, output: courseSchema },
  'course.delete': { input: courseRefSchema, output: okReplySchema },
  'lessons.list': { input: courseRefSchema, output: z.array(lessonSchema) },
  'lesson.create': { input: lessonCreateInputSchema, output: lessonSchema },
  'lesson.update': { input: lessonUpdateInputSchema, output: lessonSchema },
  'lessons.reorder': { input: lessonsReorderInputSchema, output: z.array(lessonSchema) },
  'lesson.delete': { input: lessonRefSchema, output: okReplySchema },
  'content.list': { input: courseRefSchema, output: z.array(contentItemSchema) },
  'item.create': { input: itemCreateInputSchema, output: contentItemSchema },
  'item.update': { input: itemUpdateInputSchema, output: contentItemSchema },
  'items.reorder': { input: itemsReorderInputSchema, output: z.array(contentItemSchema) },
  'item.move': { input: itemMoveInputSchema, output: contentItemSchema },
  'item.delete': { input: itemRefSchema, output: okReplySchema },
  'item.open': { input: itemRefSchema, output: itemOpenReplySchema },
  'item.progress': { input: progressInputSchema, output: contentItemSchema },
  'item.copies': { input: itemRefSchema, output: z.array(boardCopySchema) },
  'progress.get': { input: courseRefSchema, output: progressTableSchema },
  'participants.list': { input: courseRefSchema, output: participantsReplySchema },
  'invitations.create': { input: courseInvitationsInputSchema, output: courseInvitationsReplySchema },
  'invitation.cancel': { input: courseInvitationRefSchema, output: okReplySchema },
  join: { input: courseJoinInputSchema, output: courseSchema },
  'participant.remove': { input: participantRefSchema, output: okReplySchema },
  leave: { input: courseRefSchema, output: okReplySchema },
} as const;
export type CoursesOperation = keyof typeof coursesOperations;
