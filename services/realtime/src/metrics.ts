/** Realtime metrics on the health server's /metrics (the benchmark and on-call read them). */
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';

/** What a room reports; every hook optional so tests need none. */
export interface RoomMetrics {
  changeApplied(): void;
  changeRefused(code: string): void;
  ephemeralDropped(): void;
  journalAppended(seconds: number, changes: number): void;
  /** S8: one room flush — why it ran, what it carried, how long it took */
  flushed(mode: 'immediate' | 'batched' | 'tick', changes: number, ephemerals: number, seconds: number): void;
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
  const journalBatch = new Histogram({
    name: 'realtime_journal_batch_changes',
    help: 'Changes per journal append (group commit: those that arrived during the previous append)',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [registry],
  });
  // S8: rate(realtime_flushes_total[1m]) is flushes per second by mode (immediate: a quiet room,
  // batched: a busy room after its gap, tick: no scheduler); the histograms are the batch sizes
  const flushes = new Counter({
    name: 'realtime_flushes_total',
    help: 'Room flushes (changes forwarded, ephemeral batch, acks), by why they ran',
    labelNames: ['mode'] as const,
    registers: [registry],
  });
  const flushItems = new Histogram({
    name: 'realtime_flush_batch_items',
    help: 'Items per room flush: committed changes forwarded, ephemeral entries batched',
    labelNames: ['kind'] as const,
    buckets: [0, 1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [registry],
  });
  const flushTime = new Histogram({
    name: 'realtime_flush_seconds',
    help: 'Time of one room flush (encode and send to every peer)',
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025],
    registers: [registry],
  });
  // label children resolved once: a flush runs up to a few hundred times a second per room
  const flushesBy = {
    immediate: flushes.labels({ mode: 'immediate' }),
    batched: flushes.labels({ mode: 'batched' }),
    tick: flushes.labels({ mode: 'tick' }),
  };
  const changeItems = flushItems.labels({ kind: 'changes' });
  const ephemeralItems = flushItems.labels({ kind: 'ephemerals' });
  return {
    changeApplied: () => changes.inc({ outcome: 'applied' }),
    changeRefused: (code) => changes.inc({ outcome: code }),
    ephemeralDropped: () => dropped.inc(),
    journalAppended: (seconds, n) => {
      journal.observe(seconds);
      journaled.inc(n);
      journalBatch.observe(n);
    },
    flushed: (mode, changes, ephemerals, seconds) => {
      flushesBy[mode].inc();
      if (changes > 0) changeItems.observe(changes);
      if (ephemerals > 0) ephemeralItems.observe(ephemerals);
      flushTime.observe(seconds);
    },
  };
}

/** K1: sockets the heartbeat dropped (frozen or half-open connections) */
export function createHeartbeatMetrics(registry: Registry): { silentDropped(): void } {
  const dropped = new Counter({
    name: 'realtime_heartbeat_dropped_total',
    help: 'Sockets terminated because they answered no ping for a whole heartbeat round (SPEC K1)',
    registers: [registry],
  });
  return { silentDropped: () => dropped.inc() };
}

/** S9: render snapshots made in the worker thread (time from request to answer, queueing included) */
export function createRenderMetrics(registry: Registry): (seconds: number, outcome: 'ok' | 'failed') => void {
  const made = new Histogram({
    name: 'realtime_render_snapshot_seconds',
    help: 'Time to make one render snapshot of a catch-up document in the worker thread, by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5],
    registers: [registry],
  });
  return (seconds, outcome) => made.observe({ outcome }, seconds);
}

/** Dashboard previews made in the render worker (count and time from request to answer, by outcome) */
export function createPreviewMetrics(registry: Registry): (seconds: number, outcome: 'ok' | 'failed') => void {
  const made = new Histogram({
    name: 'realtime_board_preview_seconds',
    help: 'Time to draw and encode one dashboard preview (WebP) in the render worker thread, by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5],
    registers: [registry],
  });
  return (seconds, outcome) => made.observe({ outcome }, seconds);
}
