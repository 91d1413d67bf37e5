/**
 * Participants (issue 29): the owner invites by address (one result per address, like teams'
 * invitations), each invited address gets a mail with APP_URL/join-course?token=…; the invitee
 * joins with that token while signed in with the invited address; the owner lists, cancels and
 * removes, a participant leaves. Joined/left are announced (courses.participant.*.v1).
 */
import { appendEvent, withTransaction } from '@wb/platform';
import {
  AppError,
  COURSE_INVITATION_TTL_DAYS,
  COURSE_PENDING_INVITATIONS_MAX,
  DEFAULT_LOCALE,
  ERROR_CATALOGUE,
  LOCALES,
} from '@wb/proto';
import type { Course, CourseInvitationsReply, ErrorCode, Locale, ParticipantsReply, RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { presentInvitation } from '../presenters/course';
import { addParticipant, findCourse, listParticipants, removeParticipant } from '../repositories/courses';
import {
  cancelExpired,
  findInvitation,
  findInvitationByToken,
  insertInvitation,
  listPending,
  setInvitationStatus,
} from '../repositories/invitations';
import { courseFor, getCourse } from './courses';
import { SCHEMA } from './deps';
import type { CoursesDeps } from './deps';
import { hashJoinToken } from './tokens';

const OK = { ok: true } as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const asLocale = (v: string | null | undefined): Locale | null =>
  v && (LOCALES as readonly string[]).includes(v) ? (v as Locale) : null;

export async function createInvitations(
  deps: CoursesDeps,
  input: { courseId: number; emails: string[] },
  actor: RequestActor,
): Promise<CourseInvitationsReply> {
  const { course, userId } = await courseFor(deps, deps.pool, input.courseId, actor, 'manage_participants');
  const emails = [...new Set(input.emails.map((e) => e.trim().toLowerCase()))];
  const owner = await deps.directory.userOf(userId);
  if (!owner) throw new AppError('ERR_UNAUTHORIZED');
  const accounts = await deps.directory.lookupEmails(emails.filter((e) => EMAIL.test(e)));
  const fallback = asLocale(actor.locale) ?? DEFAULT_LOCALE;

  const { results, created } = await withTransaction(deps.pool, async (db) => {
    await findCourse(db, course.id, { forUpdate: true });
    const now = deps.now();
    await cancelExpired(db, course.id, now);
    const pending = new Set((await listPending(db, course.id, now)).map((i) => i.email));
    const members = new Set((await listParticipants(db, course.id)).map((p) => p.user_id));
    let pendingCount = pending.size;
    const out: CourseInvitationsReply['results'] = [];
    const made: number[] = [];
    for (const email of emails) {
      const account = accounts[email];
      const code: ErrorCode | null = !EMAIL.test(email)
        ? 'ERR_EMAIL_INVALID'
        : email === owner.email || account?.id === userId
          ? 'ERR_CANT_INVITE_YOURSELF'
          : account && members.has(account.id)
            ? 'ERR_USER_IN_COURSE'
            : pending.has(email)
              ? 'ERR_COURSE_USER_ALREADY_INVITED'
              : pendingCount >= COURSE_PENDING_INVITATIONS_MAX
                ? 'ERR_TOO_MANY_REQUESTS'
                : null;
      if (code) {
        out.push({ email, invitation: null, code, message: ERROR_CATALOGUE[code].message });
        continue;
      }
      const row = await insertInvitation(db, {
        courseId: course.id,
        email,
        invitedBy: userId,
        locale: account?.locale ?? fallback,
        at: now,
        expires: new Date(now.getTime() + COURSE_INVITATION_TTL_DAYS * 86_400_000),
      });
      pending.add(email);
      pendingCount++;
      made.push(row.id);
      out.push({ email, invitation: presentInvitation(row), code: null, message: null });
    }
    return { results: out, created: made };
  });

  try {
    await deps.mail.enqueue(created.map((invitationId) => ({ kind: 'invitation' as const, invitationId })));
  } catch (err) {
    // never an invitation pending without its mail on the way
    deps.log.error({ err, invitations: created }, 'course invitation mails could not be queued; cancelling them');
    await withTransaction(deps.pool, async (db) => {
      for (const id of created) await setInvitationStatus(db, id, 'cancelled', deps.now());
    });
    throw new AppError('ERR_TEMPORARY_PROBLEM');
  }
  return { results };
}

export async function cancelInvitation(
  deps: CoursesDeps,
  input: { courseId: number; invitationId: number },
  actor: RequestActor,
): Promise<{ ok: true }> {
  return withTransaction(deps.pool, async (db) => {
    await courseFor(deps, db, input.courseId, actor, 'manage_participants', { forUpdate: true });
    const inv = await findInvitation(db, input.invitationId, { forUpdate: true });
    if (!inv || inv.course_id !== input.courseId || inv.status !== 'pending')
      throw new AppError('ERR_COURSE_INVITATION_MISSING');
    await setInvitationStatus(db, inv.id, 'cancelled', deps.now());
    return OK;
  });
}

/**
 * POST /api/courses/join {token}: unknown, used, cancelled or expired token, or an account whose
 * address is not the invited one → ERR_COURSE_INVITATION_MISSING (spec §8: "not found or meant
 * for a different email"); already in the course (or its owner) → ERR_USER_IN_COURSE.
 */
export async function joinCourse(deps: CoursesDeps, input: { token: string }, actor: RequestActor): Promise<Course> {
  const userId = requireUserId(actor);
  const me = await deps.directory.userOf(userId);
  if (!me) throw new AppError('ERR_UNAUTHORIZED');
  const courseId = await withTransaction(deps.pool, async (db) => {
    const inv = await findInvitationByToken(db, hashJoinToken(input.token));
    const now = deps.now();
    if (!inv || inv.status !== 'pending' || inv.expires_at <= now || inv.email !== me.email) {
      throw new AppError('ERR_COURSE_INVITATION_MISSING');
    }
    const course = await findCourse(db, inv.course_id, { forUpdate: true });
    if (!course) throw new AppError('ERR_COURSE_INVITATION_MISSING');
    if (course.owner_id === userId || !(await addParticipant(db, course.id, userId, now))) {
      throw new AppError('ERR_USER_IN_COURSE');
    }
    await setInvitationStatus(db, inv.id, 'accepted', now, userId);
    await appendEvent(db, SCHEMA, 'courses.participant.joined.v1', {
      courseId: course.id,
      ownerId: course.owner_id,
      userId,
    });
    return course.id;
  });
  return getCourse(deps, courseId, actor);
}

/** the participants (everyone in the course sees them); the owner also sees pending invitations */
export async function participantsOf(
  deps: CoursesDeps,
  courseId: number,
  actor: RequestActor,
): Promise<ParticipantsReply> {
  const { role } = await courseFor(deps, deps.pool, courseId, actor, 'read');
  const [rows, pending] = await Promise.all([
    listParticipants(deps.pool, courseId),
    role === 'owner' ? listPending(deps.pool, courseId, deps.now()) : Promise.resolve([]),
  ]);
  const names = await deps.directory.namesOf(rows.map((r) => r.user_id));
  return {
    participants: rows.map((r) => ({
      id: r.user_id,
      name: names?.[String(r.user_id)] ?? null,
      joined: r.joined_at.toISOString(),
    })),
    invitations: pending.map(presentInvitation),
  };
}

async function drop(
  deps: CoursesDeps,
  input: { courseId: number; userId: number },
  actor: RequestActor,
  reason: 'left' | 'removed',
): Promise<{ ok: true }> {
  return withTransaction(deps.pool, async (db) => {
    // removing someone is allowed after a downgrade too (only the owner's own role is checked)
    const { course } = await courseFor(deps, db, input.courseId, actor, reason === 'left' ? 'leave' : 'delete', {
      forUpdate: true,
    });
    if (!(await removeParticipant(db, course.id, input.userId)))
      throw new AppError('ERR_NOT_FOUND', 'Not a participant');
    await appendEvent(db, SCHEMA, 'courses.participant.left.v1', {
      courseId: course.id,
      ownerId: course.owner_id,
      userId: input.userId,
      reason,
    });
    return OK;
  });
}

export const removeFromCourse = (deps: CoursesDeps, input: { courseId: number; userId: number }, actor: RequestActor) =>
  drop(deps, input, actor, 'removed');

export const leaveCourse = (deps: CoursesDeps, input: { courseId: number }, actor: RequestActor) =>
  drop(deps, { courseId: input.courseId, userId: requireUserId(actor) }, actor, 'left');
