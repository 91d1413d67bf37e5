/** rows → the contract's DTOs (what leaves the service) */
import type { BoardCopy, ContentItem, Course, Lesson } from '@wb/proto';
import type { CourseListRow } from '../repositories/courses';
import type { CopyRow, ItemRow, LessonRow, ProgressRow } from '../repositories/content';
import type { InvitationRow } from '../repositories/invitations';

export function presentCourse(
  row: CourseListRow,
  v: { role: 'owner' | 'participant'; editable: boolean; ownerName: string | null },
): Course {
  return {
    id: row.id,
    name: row.name,
    user_id: row.owner_id,
    owner_name: v.ownerName,
    role: v.role,
    editable: v.editable,
    lessons: row.lessons,
    items: row.items,
    participants: row.participants,
    done: row.done,
    created: row.created_at.toISOString(),
    updated: row.updated_at.toISOString(),
  };
}

export function presentLesson(row: LessonRow): Lesson {
  return {
    id: row.id,
    course_id: row.course_id,
    name: row.name,
    position: row.position,
    created: row.created_at.toISOString(),
  };
}

export const progressFlags = (p: ProgressRow | undefined) => ({
  viewed: Boolean(p?.viewed_at),
  drew: Boolean(p?.drew_at),
  submitted: Boolean(p?.submitted_at),
});

export function presentItem(row: ItemRow, progress?: ProgressRow): ContentItem {
  return {
    id: row.id,
    course_id: row.course_id,
    ...(row.lesson_id !== null ? { lesson_id: row.lesson_id } : {}),
    position: row.position,
    title: row.title,
    payload: row.payload,
    progress: progressFlags(progress),
    created: row.created_at.toISOString(),
    updated: row.updated_at.toISOString(),
  };
}

export function presentInvitation(row: InvitationRow) {
  return {
    id: row.id,
    email: row.email,
    created: row.created_at.toISOString(),
    expires: row.expires_at.toISOString(),
  };
}

export function presentCopy(row: CopyRow, name: string | null): BoardCopy {
  return { userId: row.user_id, name, boardId: row.board_id, created: row.created_at.toISOString() };
}
