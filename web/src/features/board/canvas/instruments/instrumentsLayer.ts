/**
 * The instruments on the board: mine (a ruler and a protractor stay until closed; the compass
 * only while its tool is in use) and the other peers' (from their instrument ephemerals, gone
 * INSTRUMENT_STALE_MS after the last one). Drawn on the overlay for everyone; nothing is stored.
 *
 * Mine go out through the host's ephemeral outbox at most every SEND_INTERVAL_MS while they
 * change, and again every KEEPALIVE_MS while any is shown (so the others' copies do not expire
 * and a peer who joins later sees them).
 */
import type { BoardBackground } from '@wb/proto';
import type { EphemeralOutbox, InstrumentPayload } from '../../realtime/ephemeral';
import { INSTRUMENT_STALE_MS } from '../../realtime/ephemeral';
import { browserTimers, type Timers } from '../../realtime/timers';
import { backgroundIsDark } from '../theme';
import type { ToolHost } from '../tools/types';
import type { InstrumentStyle } from './draw';
import { gridUnit, type Compass, type Protractor, type Ruler } from './model';

/** ≈ 20 Hz while an instrument moves */
export const SEND_INTERVAL_MS = 50;
/** a still instrument is repeated this often (well under the others' INSTRUMENT_STALE_MS) */
export const KEEPALIVE_MS = 1000;

export interface InstrumentsDrawContext {
  zoom: number;
  theme: 'light' | 'dark';
  peerColor(peer: number): string;
  /** the peer's display name (none: the peer left, draw nothing) */
  peerName(peer: number): string | undefined;
}

/** what of the host the layer uses when my instruments change */
export type InstrumentsHost = Pick<ToolHost, 'ephemeral' | 'redraw'>;

export class InstrumentsLayer {
  private mine: { ruler: Ruler | null; protractor: Protractor | null; arm: number | null; compass: Compass | null } = {
    ruler: null,
    protractor: null,
    arm: null,
    compass: null,
  };
  private remote = new Map<number, { items: InstrumentPayload[]; at: number }>();
  private out: EphemeralOutbox | null = null;
  private lastSent = -Infinity;
  private sendTimer: unknown = null;
  private sendDue = Infinity;
  private expiryTimer: unknown = null;
  private readonly timers: Timers;
  private readonly redraw: () => void;
  /** the drawing code, loaded when the first instrument shows (most boards never use one) */
  private painter: typeof import('./draw') | null = null;
  private painterLoading: Promise<void> | null = null;
  private readonly background: () => BoardBackground;

  /**
   * `background`: the board's (its grid sets the unit); `redraw`: the overlay should be painted
   * again (a peer's instruments went stale, the drawing code arrived); `timers`: the clock of
   * RemoteEphemeral's `at` and of the sends.
   */
  constructor(opts: { background?: () => BoardBackground; redraw?: () => void; timers?: Timers } = {}) {
    this.background = opts.background ?? (() => 'empty');
    this.redraw = opts.redraw ?? (() => undefined);
    this.timers = opts.timers ?? browserTimers;
  }

  /** one grid unit in world units (lengths and radii are shown in these) */
  unit(): number {
    return gridUnit(this.background());
  }

  ruler(): Ruler | null {
    return this.mine.ruler;
  }
  protractor(): Protractor | null {
    return this.mine.protractor;
  }
  /** the protractor's measuring arm (world angle), null when none */
  protractorArm(): number | null {
    return this.mine.arm;
  }
  compass(): Compass | null {
    return this.mine.compass;
  }

  setRuler(r: Ruler | null, host: InstrumentsHost): void {
    this.mine.ruler = r && { ...r };
    this.changed(host);
  }
  setProtractor(q: Protractor | null, arm: number | null, host: InstrumentsHost): void {
    this.mine.protractor = q && { ...q };
    this.mine.arm = q ? arm : null;
    this.changed(host);
  }
  setCompass(c: Compass | null, host: InstrumentsHost): void {
    this.mine.compass = c && { ...c };
    this.changed(host);
  }

  /** my instruments as they go on the wire */
  payload(): InstrumentPayload[] {
    const { ruler, protractor, arm, compass } = this.mine;
    const out: InstrumentPayload[] = [];
    if (ruler) out.push({ type: 'ruler', x: ruler.x, y: ruler.y, angle: ruler.angle, size: ruler.length, extra: 0 });
    if (protractor) out.push({ type: 'protractor', ...pick(protractor), size: protractor.radius, extra: arm ?? NaN });
    if (compass)
      out.push({
        type: 'compass',
        x: compass.cx,
        y: compass.cy,
        angle: compass.startAngle,
        size: compass.radius,
        extra: compass.sweep,
      });
    return out;
  }

  /** the other peers' instruments as the realtime client keeps them (RemoteEphemeral.instruments) */
  syncRemote(remote: ReadonlyMap<number, { items: InstrumentPayload[]; at: number }>): void {
    this.remote = new Map(remote);
    this.scheduleExpiry();
  }

  /** peers whose instruments are shown now */
  peers(): Map<number, InstrumentPayload[]> {
    const now = this.timers.now();
    const out = new Map<number, InstrumentPayload[]>();
    for (const [peer, r] of this.remote) if (now - r.at <= INSTRUMENT_STALE_MS) out.set(peer, r.items);
    return out;
  }

  /** every instrument, the others' under mine (world transform set) */
  drawOverlay(g: CanvasRenderingContext2D, ctx: InstrumentsDrawContext): void {
    const { ruler, protractor, arm, compass } = this.mine;
    const peers = this.peers();
    if (!ruler && !protractor && !compass && peers.size === 0) return;
    const p = this.painter;
    if (!p) return void this.loadPainter();
    const base = { zoom: ctx.zoom, unit: this.unit(), dark: backgroundIsDark(this.background(), ctx.theme) };
    for (const [peer, items] of peers) {
      const name = ctx.peerName(peer);
      if (name === undefined) continue;
      const style: InstrumentStyle = { ...base, peer: { color: ctx.peerColor(peer), name } };
      for (const it of items) p.drawInstrument(g, it, style);
    }
    if (ruler) p.drawRuler(g, ruler, base);
    if (protractor) p.drawProtractor(g, protractor, arm, base);
    if (compass) p.drawCompass(g, compass, base);
  }

  /** load the drawing code (once), then redraw */
  loadPainter(): Promise<void> {
    this.painterLoading ??= import('./draw').then((m) => {
      this.painter = m;
      this.redraw();
    });
    return this.painterLoading;
  }

  dispose(): void {
    if (this.sendTimer !== null) this.timers.clearTimeout(this.sendTimer);
    if (this.expiryTimer !== null) this.timers.clearTimeout(this.expiryTimer);
    this.sendTimer = this.expiryTimer = null;
    this.out = null;
  }

  private changed(host: InstrumentsHost): void {
    this.out = host.ephemeral;
    host.redraw();
    this.scheduleSend(this.lastSent + SEND_INTERVAL_MS - this.timers.now());
  }

  /** send in `wait` ms unless a send is due sooner already */
  private scheduleSend(wait: number): void {
    const now = this.timers.now();
    if (this.sendTimer !== null) {
      if (this.sendDue <= now + wait) return;
      this.timers.clearTimeout(this.sendTimer);
      this.sendTimer = null;
    }
    if (wait <= 0) return this.send();
    this.sendDue = now + wait;
    this.sendTimer = this.timers.setTimeout(() => {
      this.sendTimer = null;
      this.send();
    }, wait);
  }

  private send(): void {
    if (!this.out) return;
    const items = this.payload();
    this.out.setInstruments(items);
    this.lastSent = this.timers.now();
    if (items.length) this.scheduleSend(KEEPALIVE_MS);
  }

  /** redraw when the next peer's instruments go stale (they sent nothing more) */
  private scheduleExpiry(): void {
    if (this.expiryTimer !== null) this.timers.clearTimeout(this.expiryTimer);
    this.expiryTimer = null;
    let first = Infinity;
    for (const r of this.remote.values()) first = Math.min(first, r.at + INSTRUMENT_STALE_MS);
    if (first === Infinity) return;
    this.expiryTimer = this.timers.setTimeout(
      () => {
        this.expiryTimer = null;
        for (const [peer, r] of this.remote)
          if (this.timers.now() - r.at > INSTRUMENT_STALE_MS) this.remote.delete(peer);
        this.redraw();
        this.scheduleExpiry();
      },
      Math.max(0, first - this.timers.now()) + 1,
    );
  }
}

const pick = (p: { x: number; y: number; angle: number }) => ({ x: p.x, y: p.y, angle: p.angle });
