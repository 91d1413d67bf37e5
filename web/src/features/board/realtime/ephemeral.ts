/**
 * Ephemeral traffic (SPEC E1–E3): what this client sends — at most one flush per
 * RT_CLIENT_EPHEMERAL_MS (~30 Hz); cursor, selection and viewport keep only their latest value,
 * stroke points accumulate into one delta per flush — and what it keeps of the other peers'.
 * The laser pointer (kind 5) is latest-wins like the cursor; receivers keep its recent points
 * for a fading trail. The geometry instruments (kind 6) are latest-wins too: one message carries
 * all of a person's instruments.
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

/** One point of a laser trail: world coordinates and when it was seen (ms, Timers.now clock). */
export interface LaserPoint {
  x: number;
  y: number;
  t: number;
  /** the pointer went up or away after this point: the trail does not join it to the next */
  end?: boolean;
}
/** how long received laser points are kept (the trail fades within ~1 s) */
export const LASER_KEEP_MS = 1500;
/** at most this many points per peer (≈ 30 Hz × LASER_KEEP_MS, with room) */
const LASER_MAX_POINTS = 128;

/**
 * Laser payload (SPEC E1 kind 5): f32 x, f32 y like the cursor; "laser off" (pointer up or left)
 * is NaN, NaN, so the same 8 bytes say both.
 */
export function encodeLaser(p: CursorPayload | null): Uint8Array {
  return encodeCursor(p ?? { x: NaN, y: NaN });
}
export function decodeLaser(bytes: Uint8Array): CursorPayload | null {
  const p = decodeCursor(bytes);
  if (Number.isNaN(p.x) || Number.isNaN(p.y)) return null;
  if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) throw new RangeError('laser point out of range');
  return p;
}

/** The geometry instruments' kinds on the wire (SPEC E1 kind 6). */
export const INSTRUMENT_TYPES = ['ruler', 'protractor', 'compass'] as const;
export type InstrumentType = (typeof INSTRUMENT_TYPES)[number];
/**
 * One instrument someone has on the board, compact: ruler x, y = its 0 mark, angle, size =
 * length; protractor x, y = centre, angle of the baseline, size = radius, extra = the measuring
 * arm's angle (NaN: none); compass x, y = needle, angle = where the sweep started, size = radius,
 * extra = the sweep so far (radians).
 */
export interface InstrumentPayload {
  type: InstrumentType;
  x: number;
  y: number;
  angle: number;
  size: number;
  extra: number;
}
/** a person has at most one of each */
const INSTRUMENT_BYTES = 1 + 5 * 4;

/**
 * Instruments payload: u8 count, then per instrument u8 type (1 ruler, 2 protractor, 3 compass)
 * and f32 x, y, angle, size, extra (little-endian). All of a person's instruments travel in one
 * message, so the relay's latest-wins per kind keeps them all; count 0 = none any more.
 */
export function encodeInstruments(items: readonly InstrumentPayload[]): Uint8Array {
  if (items.length > INSTRUMENT_TYPES.length) throw new RangeError('too many instruments');
  const out = new Uint8Array(1 + items.length * INSTRUMENT_BYTES);
  const view = new DataView(out.buffer);
  out[0] = items.length;
  items.forEach((it, i) => {
    const at = 1 + i * INSTRUMENT_BYTES;
    out[at] = INSTRUMENT_TYPES.indexOf(it.type) + 1;
    [it.x, it.y, it.angle, it.size, it.extra].forEach((v, k) => view.setFloat32(at + 1 + k * 4, v, true));
  });
  return out;
}
export function decodeInstruments(bytes: Uint8Array): InstrumentPayload[] {
  const count = bytes[0] ?? -1;
  if (count < 0 || count > INSTRUMENT_TYPES.length || bytes.length !== 1 + count * INSTRUMENT_BYTES)
    throw new RangeError('bad instruments payload');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: InstrumentPayload[] = [];
  for (let i = 0; i < count; i++) {
    const at = 1 + i * INSTRUMENT_BYTES;
    const type = INSTRUMENT_TYPES[bytes[at]! - 1];
    const [x, y, angle, size, extra] = [0, 1, 2, 3, 4].map((k) => view.getFloat32(at + 1 + k * 4, true)) as [
      number,
      number,
      number,
      number,
      number,
    ];
    if (!type || ![x, y, angle, size].every(Number.isFinite) || size < 0) throw new RangeError('bad instrument');
    out.push({ type, x, y, angle, size, extra });
  }
  return out;
}
/** a peer's instruments vanish when nothing was heard of them for this long (ms); senders repeat every second */
export const INSTRUMENT_STALE_MS = 3000;

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
  /** undefined = nothing to send; null = "laser off" to send */
  private laser: CursorPayload | null | undefined = undefined;
  /** undefined = nothing to send */
  private instruments: InstrumentPayload[] | undefined = undefined;
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
  /** the laser pointer's position (world), or null when it stops; latest wins like the cursor */
  setLaser(p: CursorPayload | null): void {
    this.laser = p ? { x: p.x, y: p.y } : null;
    this.schedule();
  }
  /** all of this person's instruments on the board (empty: none); latest wins */
  setInstruments(items: readonly InstrumentPayload[]): void {
    this.instruments = items.map((it) => ({ ...it }));
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
    this.laser = undefined;
    this.instruments = undefined;
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
    if (this.laser !== undefined) this.send(EPHEMERAL_KIND.LASER, encodeLaser(this.laser));
    if (this.instruments) this.send(EPHEMERAL_KIND.INSTRUMENT, encodeInstruments(this.instruments));
    this.cursor = this.selection = this.viewport = null;
    this.laser = undefined;
    this.instruments = undefined;
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
  /** each peer's recent laser points, oldest first (a fading trail) */
  readonly lasers = new Map<number, LaserPoint[]>();
  /** each peer's instruments on the board and when they were last heard of (ms) */
  readonly instruments = new Map<number, { items: InstrumentPayload[]; at: number }>();

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
        case EPHEMERAL_KIND.LASER: {
          const p = decodeLaser(item.data);
          let trail = this.lasers.get(item.peerId);
          if (!p) {
            if (trail?.length) trail[trail.length - 1]!.end = true;
            return true;
          }
          if (!trail) this.lasers.set(item.peerId, (trail = []));
          trail.push({ x: p.x, y: p.y, t: now });
          dropOldLaserPoints(trail, now);
          return true;
        }
        case EPHEMERAL_KIND.INSTRUMENT: {
          const items = decodeInstruments(item.data);
          if (items.length) this.instruments.set(item.peerId, { items, at: now });
          else this.instruments.delete(item.peerId);
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
    for (const [peer, trail] of this.lasers) {
      dropOldLaserPoints(trail, now);
      if (!livePeers.has(peer) || trail.length === 0) this.lasers.delete(peer);
    }
    for (const [peer, ins] of this.instruments)
      if (!livePeers.has(peer) || now - ins.at > INSTRUMENT_STALE_MS) this.instruments.delete(peer);
  }

  clear(): void {
    this.cursors.clear();
    this.selections.clear();
    this.viewports.clear();
    this.strokes.clear();
    this.lasers.clear();
    this.instruments.clear();
  }
}

function dropOldLaserPoints(trail: LaserPoint[], now: number): void {
  let drop = 0;
  while (drop < trail.length && now - trail[drop]!.t > LASER_KEEP_MS) drop++;
  drop = Math.max(drop, trail.length - LASER_MAX_POINTS);
  if (drop > 0) trail.splice(0, drop);
}
