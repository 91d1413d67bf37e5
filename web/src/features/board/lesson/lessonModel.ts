/**
 * The board's live-lesson state on this client (services/realtime SPEC LS*): LESSON_STATE frames
 * from the node (the node's clock is the reference: remaining time is corrected for skew with
 * `serverNow`), the requests (timer, presentation, gather), and the read-only bit while someone
 * else presents. UI-free; injected clock for tests.
 */
import { encodeJsonFrame, LESSON_IDLE_TIMER, lessonRemainingMs, MSG } from '@wb/proto';
import type { LessonGatherEvent, LessonRect, LessonState, LessonTimerRequest } from '@wb/proto';
import type { BoardClient } from '../realtime/boardClient';
import { decodeLessonGather, decodeLessonState } from '../realtime/messages';

export interface LessonView {
  state: LessonState;
  /** performance.now()-like local time the state arrived */
  receivedAt: number;
}

type Listener = () => void;

export class LessonModel {
  private view: LessonView = {
    state: { timer: LESSON_IDLE_TIMER, presenter: null, paid: null, serverNow: 0 },
    receivedAt: 0,
  };
  private readonly listeners = new Set<Listener>();
  private readonly gatherListeners = new Set<(g: LessonGatherEvent) => void>();
  private off: (() => void) | null = null;

  constructor(
    private readonly client: Pick<BoardClient, 'onFrame' | 'sendFrame' | 'setLessonReadOnly' | 'getSnapshot'>,
    private readonly now: () => number = () => Date.now(),
  ) {}

  start(): void {
    this.off ??= this.client.onFrame(({ type, payload }) => this.receive(type, payload));
  }
  stop(): void {
    this.off?.();
    this.off = null;
    this.client.setLessonReadOnly(false);
  }

  getView = (): LessonView => this.view;
  subscribe = (fn: Listener): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  onGather(fn: (g: LessonGatherEvent) => void): () => void {
    this.gatherListeners.add(fn);
    return () => this.gatherListeners.delete(fn);
  }

  receive(type: number, payload: Uint8Array): void {
    if (type === MSG.LESSON_STATE) {
      const state = decodeLessonState(payload);
      this.view = { state, receivedAt: this.now() };
      const own = this.client.getSnapshot().welcome?.peerId;
      this.client.setLessonReadOnly(state.presenter !== null && state.presenter.peerId !== own);
      for (const fn of this.listeners) fn();
    } else if (type === MSG.LESSON_GATHER_S) {
      const g = decodeLessonGather(payload);
      for (const fn of this.gatherListeners) fn(g);
    }
  }

  /** ms left on the shared timer now (skew-corrected: LS1) */
  remaining(): number {
    const { state, receivedAt } = this.view;
    return lessonRemainingMs(state.timer, state.serverNow, receivedAt, this.now());
  }
  /** am I the presenter */
  presenting(): boolean {
    const p = this.view.state.presenter;
    return p !== null && p.peerId === this.client.getSnapshot().welcome?.peerId;
  }

  timer(req: LessonTimerRequest): boolean {
    return this.client.sendFrame(encodeJsonFrame(MSG.LESSON_TIMER, req));
  }
  present(action: 'start' | 'stop'): boolean {
    return this.client.sendFrame(encodeJsonFrame(MSG.LESSON_PRESENT, { action }));
  }
  gather(rect: LessonRect): boolean {
    return this.client.sendFrame(encodeJsonFrame(MSG.LESSON_GATHER, rect));
  }
}

/** mm:ss (h:mm:ss past an hour), rounded up so 00:00 shows only at the end */
export function formatTimer(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}
