/**
 * Ephemeral traffic (SPEC E1–E3): what this client sends — at most one flush per
 * RT_CLIENT_EPHEMERAL_MS (~30 Hz); cursor, selection and viewport keep only their latest value,
 * stroke points accumulate into one delta per flush — and what it keeps of the other peers'.
 */
import {
  decodeCursor,
  decodeSelection,
  decodeStrokeDelta,
  decodeViewport,
  encodeCursor,
  encodeSelection,
  encodeStrokeDelta,
  encodeViewport,
  EPHEMERAL_KIND,
  RT_CLIENT_EPHEMERAL_MS,
  STROKE_DELTA_MAX_POINTS,
  STROKE_FLAG,
} from '@wb/proto';
import type { CursorPayload, EphemeralItem, EphemeralKind, ViewportPayload } from '@wb/proto';
import type { Timers } from './timers';

interface OpenStroke {
  id: string;
  color: number;
  width: number;
  /** points already sent */
  sent: number;
  /** x,y pairs not sent yet */
  queued: number[];
  started: boolean;
  ended: boolean;
}

export class EphemeralOutbox {
  private cursor: CursorPayload | null = null;
  private selection: string[] | null = null;
  private viewport: ViewportPayload | null = null;
  private stroke: OpenStroke | null = null;
  /** strokes that ended and still have bytes to send */
  private closing: OpenStroke[] = [];
  private lastFlush = -Infinity;
  private timer: unknown = null;

  constructor(
    private readonly send: (kind: EphemeralKind, bytes: Uint8Array) => void,
    private readonly timers: Timers,
    private readonly intervalMs = RT_CLIENT_EPHEMERAL_MS,
  ) {}

  setCursor(c: CursorPayload): void {
    this.cursor = c;
    this.schedule();
  }
  setSelection(ids: readonly string[]): void {
    this.selection = [...ids];
    this.schedule();
  }
  setViewport(v: ViewportPayload): void {
    this.viewport = v;
    this.schedule();
  }
  strokeStart(id: string, color: number, width: number, x: number, y: number): void {
    if (this.stroke) this.strokeEnd();
    this.stroke = { id, color, width, sent: 0, queued: [x, y], started: false, ended: false };
    this.schedule();
  }
  strokePoint(x: number, y: number): void {
    if (!this.stroke) return;
    this.stroke.queued.push(x, y);
    this.schedule();
  }
  strokeEnd(): void {
    if (!this.stroke) return;
    this.stroke.ended = true;
    this.closing.push(this.stroke);
    this.stroke = null;
    this.schedule();
  }

  /** forget everything queued (disconnected: ephemeral data is not worth replaying) */
  reset(): void {
    this.cursor = this.selection = this.viewport = null;
    this.stroke = null;
    this.closing = [];
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.timer !== null) return;
    const wait = this.lastFlush + this.intervalMs - this.timers.now();
    if (wait <= 0) this.flush();
    else
      this.timer = this.timers.setTimeout(() => {
        this.timer = null;
        this.flush();
      }, wait);
  }

  private flush(): void {
    this.lastFlush = this.timers.now();
    if (this.cursor) this.send(EPHEMERAL_KIND.CURSOR, encodeCursor(this.cursor));
    if (this.selection) this.send(EPHEMERAL_KIND.SELECTION, encodeSelection(this.selection));
    if (this.viewport) this.send(EPHEMERAL_KIND.VIEWPORT, encodeViewport(this.viewport));
    this.cursor = this.selection = this.viewport = null;
    for (const s of this.closing) this.flushStroke(s);
    this.closing = [];
    if (this.stroke) this.flushStroke(this.stroke);
  }

  private flushStroke(s: OpenStroke): void {
    // one delta per flush; a long gap (slow flushes) is split to stay under the size limit
    do {
      const take = Math.min(s.queued.length / 2, STROKE_DELTA_MAX_POINTS);
      const points = s.queued.splice(0, take * 2);
      const last = s.ended && s.queued.length === 0;
      if (points.length === 0 && !last) return;
      const flags = (s.started ? 0 : STROKE_FLAG.START) | (last ? STROKE_FLAG.END : 0);
      this.send(
        EPHEMERAL_KIND.STROKE,
        encodeStrokeDelta({ id: s.id, flags, color: s.color, width: s.width, first: s.sent, points }),
      );
      s.started = true;
      s.sent += take;
    } while (s.queued.length > 0);
  }
}

/** A stroke another peer is drawing: points so far (world coordinates). */
export interface RemoteStroke {
  peerId: number;
  id: string;
  color: number;
  width: number;
  points: number[];
  ended: boolean;
  /** last update (ms) */
  at: number;
}

/** What the other peers' ephemeral messages say, by peer id. */
export class RemoteEphemeral {
  readonly cursors = new Map<number, CursorPayload & { at: number }>();
  readonly selections = new Map<number, string[]>();
  readonly viewports = new Map<number, ViewportPayload>();
  /** by stroke id */
  readonly strokes = new Map<string, RemoteStroke>();

  /** applies one batch item; returns false for an item it could not read (ignored) */
  apply(item: EphemeralItem, now: number): boolean {
    try {
      switch (item.kind) {
        case EPHEMERAL_KIND.CURSOR:
          this.cursors.set(item.peerId, { ...decodeCursor(item.data), at: now });
          return true;
        case EPHEMERAL_KIND.SELECTION:
          this.selections.set(item.peerId, decodeSelection(item.data));
          return true;
        case EPHEMERAL_KIND.VIEWPORT:
          this.viewports.set(item.peerId, decodeViewport(item.data));
          return true;
        case EPHEMERAL_KIND.STROKE: {
          const d = decodeStrokeDelta(item.data);
          let s = this.strokes.get(d.id);
          if (!s || s.peerId !== item.peerId) {
            s = { peerId: item.peerId, id: d.id, color: d.color, width: d.width, points: [], ended: false, at: now };
            this.strokes.set(d.id, s);
          }
          // deltas arrive in order per peer; a lost one leaves a gap the committed stroke repairs (E2)
          if (d.first * 2 >= s.points.length) for (const v of d.points) s.points.push(v);
          s.ended ||= (d.flags & STROKE_FLAG.END) !== 0;
          s.at = now;
          return true;
        }
        default:
          return false;
      }
    } catch {
      return false;
    }
  }

  /** the committed shape replaced the preview */
  strokeCommitted(id: string): boolean {
    return this.strokes.delete(id);
  }

  /** drop what belongs to peers that left, and previews nobody finished or committed in time */
  prune(livePeers: ReadonlySet<number>, now: number, staleMs = 5000): void {
    for (const map of [this.cursors, this.selections, this.viewports])
      for (const peer of map.keys()) if (!livePeers.has(peer)) map.delete(peer);
    for (const [id, s] of this.strokes) if (!livePeers.has(s.peerId) || now - s.at > staleMs) this.strokes.delete(id);
  }

  clear(): void {
    this.cursors.clear();
    this.selections.clear();
    this.viewports.clear();
    this.strokes.clear();
  }
}
