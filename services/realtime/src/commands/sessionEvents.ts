/**
 * Collaboration-time events through the outbox (SPEC T1–T4): sessions and participant stays for
 * collaboration insights (spec §3), and the collaboration span checkpoints the boards service
 * counts the weekly minutes from (src/room/collaboration.ts).
 */
import { appendEvent, withTransaction } from '@wb/platform';
import type { Logger, Pool } from '@wb/platform';
import type { CollaborationSpan, EventData, EventType } from '@wb/proto';
import type { OpenRoom, SessionSink } from '../room/manager';
import type { SpanLog } from '../room/collaboration';
import type { Peer } from '../room/room';
import { SCHEMA } from '../repositories/journal';

const minutes = (ms: number): number => Math.round((ms / 60_000) * 100) / 100;

/** insights' key for one person: a user by id; a guest by the name they typed (same name, same key) */
export function participantKeyOf(identity: Peer['identity']): string {
  return identity.guest ? `g:${identity.name.trim().toLowerCase()}` : `u${identity.userId}`;
}

export class OutboxSessionSink implements SessionSink, SpanLog {
  /** per open session: active and hidden ms of the stays that ended (for session.ended) */
  private readonly totals = new Map<string, { activeMs: number; hiddenMs: number }>();

  constructor(
    private readonly pool: Pool,
    private readonly nodeId: string,
    private readonly log: Logger,
  ) {}
  /** events are appended one after another, so the outbox keeps the order they happened in */
  private writing: Promise<void> = Promise.resolve();

  private emit<T extends EventType>(type: T, data: EventData<T>): void {
    this.writing = this.writing
      .then(async () => {
        await withTransaction(this.pool, (c) => appendEvent(c, SCHEMA, type, data));
      })
      .catch((err: unknown) => this.log.error({ err, type }, 'could not record event'));
  }
  started(r: OpenRoom): void {
    this.totals.set(r.sessionId, { activeMs: 0, hiddenMs: 0 });
    this.emit('realtime.session.started.v1', {
      sessionId: r.sessionId,
      boardId: r.room.boardId,
      ownerId: r.room.ownerId,
      nodeId: this.nodeId,
      startedAt: new Date(r.startedAt).toISOString(),
      boardTitle: r.room.boardInfo.title,
    });
  }
  participantLeft(r: OpenRoom, peer: Peer, now: number): void {
    const total = Math.max(0, now - peer.joinedAt);
    const activeMs = Math.max(0, total - peer.hiddenMs);
    const t = this.totals.get(r.sessionId);
    if (t) {
      t.activeMs += activeMs;
      t.hiddenMs += peer.hiddenMs;
    }
    this.emit('realtime.participant.minutes.v1', {
      sessionId: r.sessionId,
      boardId: r.room.boardId,
      ownerId: r.room.ownerId,
      userId: peer.identity.userId,
      guest: peer.identity.guest,
      joinedAt: new Date(peer.joinedAt).toISOString(),
      leftAt: new Date(now).toISOString(),
      activeMinutes: minutes(activeMs),
      hiddenMinutes: minutes(peer.hiddenMs),
      participantKey: participantKeyOf(peer.identity),
      name: peer.identity.name,
      boardTitle: r.room.boardInfo.title,
      role: peer.role,
    });
  }
  ended(r: OpenRoom, now: number): void {
    const t = this.totals.get(r.sessionId) ?? { activeMs: 0, hiddenMs: 0 };
    this.totals.delete(r.sessionId);
    this.emit('realtime.session.ended.v1', {
      sessionId: r.sessionId,
      boardId: r.room.boardId,
      ownerId: r.room.ownerId,
      startedAt: new Date(r.startedAt).toISOString(),
      endedAt: new Date(now).toISOString(),
      durationMs: Math.max(0, Math.round(now - r.startedAt)),
      participants: r.room.participants.size,
      boardTitle: r.room.boardInfo.title,
      activeMinutes: minutes(t.activeMs),
      hiddenMinutes: minutes(t.hiddenMs),
      collaborationMs: Math.round(r.minutes?.collaborationMs(now) ?? 0),
    });
  }
  /** a collaboration span checkpoint (boards counts the owner's weekly minutes from these) */
  span(span: CollaborationSpan): void {
    this.emit('realtime.collaboration.span.v1', span);
  }
}
