/**
 * The node side of the heartbeat (SPEC K1, K3). One timer for the whole server, not one per
 * socket: every `intervalMs` each socket that was heard from (a pong or any frame) since the
 * previous round is pinged again with a websocket ping frame (the browser's network stack
 * answers it; the gateway pipes it through); a socket that stayed silent for a whole round is
 * terminated, so its `close` leaves the room and the others' presence drops it. A silent peer is
 * therefore gone within 2 × intervalMs (+ the pong's way back). Cost: one 2-byte frame per socket
 * per round and a Set insert/delete per frame.
 */
import type { WebSocket } from 'ws';

export interface HeartbeatMetrics {
  /** a socket was terminated for silence (K1) */
  silentDropped(): void;
}

export interface Heartbeat {
  /** a socket of the server: ping it from the next round on */
  watch(ws: WebSocket): void;
  /** the socket was heard from (any frame: the pong of a ws ping, or a message) */
  heard(ws: WebSocket): void;
  stop(): void;
}

export interface HeartbeatTimers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const realTimers: HeartbeatTimers = {
  setInterval: (fn, ms) => setInterval(fn, ms).unref(),
  clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
};

export function startHeartbeat(opts: {
  intervalMs: number;
  clients: () => Iterable<WebSocket>;
  metrics?: HeartbeatMetrics;
  onDrop?: (ws: WebSocket) => void;
  timers?: HeartbeatTimers;
}): Heartbeat {
  const timers = opts.timers ?? realTimers;
  /** pinged in the last round and not heard from since */
  const waiting = new WeakSet<WebSocket>();
  const round = (): void => {
    for (const ws of opts.clients()) {
      if (ws.readyState !== ws.OPEN) continue;
      if (waiting.has(ws)) {
        // K1: a frozen or half-open socket: drop it now rather than when TCP gives up (minutes)
        opts.metrics?.silentDropped();
        opts.onDrop?.(ws);
        ws.terminate();
        continue;
      }
      waiting.add(ws);
      try {
        ws.ping();
      } catch {
        // the socket is closing: its close event does the rest
      }
    }
  };
  const handle = timers.setInterval(round, opts.intervalMs);
  return {
    watch(ws) {
      ws.on('pong', () => waiting.delete(ws));
    },
    heard(ws) {
      waiting.delete(ws);
    },
    stop() {
      timers.clearInterval(handle);
    },
  };
}
