/**
 * A PostgreSQL LISTEN that survives connection loss: a dedicated connection (outside the pool,
 * so it neither shrinks the pool nor leaks handlers into it) that reconnects after `retryMs`.
 * `onListening(true)` once LISTEN is in effect, `onListening(false)` when the connection is lost:
 * notifications sent in between are missed, so callers re-check (drain, clear caches) on both.
 */
import { Client } from 'pg';
import type { Pool } from 'pg';
import type { Logger } from './logger';

export interface Listener {
  stop(): Promise<void>;
}

export function listenToChannel(opts: {
  pool: Pool;
  channel: string;
  log: Logger;
  onNotify(payload: string): void;
  onListening?(listening: boolean): void;
  retryMs?: number;
}): Listener {
  const { pool, channel, log } = opts;
  const retryMs = opts.retryMs ?? 1000;
  let stopped = false;
  let current: Client | null = null;
  let retry: NodeJS.Timeout | undefined;

  const retryLater = (delay: number): void => {
    if (!stopped && !retry) retry = setTimeout(() => void connect(), delay);
  };

  async function connect(): Promise<void> {
    retry = undefined;
    if (stopped) return;
    const c = new Client(pool.options);
    c.on('notification', (n) => opts.onNotify(n.payload ?? ''));
    c.on('error', (err) => {
      log.warn({ err, channel }, 'LISTEN connection lost');
      if (current === c) {
        current = null;
        opts.onListening?.(false);
      }
      c.end().catch(() => undefined);
      retryLater(retryMs);
    });
    try {
      await c.connect();
      await c.query(`LISTEN "${channel}"`);
    } catch (err) {
      log.warn({ err, channel }, 'LISTEN failed; trying again later');
      c.end().catch(() => undefined);
      retryLater(retryMs * 5);
      return;
    }
    if (stopped) {
      await c.end().catch(() => undefined);
      return;
    }
    current = c;
    opts.onListening?.(true);
  }

  void connect();
  return {
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const c = current;
      current = null;
      if (c) opts.onListening?.(false);
      await c?.end().catch(() => undefined);
    },
  };
}
