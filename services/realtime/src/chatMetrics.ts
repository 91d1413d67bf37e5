/** Chat metrics on the health server's /metrics (SPEC C*; the chat bench reads the logs, not these). */
import { Counter, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';

export interface ChatMetrics {
  /** 'sent', 'deleted' or the refusal code */
  event(outcome: string): void;
  /** ms to store one message */
  stored(ms: number): void;
  /** ms to read one history page */
  historyLoaded(ms: number): void;
}

export function createChatMetrics(registry: Registry): ChatMetrics {
  const events = new Counter({
    name: 'realtime_chat_events_total',
    help: 'Chat messages sent and deleted, and chat frames refused (by error code)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const buckets = [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
  const store = new Histogram({
    name: 'realtime_chat_store_seconds',
    help: 'Time to store one chat message',
    buckets,
    registers: [registry],
  });
  const history = new Histogram({
    name: 'realtime_chat_history_seconds',
    help: 'Time to read one chat history page',
    buckets,
    registers: [registry],
  });
  return {
    event: (outcome) => events.inc({ outcome }),
    stored: (ms) => store.observe(ms / 1000),
    historyLoaded: (ms) => history.observe(ms / 1000),
  };
}
