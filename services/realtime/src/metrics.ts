/** Realtime metrics on the health server's /metrics (the benchmark and on-call read them). */
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';

/** What a room reports; every hook optional so tests need none. */
export interface RoomMetrics {
  changeApplied(): void;
  changeRefused(code: string): void;
  ephemeralDropped(): void;
  journalAppended(seconds: number, changes: number): void;
}

export function createRealtimeMetrics(registry: Registry, state: { rooms(): number; peers(): number }): RoomMetrics {
  new Gauge({
    name: 'realtime_rooms',
    help: 'Board rooms open on this node',
    registers: [registry],
    collect() {
      this.set(state.rooms());
    },
  });
  new Gauge({
    name: 'realtime_peers',
    help: 'Websocket peers joined to rooms on this node',
    registers: [registry],
    collect() {
      this.set(state.peers());
    },
  });
  const changes = new Counter({
    name: 'realtime_changes_total',
    help: 'Committed changes received, by outcome (applied or the refusal code)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const dropped = new Counter({
    name: 'realtime_ephemeral_dropped_total',
    help: 'Ephemeral frames not sent to a peer because of back-pressure',
    registers: [registry],
  });
  const journal = new Histogram({
    name: 'realtime_journal_append_seconds',
    help: 'Time of one batched journal append',
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
  const journaled = new Counter({
    name: 'realtime_journaled_changes_total',
    help: 'Changes appended to the journal',
    registers: [registry],
  });
  return {
    changeApplied: () => changes.inc({ outcome: 'applied' }),
    changeRefused: (code) => changes.inc({ outcome: code }),
    ephemeralDropped: () => dropped.inc(),
    journalAppended: (seconds, n) => {
      journal.observe(seconds);
      journaled.inc(n);
    },
  };
}
