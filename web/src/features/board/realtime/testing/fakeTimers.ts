/** TEST-ONLY: a manual clock for the realtime client (advance time, run what falls due). */
import type { Timers } from '../timers';

export class FakeTimers implements Timers {
  private t = 1_000_000;
  private seq = 0;
  private tasks = new Map<number, { at: number; fn: () => void }>();

  now = (): number => this.t;
  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = ++this.seq;
    this.tasks.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  };
  clearTimeout = (h: unknown): void => {
    this.tasks.delete(h as number);
  };

  get pending(): number[] {
    return [...this.tasks.values()].map((t) => t.at - this.t).sort((a, b) => a - b);
  }

  /** move the clock forward, running due tasks in time order */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.tasks) if (e[1].at <= end && (!next || e[1].at < next[1].at)) next = e;
      if (!next) break;
      this.tasks.delete(next[0]);
      this.t = next[1].at;
      next[1].fn();
    }
    this.t = end;
  }
}
