/**
 * Consumes auth.user.terminated.v1: the user's own courses are deleted (courses.course.deleted.v1,
 * reason owner_terminated) and they leave the courses they attend (courses.participant.left.v1).
 * Idempotent through the platform's processed_events.
 */
import { appendEvent, EventProcessor } from '@wb/platform';
import type { Logger, PoolClient } from '@wb/platform';
import { EVENT_SCHEMAS } from '@wb/proto';
import type { EventEnvelope, EventType } from '@wb/proto';
import { SCHEMA } from '../commands/deps';
import { attendedCourses, deleteCourse, ownedCourseIds, removeParticipant } from '../repositories/courses';

export class UserTerminatedProcessor extends EventProcessor {
  readonly name = 'courses-user-terminated';
  readonly eventTypes: readonly EventType[] = ['auth.user.terminated.v1'];

  constructor(private readonly deps: { log: Logger }) {
    super();
  }

  async handle(event: EventEnvelope, client: PoolClient): Promise<void> {
    const { userId } = EVENT_SCHEMAS['auth.user.terminated.v1'].parse(event.data);
    const owned = await ownedCourseIds(client, userId);
    for (const courseId of owned) {
      await deleteCourse(client, courseId);
      await appendEvent(client, SCHEMA, 'courses.course.deleted.v1', {
        courseId,
        ownerId: userId,
        reason: 'owner_terminated',
      });
    }
    const attended = await attendedCourses(client, userId);
    for (const c of attended) {
      await removeParticipant(client, c.id, userId);
      await appendEvent(client, SCHEMA, 'courses.participant.left.v1', {
        courseId: c.id,
        ownerId: c.owner_id,
        userId,
        reason: 'terminated',
      });
    }
    this.deps.log.info(
      { userId, owned: owned.length, attended: attended.length, eventId: event.id },
      'terminated user’s courses removed',
    );
  }
}
