/**
 * Collaboration minutes of one room (SPEC T4–T8; spec §4 "Board read-only"). The room is
 * collaborating while two or more people are on it (distinct users; each guest connection is a
 * person) and it is not locked. Each such stretch is a span that is checkpointed every
 * `checkpointMs` (default 2 s): through the outbox (durable: a node killed with -9 loses at most
 * one interval) and as a boards `collaboration.checkpoint` request, which records it at once and
 * answers the owner's usage over all their boards. From that answer a timer is armed for the
 * moment the owner's minutes run out; when it fires the span is checkpointed again and, when
 * boards confirms nothing is left, the room locks: the span ends, counting stops, and every peer
 * that could edit is closed with 4412, so it rejoins as a viewer with readOnlyReason
 * 'collaborationMinutes' (the lock screen) — the client path of a plan change (SPEC A8).
 * While locked, a timer waits for the weekly reset (Monday 00:00 UTC); the reset, or a peer
 * rejoining editable after an upgrade (auth.user.plan_changed.v1 re-checks the peers), unlocks.
 * Boards keeps the one counter; this meter only decides when to ask.
 */
import { RT_CLOSE } from '@wb/proto';
import type { CollaborationSpan, CollaborationUsage } from '@wb/proto';
import type { Logger } from '@wb/platform';
import type { Clock, Peer, Room } from './room';

/** boards over NATS (commands/collaborationMinutes.ts); tests give a fake */
export interface UsageSource {
  /** record the checkpoint in boards and answer the owner's usage including it */
  checkpoint(span: CollaborationSpan, opts?: { freshPlan?: boolean }): Promise<CollaborationUsage>;
  /** the owner's usage (no span running); `freshPlan`: their plan just changed */
  usage(ownerId: number, opts?: { freshPlan?: boolean }): Promise<CollaborationUsage>;
}
/** the durable path of checkpoints: realtime.collaboration.span.v1 through the outbox */
export interface SpanLog {
  span(span: CollaborationSpan): void;
}
export interface MeterTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
export const realMeterTimers: MeterTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};
export interface MinutesMetrics {
  /** outcome: ok, failed */
  checkpoints: { inc(labels: { outcome: 'ok' | 'failed' }): void };
  /** event: lock, unlock */
  locks: { inc(labels: { event: 'lock' | 'unlock' }): void };
}
export interface MinutesOptions {
  usage: UsageSource;
  spans?: SpanLog;
  log: Logger;
  timers?: MeterTimers;
  /** checkpoint interval (what a crash can lose at most); default 2000 */
  checkpointMs?: number;
  metrics?: MinutesMetrics;
}

export const DEFAULT_CHECKPOINT_MS = 2000;
/** setTimeout's ceiling (a longer delay would fire at once) */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** while locked and the reset seems passed but boards disagrees (clock skew): ask again this often */
const RESET_RETRY_MS = 1000;

/** the people on a board: a user once however many tabs, every guest connection on its own */
export function peopleOn(room: Pick<Room, 'peerList'>): number {
  const keys = new Set<string>();
  for (const p of room.peerList()) keys.add(p.identity.guest ? `g${p.id}` : `u${p.identity.userId}`);
  return keys.size;
}

export class CollaborationMeter {
  private span: { id: string; from: number } | null = null;
  private spanSeq = 0;
  private locked = false;
  private resetsAt: number | null = null;
  /** collaboration time of this session's finished spans (session events, insights) */
  private finishedMs = 0;
  private checkpointTimer: unknown = null;
  private runOutTimer: unknown = null;
  private resetTimer: unknown = null;
  /** answers to older requests are dropped: only the newest decides */
  private generation = 0;
  private readonly timers: MeterTimers;
  private readonly checkpointMs: number;

  constructor(
    private readonly room: Room,
    private readonly sessionId: string,
    private readonly clock: Clock,
    private readonly opts: MinutesOptions,
  ) {
    this.timers = opts.timers ?? realMeterTimers;
    this.checkpointMs = opts.checkpointMs ?? DEFAULT_CHECKPOINT_MS;
  }

  get isLocked(): boolean {
    return this.locked;
  }
  get collaborating(): boolean {
    return this.span !== null;
  }
  /** this session's collaboration time so far */
  collaborationMs(now = this.clock.now()): number {
    return this.finishedMs + (this.span ? Math.max(0, now - this.span.from) : 0);
  }

  /** a peer joined (`joined`) or left: start or end the span, follow what boards told the joiner */
  peersChanged(joined?: Peer): void {
    if (joined) this.followJoiner(joined);
    const now = this.clock.now();
    const collaborating = !this.locked && peopleOn(this.room) >= 2;
    if (collaborating && !this.span) this.startSpan(now);
    else if (!collaborating && this.span) this.endSpan(now);
    if (this.room.size === 0) {
      // nobody left to lock or unlock: no timer outlives the people (a joiner re-arms)
      this.clear('reset');
    } else if (this.locked && this.resetTimer === null) {
      this.armReset();
    }
  }

  /**
   * The joiner's access check is the counter's newest word: an editable joiner while locked means
   * the minutes are back (upgrade, reset); a 'collaborationMinutes' joiner while unlocked means
   * they ran out elsewhere (another board of the owner): ask boards and lock if so.
   */
  private followJoiner(peer: Peer): void {
    const { access, readOnlyReason } = peer.identity;
    if (this.locked && (access === 'own' || access === 'edit') && readOnlyReason === null) this.unlock();
    else if (!this.locked && readOnlyReason === 'collaborationMinutes') void this.refresh();
  }

  private startSpan(now: number): void {
    this.span = { id: `${this.sessionId}:${++this.spanSeq}:${now}`, from: now };
    this.scheduleCheckpoint();
    void this.refresh();
  }

  /** the span's last checkpoint: through the outbox and (so other meters see it at once) boards */
  private endSpan(to: number, opts: { recorded?: boolean } = {}): void {
    const span = this.span;
    if (!span) return;
    this.span = null;
    this.finishedMs += Math.max(0, to - span.from);
    this.clear('checkpoint');
    this.clear('runOut');
    const cp = this.checkpointOf(span, to, true);
    this.opts.spans?.span(cp);
    if (!opts.recorded) void this.send(cp);
  }

  private checkpointOf(span: { id: string; from: number }, to: number, final: boolean): CollaborationSpan {
    return {
      spanId: span.id,
      sessionId: this.sessionId,
      ownerId: this.room.ownerId,
      boardId: this.room.boardId,
      from: new Date(span.from).toISOString(),
      to: new Date(Math.max(to, span.from)).toISOString(),
      ...(final ? { final } : {}),
    };
  }

  private scheduleCheckpoint(): void {
    this.clear('checkpoint');
    this.checkpointTimer = this.timers.setTimeout(() => {
      this.checkpointTimer = null;
      if (!this.span || this.room.closed) return;
      this.opts.spans?.span(this.checkpointOf(this.span, this.clock.now(), false));
      this.scheduleCheckpoint();
      void this.refresh();
    }, this.checkpointMs);
  }

  private async send(cp: CollaborationSpan, freshPlan = false): Promise<CollaborationUsage | null> {
    try {
      const usage = await this.opts.usage.checkpoint(cp, freshPlan ? { freshPlan } : undefined);
      this.opts.metrics?.checkpoints.inc({ outcome: 'ok' });
      return usage;
    } catch (err) {
      // the outbox copy still arrives; the next checkpoint (or the armed timer) tries again
      this.opts.metrics?.checkpoints.inc({ outcome: 'failed' });
      this.opts.log.warn({ err, boardId: this.room.boardId }, 'collaboration checkpoint failed');
      return null;
    }
  }

  /**
   * Checkpoint the running span (if any) in boards, read the owner's usage and act on it: lock
   * when nothing is left, unlock when something is again, else arm the run-out timer.
   */
  async refresh(opts: { freshPlan?: boolean } = {}): Promise<void> {
    const generation = ++this.generation;
    const span = this.span;
    const at = this.clock.now();
    const freshPlan = opts.freshPlan === true;
    let usage: CollaborationUsage | null;
    if (span) {
      usage = await this.send(this.checkpointOf(span, at, false), freshPlan);
    } else {
      usage = await this.opts.usage
        .usage(this.room.ownerId, freshPlan ? { freshPlan } : undefined)
        .catch((err: unknown) => {
          this.opts.log.warn({ err, boardId: this.room.boardId }, 'collaboration usage lookup failed');
          return null;
        });
    }
    if (!usage || generation !== this.generation || this.room.closed) return;
    this.resetsAt = Date.parse(usage.resetsAt);
    const left = usage.limitMs - usage.usedMs;
    if (left <= 0) return this.lock(span !== null && this.span === span ? at : null);
    if (this.locked) this.unlock();
    if (this.span) this.armRunOut(left - (this.clock.now() - (this.span === span ? at : this.span.from)));
  }

  /**
   * The owner's plan changed (auth.user.plan_changed.v1): an upgrade unlocks at once (the
   * peers' re-check, SPEC A8, sends them back too; whichever comes first) and a downgrade re-arms
   * the run-out timer on the new limit.
   */
  planChanged(): void {
    if (this.room.size > 0) void this.refresh({ freshPlan: true });
  }

  private armRunOut(ms: number): void {
    this.clear('runOut');
    this.runOutTimer = this.timers.setTimeout(
      () => {
        this.runOutTimer = null;
        void this.refresh();
      },
      Math.min(MAX_DELAY_MS, Math.max(0, Math.ceil(ms))),
    );
  }

  /**
   * Nothing left: end the span at `recordedTo` (the checkpoint boards just counted) or now, stop
   * counting, and send every peer that could edit back through the join (4412) to come back read-only.
   */
  private lock(recordedTo: number | null): void {
    if (this.span) {
      if (recordedTo !== null) this.endSpan(recordedTo, { recorded: true });
      else this.endSpan(this.clock.now());
    }
    if (!this.locked) {
      this.locked = true;
      this.opts.metrics?.locks.inc({ event: 'lock' });
      this.opts.log.info({ boardId: this.room.boardId, ownerId: this.room.ownerId }, 'collaboration minutes used up');
    }
    // a peer that came back with the reason is read-only already (an owner keeps the role 'owner')
    for (const p of this.room.peerList()) {
      if (p.role !== 'viewer' && p.identity.readOnlyReason !== 'collaborationMinutes') {
        this.room.closePeer(p, RT_CLOSE.ROOM_MOVED, 'collaboration minutes used up');
      }
    }
    if (this.room.size > 0) this.armReset();
  }

  /** the minutes are back: peers locked by them rejoin with their role; counting resumes */
  private unlock(): void {
    this.locked = false;
    this.clear('reset');
    this.opts.metrics?.locks.inc({ event: 'unlock' });
    this.opts.log.info({ boardId: this.room.boardId, ownerId: this.room.ownerId }, 'collaboration minutes available');
    for (const p of this.room.peerList()) {
      if (p.identity.readOnlyReason === 'collaborationMinutes') {
        this.room.closePeer(p, RT_CLOSE.ROOM_MOVED, 'collaboration minutes available');
      }
    }
  }

  /** while locked: ask boards again at the weekly reset */
  private armReset(): void {
    this.clear('reset');
    const wait = this.resetsAt === null ? RESET_RETRY_MS : Math.max(RESET_RETRY_MS, this.resetsAt - this.clock.now());
    this.resetTimer = this.timers.setTimeout(
      () => {
        this.resetTimer = null;
        if (!this.locked || this.room.closed) return;
        void this.refresh().then(() => {
          if (this.locked && this.resetTimer === null && this.room.size > 0) this.armReset();
        });
      },
      Math.min(MAX_DELAY_MS, wait),
    );
  }

  private clear(which: 'checkpoint' | 'runOut' | 'reset'): void {
    const key = `${which}Timer` as 'checkpointTimer' | 'runOutTimer' | 'resetTimer';
    if (this[key] !== null) this.timers.clearTimeout(this[key]);
    this[key] = null;
  }
}
