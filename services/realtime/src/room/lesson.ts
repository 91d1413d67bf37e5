/**
 * The live-lesson state of one board room (SPEC LS1–LS11): a shared countdown timer and the
 * presentation mode, owned by the room's node (its clock is the reference), plus the owner's
 * "bring everyone to me". Timer and presentation are paid features of the BOARD OWNER's plan
 * (LESSON_FEATURE), asked of auth through the injected PlanSource (cached like boards does).
 * A frame that breaks a rule gets an ERROR naming it; the socket stays open (LS11).
 */
import {
  decodeViewport,
  encodeEphemeralBatch,
  encodeJsonFrame,
  EPHEMERAL_KIND,
  LESSON_FEATURE,
  LESSON_IDLE_TIMER,
  LESSON_MAX_TIMER_MS,
  LESSON_PRESENTER_RESUME_MS,
  LESSON_TIMER_ENDED_SHOW_MS,
  lessonGatherSchema,
  lessonPresentSchema,
  lessonTimerSchema,
  MSG,
} from '@wb/proto';
import type { LessonGatherEvent, LessonRect, LessonState, LessonTimerState, RtError } from '@wb/proto';
import type { Logger, PlanSource } from '@wb/platform';
import type { z } from 'zod';
import { parseJsonFrame } from './jsonFrame';
import type { LessonStore, SavedPresenter } from '../repositories/lesson';
import type { Clock, Peer } from './room';

export interface LessonHost {
  readonly boardId: string;
  readonly ownerId: number;
  peerList(): Peer[];
}

/** prom-client counters (src/lessonMetrics.ts) */
export interface LessonMetrics {
  /** 'timer.start', 'present.start', … or the refusal code */
  event(outcome: string): void;
}

export interface LessonOptions {
  /** the owner's plan (auth plan.get); without it timer and presentation answer lesson_unavailable */
  plans?: PlanSource;
  /** keeps the timer (LS9) and the presenter (LS12) across a failover; without it they live as long as the room */
  store?: LessonStore;
  clock: Clock;
  log: Logger;
  metrics?: LessonMetrics;
}

const MINUTE_MS = 60_000;

class LessonRuleError extends Error {
  constructor(
    readonly code: RtError['code'],
    message: string,
  ) {
    super(message);
  }
}

export class RoomLesson {
  private timer: LessonTimerState = { ...LESSON_IDLE_TIMER };
  private presenter: Peer | null = null;
  /** the owner's plan has LESSON_FEATURE; null until first asked */
  private paid: boolean | null = null;
  /** LS7: every peer's last viewport (a late follower and "bring everyone to me" need one at once) */
  private readonly viewports = new Map<Peer, LessonRect>();
  /** LS3: timer and presentation requests apply in arrival order (each may wait for the plan) */
  private queue: Promise<unknown> = Promise.resolve();
  /** LS2: when the running timer ran out (its 00:00 is shown until LESSON_TIMER_ENDED_SHOW_MS later) */
  private endedAt: number | null = null;
  /** bumped on every timer change: a restore that finishes later must not undo one (LS9) */
  private timerVersion = 0;
  /** bumped when a presentation starts or ends: a restore that finishes later must not bring one back */
  private presenterVersion = 0;
  /** LS12: who presented when the last node lost the board, until they are back or `until` passes */
  private resumable: (SavedPresenter & { until: number }) | null = null;
  /** the room is closing (shutdown, hand-over, failover): peers leaving then do not end a presentation */
  private closing = false;
  private saving: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly host: LessonHost,
    private readonly opts: LessonOptions,
  ) {
    if (opts.store) void this.restore(opts.store);
  }

  /** LS1: the whole state to a peer that joined (after WELCOME); learns the plan on the first join */
  joined(peer: Peer): void {
    if (this.presenter) peer.lessonReadOnly = true;
    peer.socket.send(this.stateFrame());
    if (this.mayResume(peer)) this.resumeLater(peer);
    if (this.paid === null && this.opts.plans) {
      void this.refreshPlan()
        .then((changed) => changed && this.broadcast())
        .catch((err: unknown) => this.opts.log.warn({ err, boardId: this.host.boardId }, 'lesson plan lookup failed'));
    }
  }

  /** LS6: the presenter leaving ends the presentation (not when the whole room closes: LS12) */
  left(peer: Peer): void {
    this.viewports.delete(peer);
    if (this.presenter === peer && !this.closing) {
      this.stopPresenting();
      this.opts.metrics?.event('present.left');
      this.broadcast();
    }
  }

  /** one LESSON_TIMER / LESSON_PRESENT / LESSON_GATHER frame; never throws */
  receive(peer: Peer, type: number, payload: Uint8Array): void {
    try {
      if (type === MSG.LESSON_TIMER) this.onTimer(peer, parse(payload, lessonTimerSchema));
      else if (type === MSG.LESSON_PRESENT) this.onPresent(peer, parse(payload, lessonPresentSchema).action);
      else this.onGather(peer, parse(payload, lessonGatherSchema));
    } catch (err) {
      this.fail(peer, err);
    }
  }

  /**
   * LS7: a VIEWPORT ephemeral. The presenter's goes to everyone at once (true: the room must not
   * queue it for the next tick); everyone's is remembered.
   */
  viewport(peer: Peer, data: Uint8Array): boolean {
    try {
      this.viewports.set(peer, decodeViewport(data));
    } catch {
      return false; // not ours to police: the room forwards it like any opaque ephemeral (E*)
    }
    if (this.presenter !== peer) return false;
    const frame = encodeEphemeralBatch([{ peerId: peer.id, kind: EPHEMERAL_KIND.VIEWPORT, data }]);
    for (const p of this.host.peerList()) if (p !== peer) p.socket.send(frame);
    return true;
  }

  /** LS12: the room closes with everyone in it; a presentation stays saved for the next node */
  roomClosing(): void {
    this.closing = true;
  }

  /**
   * The owner's plan changed (auth.user.plan_changed.v1): read it again now rather than on the
   * next request, and end a presentation the plan no longer pays for (LS3).
   */
  planChanged(): Promise<void> {
    const run = this.queue.then(async () => {
      const changed = await this.refreshPlan({ fresh: true });
      if (!this.paid && this.presenter) {
        this.stopPresenting();
        this.opts.metrics?.event('present.plan');
      } else if (!changed) return;
      this.broadcast();
    });
    this.queue = run.catch((err: unknown) =>
      this.opts.log.warn({ err, boardId: this.host.boardId }, 'lesson plan refresh failed'),
    );
    return this.queue.then(() => undefined);
  }

  /** LS2: a running timer that reached zero turns idle (0 left) for everyone; from the room's tick */
  tick(): void {
    if (this.resumable && this.opts.clock.now() > this.resumable.until) {
      this.resumable = null; // LS12: not back in time: the presentation is over
      this.savePresenter(null);
    }
    const t = this.timer;
    const now = this.opts.clock.now();
    if (t.state === 'running' && t.endsAt !== undefined && now >= t.endsAt) {
      // the end signal: 00:00 for everyone (clients beep and flash on it) ...
      this.setTimer({ state: 'idle', remainingMs: 0, durationMs: t.durationMs });
      this.endedAt = now;
      this.opts.metrics?.event('timer.ended');
    } else if (this.endedAt !== null && now - this.endedAt >= LESSON_TIMER_ENDED_SHOW_MS) {
      // ... then it goes away (saved too: a reload or a late joiner gets no timer)
      this.setTimer({ ...LESSON_IDLE_TIMER });
      this.opts.metrics?.event('timer.cleared');
    }
  }

  state(): LessonState {
    const p = this.presenter;
    return {
      timer: { ...this.timer },
      presenter: p
        ? { userId: p.identity.userId, peerId: p.id, name: p.identity.name, viewport: this.viewports.get(p) ?? null }
        : null,
      paid: this.paid,
      serverNow: this.opts.clock.now(),
    };
  }

  // ------------------------------------------------------------------------------------------

  private onTimer(peer: Peer, req: z.infer<typeof lessonTimerSchema>): void {
    // LS4: owner and editors (a viewer's role, not a presentation's read-only, decides)
    if (peer.role === 'viewer')
      throw new LessonRuleError('lesson_forbidden', 'LS4: only the owner and editors may control the timer');
    if (req.action === 'set' && req.durationMs === undefined)
      throw new LessonRuleError('lesson_invalid', 'LS2: set needs durationMs');
    this.gated(peer, () => {
      const now = this.opts.clock.now();
      const t = this.timer;
      const left = t.state === 'running' && t.endsAt !== undefined ? Math.max(0, t.endsAt - now) : t.remainingMs;
      let next: LessonTimerState;
      switch (req.action) {
        case 'set':
          next = { state: 'idle', remainingMs: req.durationMs!, durationMs: req.durationMs! };
          break;
        case 'start': {
          const duration = req.durationMs ?? t.durationMs;
          const remaining = req.durationMs ?? (left > 0 ? left : duration);
          if (remaining <= 0)
            throw new LessonRuleError('lesson_invalid', 'LS2: set a duration before starting the timer');
          if (t.state === 'running' && req.durationMs === undefined) return; // already running: nothing to do
          next = { state: 'running', endsAt: now + remaining, remainingMs: remaining, durationMs: duration };
          break;
        }
        case 'pause':
          if (t.state !== 'running') throw new LessonRuleError('lesson_invalid', 'LS2: the timer is not running');
          next = { state: 'paused', remainingMs: left, durationMs: t.durationMs };
          break;
        case 'reset':
          next = { state: 'idle', remainingMs: t.durationMs, durationMs: t.durationMs };
          break;
        case 'stop':
          // stop/hide: the timer goes away for everyone, whatever its state
          if (t.state === 'idle' && t.durationMs === 0) return;
          next = { ...LESSON_IDLE_TIMER };
          break;
        case 'addMinute': {
          const remaining = Math.min(LESSON_MAX_TIMER_MS, left + MINUTE_MS);
          const duration = Math.min(LESSON_MAX_TIMER_MS, Math.max(t.durationMs, remaining));
          next =
            t.state === 'running'
              ? { state: 'running', endsAt: now + remaining, remainingMs: remaining, durationMs: duration }
              : { state: t.state, remainingMs: remaining, durationMs: duration };
          break;
        }
      }
      this.setTimer(next);
      this.opts.metrics?.event(`timer.${req.action}`);
    });
  }

  private onPresent(peer: Peer, action: 'start' | 'stop'): void {
    if (action === 'start') {
      // LS5: an editor or the owner presents (a viewer cannot: nothing of theirs can be shown)
      if (peer.role === 'viewer')
        throw new LessonRuleError('lesson_forbidden', 'LS5: only the owner and editors may present');
      this.gated(peer, () => {
        if (peer.closed || this.presenter === peer) return;
        if (this.presenter)
          throw new LessonRuleError('lesson_forbidden', `LS5: ${this.presenter.identity.name} is presenting already`);
        this.startPresenting(peer);
        this.opts.metrics?.event('present.start');
        this.broadcast();
      });
      return;
    }
    // LS6: the presenter or the owner ends it (no plan needed to stop)
    this.queue = this.queue
      .then(() => {
        if (!this.presenter) return;
        if (this.presenter !== peer && peer.role !== 'owner')
          throw new LessonRuleError(
            'lesson_forbidden',
            'LS6: only the presenter or the board owner may end the presentation',
          );
        this.stopPresenting();
        this.opts.metrics?.event('present.stop');
        this.broadcast();
      })
      .catch((err: unknown) => this.fail(peer, err));
  }

  private onGather(peer: Peer, rect: LessonRect | Record<string, never>): void {
    // LS8: the owner brings everyone to a view (free, like following)
    if (peer.role !== 'owner')
      throw new LessonRuleError('lesson_forbidden', 'LS8: only the board owner may bring everyone');
    const view = 'x' in rect ? (rect as LessonRect) : this.viewports.get(peer);
    if (!view)
      throw new LessonRuleError('lesson_invalid', 'LS8: no viewport of yours is known yet: send one with the request');
    const event: LessonGatherEvent = { ...view, by: peer.identity.name };
    const frame = encodeJsonFrame(MSG.LESSON_GATHER_S, event);
    for (const p of this.host.peerList()) if (p !== peer) p.socket.send(frame);
    this.opts.metrics?.event('gather');
  }

  private startPresenting(peer: Peer): void {
    this.presenter = peer;
    this.presenterVersion++;
    this.resumable = null;
    for (const p of this.host.peerList()) p.lessonReadOnly = p !== peer;
    const { userId, name, guest } = peer.identity;
    // a guest cannot be recognised on another connection: their presentation is not resumable
    this.savePresenter(guest ? null : { userId, name, since: this.opts.clock.now() });
  }

  private stopPresenting(): void {
    this.presenter = null;
    this.presenterVersion++;
    for (const p of this.host.peerList()) p.lessonReadOnly = false;
    this.savePresenter(null);
  }

  /** LS12: the person who presented before the failover, back in time, with edit rights */
  private mayResume(peer: Peer): boolean {
    const r = this.resumable;
    return (
      r !== null &&
      !this.presenter &&
      !peer.identity.guest &&
      peer.identity.userId === r.userId &&
      peer.role !== 'viewer' &&
      this.opts.clock.now() <= r.until
    );
  }

  /** LS12: give the presentation back once the plan still allows it (in order with other requests) */
  private resumeLater(peer: Peer): void {
    this.queue = this.queue
      .then(async () => {
        await this.refreshPlan();
        if (!this.paid || peer.closed || !this.mayResume(peer)) return;
        this.startPresenting(peer);
        this.opts.metrics?.event('present.resumed');
        this.broadcast();
      })
      .catch((err: unknown) => this.opts.log.warn({ err, boardId: this.host.boardId }, 'presentation resume failed'));
  }

  /** LS3: run `apply` in order once the owner's plan allows the feature (fresh plan: cache TTL) */
  private gated(peer: Peer, apply: () => void): void {
    this.queue = this.queue
      .then(async () => {
        await this.refreshPlan();
        if (!this.paid)
          throw new LessonRuleError(
            'lesson_upgrade',
            `LS3: the board owner's plan does not include the ${LESSON_FEATURE} feature (timer, presentation)`,
          );
        apply();
      })
      .catch((err: unknown) => this.fail(peer, err));
  }

  /** true when `paid` changed */
  private async refreshPlan(opts?: { fresh?: boolean }): Promise<boolean> {
    const plans = this.opts.plans;
    if (!plans) throw new LessonRuleError('lesson_unavailable', 'LS3: plans are not available on this node');
    let plan;
    try {
      plan = await plans.planOf(this.host.ownerId, opts);
    } catch (err) {
      this.opts.log.warn({ err, boardId: this.host.boardId }, 'lesson plan lookup failed');
      throw new LessonRuleError('lesson_unavailable', "LS3: the board owner's plan could not be read; try again");
    }
    const paid = plan.features[LESSON_FEATURE];
    const changed = paid !== this.paid;
    this.paid = paid;
    return changed;
  }

  private setTimer(next: LessonTimerState): void {
    this.timer = next;
    this.endedAt = null;
    this.timerVersion++;
    this.broadcast();
    this.persist('timer', (store, boardId) => store.save(boardId, next));
  }

  private savePresenter(presenter: SavedPresenter | null): void {
    this.persist('presenter', (store, boardId) => store.savePresenter(boardId, presenter));
  }

  /** LS9/LS12: saved in order, off the request path; a failed save only costs the failover copy */
  private persist(what: string, save: (store: LessonStore, boardId: string) => Promise<void>): void {
    const store = this.opts.store;
    if (!store) return;
    const boardId = this.host.boardId;
    this.saving = this.saving
      .then(() => save(store, boardId))
      .catch((err: unknown) => this.opts.log.error({ err, boardId, what }, 'lesson state save failed'));
  }

  private async restore(store: LessonStore): Promise<void> {
    const timerVersion = this.timerVersion;
    const presenterVersion = this.presenterVersion;
    try {
      const [timer, presenter] = await Promise.all([
        store.load(this.host.boardId),
        store.loadPresenter(this.host.boardId),
      ]);
      if (presenter && presenterVersion === this.presenterVersion && !this.presenter) {
        // LS12: the presenter's socket went with the old node; they get it back if they return in time
        this.resumable = { ...presenter, until: this.opts.clock.now() + LESSON_PRESENTER_RESUME_MS };
        const back = this.host.peerList().find((p) => this.mayResume(p));
        if (back) this.resumeLater(back);
      }
      if (!timer || timerVersion !== this.timerVersion) return;
      // a timer that ended while no node served the board (or one saved at 00:00 before LS2's
      // clearing) is over: none is shown
      const over =
        (timer.state === 'running' && timer.endsAt !== undefined && this.opts.clock.now() >= timer.endsAt) ||
        (timer.state === 'idle' && timer.durationMs > 0 && timer.remainingMs === 0);
      if (over) return this.setTimer({ ...LESSON_IDLE_TIMER });
      this.timer = timer;
      this.broadcast();
    } catch (err) {
      this.opts.log.error({ err, boardId: this.host.boardId }, 'lesson state restore failed');
    }
  }

  private stateFrame(): Uint8Array {
    return encodeJsonFrame(MSG.LESSON_STATE, this.state());
  }

  private broadcast(): void {
    const frame = this.stateFrame();
    for (const p of this.host.peerList()) p.socket.send(frame);
  }

  private fail(peer: Peer, err: unknown): void {
    let error: RtError;
    if (err instanceof LessonRuleError) error = { code: err.code, message: err.message };
    else {
      this.opts.log.error({ err, boardId: this.host.boardId, peer: peer.id }, 'lesson request failed');
      error = { code: 'lesson_unavailable', message: 'the lesson request failed; try again' };
    }
    this.opts.metrics?.event(error.code);
    if (!peer.closed) peer.socket.send(encodeJsonFrame(MSG.ERROR, error));
  }
}

/** LS11: JSON, unsafe strings, then the schema; a bad lesson frame is an ERROR, not a closed socket */
function parse<S extends z.ZodType>(payload: Uint8Array, schema: S): z.infer<S> {
  return parseJsonFrame(payload, schema, (problem) => new LessonRuleError('lesson_invalid', `LS11: ${problem}`));
}
