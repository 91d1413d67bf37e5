/**
 * When a room flushes (SPEC S8). Work reaching a quiet room (nothing flushed for `quietMs`) leaves
 * at once — after the current batch of socket reads, so every frame read in one event-loop turn
 * still goes out in one flush. Work reaching a busy room opens a batch window: the flush runs
 * `delayMs` after the first item of the batch arrived, with everything that came meanwhile. So no
 * item waits longer than `delayMs`, and a room flushes at most every `delayMs` (plus the time to
 * the next item), whatever its peers send: the cost of a flush is one send per peer, so the
 * window, not the number of messages, bounds the CPU. (Counting the window from the previous
 * flush instead would flush ~40 % more often for the same longest wait.) The window is
 * `minDelayMs` while the node is mostly idle and grows to `maxDelayMs` (the old fixed tick) as the
 * node's event loop gets busy or the room's own flushes get expensive. Committed changes are
 * judged quiet on their own: the first change after `quietMs` without one is flushed at once even
 * in a room busy with cursors (strokes are rare next to cursors, and what people wait for).
 * Journal appends are group
 * commits: one starts as soon as a change is queued and none is in flight; what arrives meanwhile
 * goes in the next one.
 */

/** The timer functions the scheduler uses; tests inject fake ones. */
export interface FlushTimers {
  /** run after the I/O callbacks of this event-loop turn (setImmediate) */
  setImmediate(fn: () => void): unknown;
  clearImmediate(handle: unknown): void;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
export const realFlushTimers: FlushTimers = {
  setImmediate: (fn) => setImmediate(fn),
  clearImmediate: (h) => clearImmediate(h as NodeJS.Immediate),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface FlushPolicy {
  /** a room that flushed nothing for this long (or the window, if longer) flushes new work at once (ms) */
  quietMs: number;
  /** batch window of a busy room on an idle node (ms): the longest an item waits */
  minDelayMs: number;
  /** batch window on a saturated node (ms): never more than the old fixed tick */
  maxDelayMs: number;
  /** node load at or below which the window is minDelayMs (event-loop utilisation, 0…1) */
  loadLow: number;
  /** node load at or above which the window is maxDelayMs */
  loadHigh: number;
  /** a room's flushes may take at most 1/costFactor of its time (a big room's window grows) */
  costFactor: number;
}
export const DEFAULT_FLUSH_POLICY: FlushPolicy = {
  quietMs: 8,
  minDelayMs: 4,
  maxDelayMs: 16,
  loadLow: 0.5,
  loadHigh: 0.85,
  costFactor: 8,
};

/** Why a flush ran (metrics): at once in a quiet room, or at the end of a batch window. */
export type FlushMode = 'immediate' | 'batched';
/** Committed changes are judged quiet on their own: a stroke in a room full of cursors still leaves at once. */
export type FlushWork = 'changes' | 'ephemeral';

/** What a room asks of its scheduler (room.ts calls these). */
export interface RoomScheduler {
  /** something is waiting to be flushed: committed changes, or ephemerals and acks */
  flushDue(kind?: FlushWork): void;
  /** a change was queued for the journal */
  persistDue(): void;
  /** the room flushed (whoever called it), how long that took (ms), how many changes it carried */
  flushed(costMs: number, changes?: number): void;
  /** the room closed: cancel what is scheduled */
  stop(): void;
}

export interface FlushSchedulerOptions {
  flush(mode: FlushMode): void;
  persist(): void;
  timers?: FlushTimers;
  /** monotonic milliseconds (performance.now) */
  now?: () => number;
  /** the node's current load, 0…1 (event-loop utilisation, sampled by the manager) */
  load?: () => number;
  policy?: Partial<FlushPolicy>;
}

export class FlushScheduler implements RoomScheduler {
  private readonly timers: FlushTimers;
  private readonly now: () => number;
  private readonly policy: FlushPolicy;
  private lastFlushAt = -Infinity;
  private lastChangesAt = -Infinity;
  private lastCostMs = 0;
  private pending: { handle: unknown; immediate: boolean } | null = null;
  private persistPending: unknown = null;
  private stopped = false;

  constructor(private readonly opts: FlushSchedulerOptions) {
    this.timers = opts.timers ?? realFlushTimers;
    this.now = opts.now ?? (() => performance.now());
    this.policy = { ...DEFAULT_FLUSH_POLICY, ...opts.policy };
  }

  /** The batch window of this room now (ms). */
  delayMs(): number {
    const { minDelayMs, maxDelayMs, loadLow, loadHigh, costFactor } = this.policy;
    const load = this.opts.load?.() ?? 0;
    const t =
      loadHigh > loadLow ? Math.min(1, Math.max(0, (load - loadLow) / (loadHigh - loadLow))) : load > loadLow ? 1 : 0;
    const byLoad = minDelayMs + (maxDelayMs - minDelayMs) * t;
    return Math.min(maxDelayMs, Math.max(byLoad, this.lastCostMs * costFactor));
  }

  get scheduled(): boolean {
    return this.pending !== null;
  }

  flushDue(kind: FlushWork = 'ephemeral'): void {
    // the common case (a cursor while a flush is scheduled) returns here
    if (this.stopped || this.pending?.immediate || (this.pending && kind !== 'changes')) return;
    const delay = this.delayMs();
    const quiet = Math.max(this.policy.quietMs, delay);
    if (kind === 'changes' && this.now() - this.lastChangesAt >= quiet) {
      // committed changes are rare next to cursors: the first in a while does not wait for the window
      this.cancelFlush();
      this.pending = { handle: this.timers.setImmediate(() => this.run('immediate')), immediate: true };
      return;
    }
    if (this.pending) return;
    // a loaded node stretches "quiet" with the window: at most one flush per window per room
    if (this.now() - this.lastFlushAt >= quiet) {
      // quiet: after this turn's reads (all of them batched into this one flush)
      this.pending = { handle: this.timers.setImmediate(() => this.run('immediate')), immediate: true };
    } else {
      this.pending = { handle: this.timers.setTimeout(() => this.run('batched'), delay), immediate: false };
    }
  }

  private run(mode: FlushMode): void {
    this.pending = null;
    if (!this.stopped) this.opts.flush(mode);
  }

  flushed(costMs: number, changes = 0): void {
    this.lastFlushAt = this.now();
    if (changes > 0) this.lastChangesAt = this.lastFlushAt;
    this.lastCostMs = costMs;
    // flushed by someone else (a test's or the housekeeping tick): the scheduled one has nothing left
    this.cancelFlush();
  }

  persistDue(): void {
    if (this.persistPending !== null || this.stopped) return;
    this.persistPending = this.timers.setImmediate(() => {
      this.persistPending = null;
      if (!this.stopped) this.opts.persist();
    });
  }

  stop(): void {
    this.stopped = true;
    this.cancelFlush();
    if (this.persistPending !== null) this.timers.clearImmediate(this.persistPending);
    this.persistPending = null;
  }

  private cancelFlush(): void {
    if (!this.pending) return;
    if (this.pending.immediate) this.timers.clearImmediate(this.pending.handle);
    else this.timers.clearTimeout(this.pending.handle);
    this.pending = null;
  }
}
