/**
 * Fairness between people (issue 25 §2) without BullMQ Pro's groups: jobs run in lanes, images
 * apart from documents (a 32×32 PNG never waits behind an office conversion), each lane with a
 * few slots, and one job per owner per lane at a time. A job that finds its lane full, or its
 * owner already busy in it, goes back to the queue for a moment (BullMQ moveToDelayed) instead of
 * holding a worker slot, so another person's job takes the slot: one person's uploads delay
 * another's by at most the job already running.
 */
import { IMAGE_FORMATS } from '@wb/proto';
import type { FileFormat } from '@wb/proto';

export type Lane = 'image' | 'document';

export function laneOf(job: { format?: unknown; purpose?: unknown }): Lane {
  if (job.purpose === 'displayImage') return 'image';
  return (IMAGE_FORMATS as readonly string[]).includes(job.format as FileFormat) ? 'image' : 'document';
}

export class Lanes {
  private readonly active: Record<Lane, Map<string, number>> = { image: new Map(), document: new Map() };
  private readonly counts: Record<Lane, number> = { image: 0, document: 0 };

  constructor(readonly slots: Record<Lane, number>) {}

  /** a release function when the job may run now, else null (lane full or its owner busy in it) */
  tryEnter(lane: Lane, owner: string | undefined): (() => void) | null {
    if (this.counts[lane] >= this.slots[lane]) return null;
    if (owner !== undefined && (this.active[lane].get(owner) ?? 0) > 0) return null;
    this.counts[lane]++;
    if (owner !== undefined) this.active[lane].set(owner, (this.active[lane].get(owner) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.counts[lane]--;
      if (owner === undefined) return;
      const left = (this.active[lane].get(owner) ?? 1) - 1;
      if (left <= 0) this.active[lane].delete(owner);
      else this.active[lane].set(owner, left);
    };
  }

  /** BullMQ worker concurrency: every slot plus room for jobs being sent back */
  get concurrency(): number {
    return this.slots.image + this.slots.document + 2;
  }
}
