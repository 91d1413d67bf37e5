/** Collaboration-time events through the outbox (SPEC T1–T3). */
import { appendEvent, withTransaction } from '@wb/platform';
import type { Logger, Pool } from '@wb/platform';
import type { EventData, EventType } from '@wb/proto';
import type { OpenRoom, SessionSink } from '../room/manager';
import type { Peer } from '../room/room';
import { SCHEMA } from '../repositories/journal';

const minutes = (ms: number): number => Math.round((ms / 60_000) * 100) / 100;

export class OutboxSessionSink implements SessionSink {
  constructor(
    private readonly pool: Pool,
    private readonly nodeId: string,
    private readonly log: Logger,
  ) {}
  private emit<T extends EventType>(type: T, data: EventData<T>): void {
    void withTransaction(this.pool, (c) => appendEvent(c, SCHEMA, type, data)).catch((err: unknown) =>
      this.log.error({ err, type }, 'could not record event'),
    );
  }
  started(r: OpenRoom): void {
    this.emit('realtime.session.started.v1', {
      sessionId: r.sessionId,
      boardId: r.room.boardId,
      ownerId: r.room.ownerId,
      nodeId: this.nodeId,
      startedAt: new Date(r.startedAt).toISOString(),
    });
  }
  participantLeft(r: OpenRoom, peer: Peer, now: number): void {
    const total = now - peer.joinedAt;
    this.emit('realtime.participant.minutes.v1', {
      sessionId: r.sessionId,
      boardId: r.room.boardId,
      ownerId: r.room.ownerId,
      userId: peer.identity.userId,
      guest: peer.identity.guest,
      joinedAt: new Date(peer.joinedAt).toISOString(),
      leftAt: new Date(now).toISOString(),
      activeMinutes: minutes(Math.max(0, total - peer.hiddenMs)),
      hiddenMinutes: minutes(peer.hiddenMs),
    });
  }
  ended(r: OpenRoom, now: number): void {
    this.emit('realtime.session.ended.v1', {
      sessionId: r.sessionId,
      boardId: r.room.boardId,
      ownerId: r.room.ownerId,
      startedAt: new Date(r.startedAt).toISOString(),
      endedAt: new Date(now).toISOString(),
      durationMs: Math.max(0, Math.round(now - r.startedAt)),
      participants: r.room.participants.size,
    });
  }
}
