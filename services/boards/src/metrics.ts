/** Boards metrics, registered in the platform's registry (served on /metrics by the health server). */
import { counter } from '@wb/platform';
import type { Counter, Registry } from 'prom-client';

export interface BoardsMetrics {
  /** operation: the NATS operation; outcome: ok or the error code */
  commands: Counter<'operation' | 'outcome'>;
  /** reason: owner (purge call), expired (30-day job), owner_terminated */
  purged: Counter<'reason'>;
  /** result: hit (answered from the cache), miss */
  listCache: Counter<'result'>;
}

export function createBoardsMetrics(registry: Registry): BoardsMetrics {
  return {
    commands: counter(registry, 'boards_commands_total', 'Boards operations by outcome (ok or error code)', [
      'operation',
      'outcome',
    ]),
    purged: counter(registry, 'boards_purged_total', 'Boards deleted for good, by reason', ['reason']),
    listCache: counter(registry, 'boards_list_cache_total', 'GET /api/boards answers by cache result', ['result']),
  };
}
