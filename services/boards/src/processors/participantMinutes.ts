/**
 * Consumes realtime.participant.minutes.v1: every stay of someone other than the board's owner
 * widens that session's collaboration span, which counts against the owner's weekly minutes
 * (policies/readOnly). The owner alone on a board is not collaborating.
 */
import { EventProcessor } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import { EVENT_SCHEMAS } from '@wb/proto';
import type { EventEnvelope, EventType } from '@wb/proto';
import { weekStartOf } from '../policies/readOnly';
import { recordCollaboratorStay } from '../repositories/collaboration';

export class ParticipantMinutesProcessor extends EventProcessor {
  readonly name = 'boards-participant-minutes';
  readonly eventTypes: readonly EventType[] = ['realtime.participant.minutes.v1'];

  async handle(event: EventEnvelope, client: PoolClient): Promise<void> {
    const stay = EVENT_SCHEMAS['realtime.participant.minutes.v1'].parse(event.data);
    if (!stay.guest && stay.userId === stay.ownerId) return;
    const joinedAt = new Date(stay.joinedAt);
    await recordCollaboratorStay(client, {
      sessionId: stay.sessionId,
      ownerId: stay.ownerId,
      boardId: stay.boardId,
      weekStart: weekStartOf(joinedAt),
      joinedAt,
      leftAt: new Date(stay.leftAt),
    });
  }
}
