/**
 * Shared by the realtime benchmark's orchestrator (realtime.ts) and its client process
 * (realtime-clients.ts): the IPC messages, latency summaries and the stroke generator (the /proc
 * readers are in scripts/lib/procStats.ts).
 */

// ---------------------------------------------------------------------------------------------
// IPC between the orchestrator and the client process

/** One board of our realtime nodes, joined directly at its owner node with a signed actor header. */
export interface WbBoardSpec {
  boardId: string;
  /** ws://127.0.0.1:<port> of the owner node */
  url: string;
  nodeId: string;
  /** the board owner's user id: the drawing client (the teacher) joins as this user */
  ownerUserId: number;
}

export interface ClassroomLoad {
  /** clients per board, the drawing client included */
  clients: number;
  /** committed strokes per second of the drawing client (0: none) */
  strokeRate: number;
  /** every client sends its cursor at this rate (0: no cursors) */
  cursorHz: number;
  /** points per stroke, uniformly in [min, max] */
  pointsMin: number;
  pointsMax: number;
}

export type ClientRequest =
  | { cmd: 'wb.open'; boards: WbBoardSpec[]; load: ClassroomLoad; secret: string; concurrency: number }
  | { cmd: 'hp.open'; url: string; docs: string[]; load: ClassroomLoad; concurrency: number }
  | { cmd: 'mark' }
  /** the window's figures; with `pool`, its samples are also added to that pool */
  | { cmd: 'report'; pool?: string }
  /** figures over every window reported into the pool */
  | { cmd: 'pooled'; pool: string }
  | { cmd: 'closeAll' }
  /** keepOpen: the socket stays connected (the room stays open) until closeAll */
  | { cmd: 'wb.bigLoad'; url: string; boardId: string; secret: string; userId: number; keepOpen: boolean }
  | { cmd: 'wb.connectMany'; boards: WbBoardSpec[]; perBoard: number; secret: string; concurrency: number };

export interface JoinResult {
  clients: number;
  /** connect → SYNCED per client */
  joinMs: Summary;
  /** connect → WELCOME per client (ours: access check + room open) */
  welcomeMs?: Summary;
  elapsedMs: number;
}

export interface BigLoadResult {
  /** ws open → WELCOME (access check + lease + claim + load on a cold board) */
  welcomeMs: number;
  /** ws open → first SYNC frame of the server */
  firstSyncMs: number;
  /** ws open → SYNCED (the whole board transferred and loaded by a raw-handle client) */
  syncedMs: number;
  syncBytes: number;
}

export interface Summary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export interface LoadReport {
  windowS: number;
  boards: number;
  clients: number;
  strokes: {
    /** strokes committed by the drawing clients in the window (sent up to 1 s before its end) */
    sent: number;
    /** deliveries expected (sent × other clients) and seen */
    expectedDeliveries: number;
    delivered: number;
    /** per receiver: commit (send) → frame arrival */
    visible: Summary;
    /** per stroke: commit → arrival at the last of the other clients */
    visibleAll: Summary;
    /** ours: commit → SAVED at the author (after the journal transaction committed); hocuspocus: the in-memory sync-status ack */
    ack: Summary;
    acked: number;
    /** send wall-clock times (ms since the epoch) by change hash, for the journal cross-check */
    sentWall: Array<[string, number]>;
  };
  cursors: {
    sent: number;
    /** received by others over sent × (clients − 1); below 1 when the server coalesced (latest per tick) or dropped */
    deliveredRatio: number;
    latency: Summary;
  };
  errors: string[];
  client: {
    /** CPU of the client process over the window, in % of one core */
    cpuPercent: number;
    eventLoopDelayP99Ms: number;
    eventLoopDelayMaxMs: number;
  };
}

export interface PooledReport {
  windows: number;
  strokes: {
    sent: number;
    expectedDeliveries: number;
    delivered: number;
    acked: number;
    visible: Summary;
    visibleAll: Summary;
    ack: Summary;
  };
  cursors: { latency: Summary; deliveredRatio: number };
}

export type ClientReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

// ---------------------------------------------------------------------------------------------
// statistics

export function summarize(values: ArrayLike<number>): Summary {
  const n = values.length;
  if (n === 0) return { n: 0, p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN };
  const sorted = Float64Array.from(values).sort();
  const pct = (p: number): number => sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))]!;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i]!;
  const r = (x: number): number => Math.round(x * 100) / 100;
  return { n, p50: r(pct(50)), p90: r(pct(90)), p99: r(pct(99)), max: r(sorted[n - 1]!), mean: r(sum / n) };
}

/** A growable list of doubles without per-sample boxing (hundreds of thousands of cursor samples). */
export class Samples {
  private buf = new Float64Array(1024);
  length = 0;
  push(x: number): void {
    if (this.length === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = x;
  }
  clear(): void {
    this.length = 0;
  }
  view(): Float64Array {
    return this.buf.subarray(0, this.length);
  }
}

// ---------------------------------------------------------------------------------------------
// strokes

/** A hand-drawn stroke: a random walk of `n` points (x0,y0,x1,y1,…) around (ox, oy). */
export function strokePoints(n: number, ox = 0, oy = 0, rnd: () => number = Math.random): number[] {
  const pts: number[] = [];
  let x = ox;
  let y = oy;
  let a = rnd() * Math.PI * 2;
  for (let i = 0; i < n; i++) {
    a += (rnd() - 0.5) * 0.6;
    x += Math.cos(a) * (2 + rnd() * 2);
    y += Math.sin(a) * (2 + rnd() * 2);
    pts.push(Math.round(x * 100) / 100, Math.round(y * 100) / 100);
  }
  return pts;
}

/** A seeded PRNG (mulberry32), so the big board is the same on every run. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const round1 = (x: number): number => Math.round(x * 10) / 10;
export const round2 = (x: number): number => Math.round(x * 100) / 100;
