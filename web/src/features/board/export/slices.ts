/**
 * Long exports run in slices of about 8 ms on the main thread (the painters, the image cache and
 * the text measurer live there), yielding to the event loop between slices so input and frames
 * go on and no task comes near 200 ms. Cancelling (an AbortSignal) stops at the next slice.
 */
import { ExportError } from './pages';

export const SLICE_MS = 8;

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** back to the event loop: scheduler.yield where there is one, else a message (no 4 ms clamp) */
export function yieldToEventLoop(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  if (typeof MessageChannel === 'function')
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export class Slicer {
  private started = now();
  /** the longest slice so far (ms): benchmarks read it */
  longest = 0;

  constructor(private readonly signal?: AbortSignal) {}

  /** throws ExportError('cancelled') once the signal is aborted */
  check(): void {
    if (this.signal?.aborted) throw new ExportError('cancelled', 'export cancelled');
  }

  /** the current slice is used up */
  due(): boolean {
    return now() - this.started >= SLICE_MS;
  }

  /** yields when the current slice is used up */
  async tick(): Promise<void> {
    if (this.due()) await this.pause();
  }

  /** ends the slice now (before a step known to be long) */
  async pause(t = now()): Promise<void> {
    this.longest = Math.max(this.longest, t - this.started);
    await yieldToEventLoop();
    this.check();
    this.started = now();
  }
}
