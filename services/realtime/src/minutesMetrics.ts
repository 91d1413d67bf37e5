/** Collaboration-minutes metrics on the health server's /metrics (SPEC T4–T8). */
import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';
import type { MinutesMetrics } from './room/collaboration';

export function createMinutesMetrics(registry: Registry): MinutesMetrics {
  return {
    checkpoints: new Counter({
      name: 'realtime_collaboration_checkpoints_total',
      help: 'Collaboration span checkpoints sent to boards, by outcome (ok, failed)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    locks: new Counter({
      name: 'realtime_collaboration_locks_total',
      help: 'Rooms locked because their owner’s weekly collaboration minutes ran out, and unlocked again',
      labelNames: ['event'] as const,
      registers: [registry],
    }),
  };
}
