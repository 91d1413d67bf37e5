/**
 * Who may do what with a course (spec §4 "Course edit: only by its owner, when the plan includes
 * the courses feature"; §6). Someone who is neither the owner nor a participant gets
 * ERR_NOT_FOUND (404), never a hint that the course exists; a participant asking for an owner's
 * action gets ERR_FORBIDDEN. The plan is checked on every change, so a course survives the
 * owner's downgrade read-only.
 */
import { AppError } from '@wb/proto';
import type { Plan } from '@wb/proto';

export type CourseRole = 'owner' | 'participant' | 'none';
/** delete: the owner, even after a downgrade (a read-only course can still be removed) */
export type CourseAction = 'read' | 'edit' | 'delete' | 'manage_participants' | 'leave' | 'progress';

export function roleIn(course: { owner_id: number }, userId: number, isParticipant: boolean): CourseRole {
  if (course.owner_id === userId) return 'owner';
  return isParticipant ? 'participant' : 'none';
}

export function assertCan(role: CourseRole, action: CourseAction): void {
  if (role === 'none') throw new AppError('ERR_NOT_FOUND', 'Course not found');
  const allowed =
    action === 'read' ||
    (role === 'owner' && (action === 'edit' || action === 'delete' || action === 'manage_participants')) ||
    (role === 'participant' && (action === 'leave' || action === 'progress'));
  if (!allowed) throw new AppError('ERR_FORBIDDEN');
}

/** the owner's plan must have `courses` to create or change a course (ERR_FEATURE_NOT_ENABLED: the web offers the upgrade) */
export function assertCoursesFeature(plan: Plan): void {
  if (!plan.features.courses) {
    throw new AppError('ERR_FEATURE_NOT_ENABLED', 'Courses are not available on your plan', {
      plan: `needs the courses feature (not on the ${plan.name} plan)`,
    });
  }
}
