/**
 * Periodic clean-up of ended sessions and expired link tokens, kept a week past their end for
 * investigations. Every replica runs it; the DELETEs are idempotent, so no coordination is needed.
 */
import type { Logger, Pool } from '@wb/platform';
import { deleteEndedSessions } from '../repositories/sessions';
import { deleteExpiredTokens } from '../repositories/tokens';

const KEEP_MS = 7 * 24 * 3600_000;

export function startHousekeeping(opts: { pool: Pool; log: Logger; everyMs?: number; now?: () => Date }): {
  stop(): void;
} {
  const now = opts.now ?? (() => new Date());
  const run = async (): Promise<void> => {
    try {
      const cutoff = new Date(now().getTime() - KEEP_MS);
      const sessions = await deleteEndedSessions(opts.pool, cutoff);
      const tokens = await deleteExpiredTokens(opts.pool, cutoff);
      if (sessions || tokens) opts.log.info({ sessions, tokens }, 'housekeeping: old sessions and tokens deleted');
    } catch (err) {
      opts.log.warn({ err }, 'housekeeping failed; will try again');
    }
  };
  const timer = setInterval(() => void run(), opts.everyMs ?? 6 * 3600_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
