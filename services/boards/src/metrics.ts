/** Boards metrics, registered in the platform's registry (served on /metrics by the health server). */
import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';

export interface BoardsMetrics {
  /** operation: the NATS operation; outcome: ok or the error code */
  commands: Counter<'operation' | 'outcome'>;
  /** reason: owner (purge call), expired (30-day job), owner_terminated */
  purged: Counter<'reason'>;
  /** result: hit (answered from the cache), miss */
  listCache: Counter<'result'>;
}

function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
): Counter<L> {
  // one metric per registry even if a test builds the service twice in one process
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames, registers: [registry] });
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
