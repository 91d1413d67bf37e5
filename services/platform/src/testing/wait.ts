/**
 * Waiting in tests: the one polling helper every integration and end-to-end test uses instead of
 * a sleep-then-assert. A probe answers the value it waited for, or undefined/null/false while it
 * is not there yet; a probe that throws counts as "not yet" and its last error is reported.
 */

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export type Probe<T> = () => T | undefined | null | false | Promise<T | undefined | null | false>;

/**
 * Poll `probe` every `everyMs` until it answers a value (resolved with it) or `timeoutMs` passes
 * (rejected with an error naming `what` and the probe's last error).
 */
export async function eventually<T>(probe: Probe<T>, timeoutMs = 10_000, everyMs = 50, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await sleep(everyMs);
  }
}
