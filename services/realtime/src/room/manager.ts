/**
 * The rooms of one node: opening a board (route → lease → PostgreSQL claim → load), the tick and
 * persist timers, lease renewal, periodic snapshots, idle eviction, purge and shutdown hand-over
 * (SPEC R*, P*, H*). Clock and timers are injected.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { EventLoopUtilization } from 'node:perf_hooks';
import type { Logger, Pool } from '@wb/platform';
import { RT_CLOSE, RT_TICK_MS } from '@wb/proto';
import type { BoardInfo } from '@wb/proto';
import { loadBoardHandle, PgRoomJournal, SNAPSHOT_EVERY_CHANGES } from '../commands/boardStore';
import { claimBoard } from '../repositories/journal';
import type { NodeRegistry } from '../sharding/registry';
import { previewKey } from '../storage/snapshots';
import type { SnapshotStore } from '../storage/snapshots';
import type { RoomMetrics } from '../metrics';
import { PgChatStore } from '../repositories/chat';
import type { ChatStore } from '../repositories/chat';
import type { ChatMetrics } from '../chatMetrics';
import { PgLessonStore } from '../repositories/lesson';
import type { LessonStore } from '../repositories/lesson';
import type { LessonMetrics } from './lesson';
import type { PlanSource } from '@wb/platform';
import { Room } from './room';
import type { Clock, Peer } from './room';
import { CollaborationMeter } from './collaboration';
import type { MinutesOptions } from './collaboration';
import type { RenderSnapshotMaker } from '../doc/renderSnapshot';
import { FlushScheduler, realFlushTimers } from './flushScheduler';
import type { FlushPolicy, FlushTimers } from './flushScheduler';

export interface Timers extends Partial<FlushTimers> {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}
export const realTimers: Timers = {
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
  ...realFlushTimers,
};

export interface OpenRoom {
  room: Room;
  journal: PgRoomJournal;
  token: number;
  sessionId: string;
  startedAt: number;
  lastSnapshotAt: number;
  /** collaboration minutes of the room (SPEC T4–T8), when the node meters them */
  minutes?: CollaborationMeter;
  /** dashboard preview: the journal seq the last one shows (its version), when it was made */
  previewSeq: number;
  lastPreviewAt: number;
  /** a preview is being made (save → worker → store → event) */
  previewing: Promise<void> | null;
}
/** Collaboration-time events (written to the outbox by main.ts). */
export interface SessionSink {
  started(r: OpenRoom): void;
  participantLeft(r: OpenRoom, peer: Peer, now: number): void;
  ended(r: OpenRoom, now: number): void;
}

export interface ManagerOptions {
  pool: Pool;
  store: SnapshotStore;
  registry: NodeRegistry;
  log: Logger;
  clock: Clock;
  timers?: Timers;
  sessions?: SessionSink;
  /** retry of failed journal appends (P3); appends themselves start at once (P1 group commit) */
  persistEveryMs?: number;
  /**
   * S8 flush scheduling: policy overrides, and the monotonic clock (default performance.now) and
   * node load probe (default: event-loop utilisation sampled on the housekeeping tick) it reads
   */
  flush?: Partial<FlushPolicy> & { now?: () => number; load?: () => number };
  /** snapshot when this many changes were journaled since the last one; default SNAPSHOT_EVERY_CHANGES */
  snapshotEveryChanges?: number;
  /** snapshot a changed board at least this often; default 60 000 */
  snapshotEveryMs?: number;
  /** evict a room this long after its last peer left; default 30 000 */
  idleMs?: number;
  metrics?: RoomMetrics;
  /** chat storage (SPEC C*); default: PostgreSQL through `pool` */
  chat?: ChatStore;
  chatMetrics?: ChatMetrics;
  /** lesson (SPEC LS*): the board owners' plans (auth plan.get, cached) */
  plans?: PlanSource;
  /** lesson timer across failovers (LS9); default: PostgreSQL through `pool` */
  lessonStore?: LessonStore;
  lessonMetrics?: LessonMetrics;
  /** collaboration minutes (SPEC T4–T8): boards' counter, the outbox, the meter's timers */
  minutes?: MinutesOptions;
  /** S9: render snapshots for fresh joiners and dashboard previews (one worker thread per node); none without it */
  renders?: RenderSnapshotMaker;
  /** a changed board's dashboard preview is made at most this often while it is open; default 30 000 */
  previewEveryMs?: number;
  /** a preview of `version` (journal seq) was stored under previewKey (main.ts announces it) */
  previewed?: (boardId: string, version: number) => Promise<void>;
}

/** The board facts a room needs, from the access check of the join that opens it. */
export interface RoomBoard extends BoardInfo {
  ownerId: number;
}

export type OpenResult = { kind: 'open'; room: OpenRoom } | { kind: 'elsewhere'; nodeId: string };

export class RoomManager {
  private readonly rooms = new Map<string, OpenRoom>();
  private readonly opening = new Map<string, Promise<OpenResult>>();
  /** rooms being evicted: a join for the board waits until the final persist is done */
  private readonly closing = new Map<string, Promise<void>>();
  private readonly timers: Timers;
  private handles: unknown[] = [];
  private stopping = false;
  private readonly chat: ChatStore;
  private readonly lessonStore: LessonStore;
  /** S8: the node's event-loop utilisation over the last sampling window (0…1) */
  private nodeLoad = 0;
  private elu: { at: number; sample: EventLoopUtilization } | null = null;

  constructor(private readonly opts: ManagerOptions) {
    this.timers = opts.timers ?? realTimers;
    this.chat = opts.chat ?? new PgChatStore(opts.pool);
    this.lessonStore = opts.lessonStore ?? new PgLessonStore(opts.pool);
  }

  get roomCount(): number {
    return this.rooms.size;
  }
  get peerCount(): number {
    let n = 0;
    for (const r of this.rooms.values()) n += r.room.size;
    return n;
  }
  get(boardId: string): OpenRoom | undefined {
    return this.rooms.get(boardId);
  }
  room(boardId: string): Room | undefined {
    return this.rooms.get(boardId)?.room;
  }
  roomsOwnedBy(userId: number): Room[] {
    const out: Room[] = [];
    for (const { room } of this.rooms.values()) if (room.ownerId === userId) out.push(room);
    return out;
  }

  start(): void {
    const t = this.timers;
    this.handles.push(t.setInterval(() => this.tick(), RT_TICK_MS));
    this.handles.push(t.setInterval(() => void this.persistAll(), this.opts.persistEveryMs ?? 50));
    this.handles.push(
      t.setInterval(
        () => void this.maintain().catch((err) => this.opts.log.error({ err }, 'maintenance failed')),
        Math.min(1000, this.opts.registry.leaseMs / 4),
      ),
    );
  }
  stopTimers(): void {
    for (const h of this.handles) this.timers.clearInterval(h);
    this.handles = [];
  }

  /** S8: the fixed tick is housekeeping only; flushes are scheduled per room when work arrives */
  tick(): void {
    this.sampleLoad();
    for (const r of this.rooms.values()) {
      try {
        r.room.housekeep();
      } catch (err) {
        this.opts.log.error({ err, boardId: r.room.boardId }, 'room tick failed');
      }
    }
  }
  /** event-loop utilisation every ≥ 250 ms: the load the flush gap follows (S8) */
  private sampleLoad(): void {
    const now = performance.now();
    if (this.elu && now - this.elu.at < 250) return;
    const sample = performance.eventLoopUtilization();
    if (this.elu) this.nodeLoad = performance.eventLoopUtilization(sample, this.elu.sample).utilization;
    this.elu = { at: now, sample };
  }

  async persistAll(): Promise<void> {
    await Promise.all([...this.rooms.values()].map((r) => r.room.flushPersist()));
  }

  /** Open (or find) the room of a board on this node, or say which node owns it. */
  open(boardId: string, board: RoomBoard): Promise<OpenResult> {
    const existing = this.rooms.get(boardId);
    if (existing) {
      // B1: a join's access check may be fresher than the room (an event still on its way)
      existing.room.updateBoardInfo({
        title: board.title,
        background: board.background,
        deleteOwnOnly: board.deleteOwnOnly,
      });
      return Promise.resolve({ kind: 'open', room: existing });
    }
    if (this.stopping) return Promise.reject(new Error('node is stopping'));
    let p = this.opening.get(boardId);
    if (!p) {
      const closing = this.closing.get(boardId) ?? Promise.resolve();
      p = closing.then(() => this.load(boardId, board)).finally(() => this.opening.delete(boardId));
      this.opening.set(boardId, p);
    }
    return p;
  }

  private async load(boardId: string, board: RoomBoard): Promise<OpenResult> {
    const { registry, pool, log } = this.opts;
    // what opening took before the load (lease in Redis, claim in PostgreSQL), for the log line
    const t0 = performance.now();
    const route = await registry.route(boardId);
    if (route.kind === 'elsewhere') return { kind: 'elsewhere', nodeId: route.nodeId };
    const token = await registry.acquire(boardId);
    if (token === null) {
      const again = await registry.route(boardId);
      return { kind: 'elsewhere', nodeId: again.kind === 'elsewhere' ? again.nodeId : registry.nodeId };
    }
    const tLease = performance.now();
    // F2: the claim makes every later write of an older token fail in PostgreSQL
    if (!(await claimBoard(pool, boardId, token, registry.nodeId))) {
      await registry.release(boardId, token);
      throw new Error(`board ${boardId}: fencing token ${token} is stale`);
    }
    const tClaim = performance.now();
    const loaded = await loadBoardHandle(pool, this.opts.store, boardId);
    const tLoaded = performance.now();
    const journal = new PgRoomJournal(pool, boardId, token, loaded);
    const now = this.opts.clock.now();
    const t = this.timers;
    const { now: hrNow, load, ...policy } = this.opts.flush ?? {};
    const scheduler = new FlushScheduler({
      flush: (mode) => {
        try {
          open.room.flush(mode);
        } catch (err) {
          // from a timer: an exception here would end the process (and every other room)
          this.opts.log.error({ err, boardId }, 'room flush failed');
        }
      },
      persist: () => void open.room.flushPersist(),
      // injected timers may fake only the intervals: the rest are real ones then
      timers: {
        setImmediate: (fn) => (t.setImmediate ? t.setImmediate(fn) : realFlushTimers.setImmediate(fn)),
        clearImmediate: (h) => (t.clearImmediate ? t.clearImmediate(h) : realFlushTimers.clearImmediate(h)),
        setTimeout: (fn, ms) => (t.setTimeout ? t.setTimeout(fn, ms) : realFlushTimers.setTimeout(fn, ms)),
        clearTimeout: (h) => (t.clearTimeout ? t.clearTimeout(h) : realFlushTimers.clearTimeout(h)),
      },
      now: hrNow,
      load: load ?? (() => this.nodeLoad),
      policy,
    });
    const open: OpenRoom = {
      journal,
      token,
      sessionId: randomUUID(),
      startedAt: now,
      lastSnapshotAt: now,
      // what was loaded was previewed when it was written (or predates previews): only edits count
      previewSeq: loaded.lastSeq,
      lastPreviewAt: now,
      previewing: null,
      room: undefined as unknown as Room,
    };
    open.room = new Room({
      boardId,
      ownerId: board.ownerId,
      deleteOwnOnly: board.deleteOwnOnly,
      title: board.title,
      background: board.background,
      handle: loaded.handle,
      journal,
      clock: this.opts.clock,
      log,
      storedBytes: loaded.storedBytes,
      metrics: this.opts.metrics,
      chat: this.chat,
      chatMetrics: this.opts.chatMetrics,
      plans: this.opts.plans,
      lessonStore: this.lessonStore,
      lessonMetrics: this.opts.lessonMetrics,
      scheduler,
      renders: this.opts.renders,
      events: {
        peerLeft: (peer) => {
          this.opts.sessions?.participantLeft(open, peer, this.opts.clock.now());
          open.minutes?.peersChanged();
        },
        peerJoined: (peer) => open.minutes?.peersChanged(peer),
        fenced: () => {
          if (this.rooms.get(boardId) === open) this.rooms.delete(boardId);
          open.room.dispose();
          this.opts.sessions?.ended(open, this.opts.clock.now());
        },
      },
    });
    if (this.opts.minutes)
      open.minutes = new CollaborationMeter(open.room, open.sessionId, this.opts.clock, this.opts.minutes);
    this.rooms.set(boardId, open);
    this.opts.sessions?.started(open);
    const ms = (a: number, b: number): number => Math.round((b - a) * 10) / 10;
    log.info(
      {
        boardId,
        token,
        lastSeq: loaded.lastSeq,
        tail: loaded.tailChanges,
        openMs: { lease: ms(t0, tLease), claim: ms(tLease, tClaim), room: ms(tLoaded, performance.now()) },
        loadMs: loaded.timings,
      },
      'room opened',
    );
    return { kind: 'open', room: open };
  }

  /** Lease renewal, snapshots, idle eviction (every ≤ 1 s). */
  async maintain(): Promise<void> {
    const now = this.opts.clock.now();
    for (const r of [...this.rooms.values()]) {
      const { boardId } = r.room;
      if (!(await this.opts.registry.renew(boardId, r.token).catch(() => true))) {
        // R5: lease lost (e.g. this process was paused): stop serving; PostgreSQL fences writes
        this.opts.log.warn({ boardId }, 'lease lost: closing room');
        this.rooms.delete(boardId);
        r.room.dispose();
        this.opts.sessions?.ended(r, now);
        continue;
      }
      const j = r.journal;
      const due =
        j.changesSinceSnapshot >= (this.opts.snapshotEveryChanges ?? SNAPSHOT_EVERY_CHANGES) ||
        (j.changesSinceSnapshot > 0 && now - r.lastSnapshotAt >= (this.opts.snapshotEveryMs ?? 60_000));
      if (due) await this.snapshot(r);
      if (now - r.lastPreviewAt >= (this.opts.previewEveryMs ?? 30_000)) this.preview(r);
      if (r.room.size === 0 && now - r.room.lastActivity >= (this.opts.idleMs ?? 30_000)) {
        // H1: only after a final persist succeeded (PostgreSQL down → keep the room, retry later)
        if (await r.room.drain(1)) await this.evict(r, RT_CLOSE.ROOM_MOVED, 'idle');
      }
    }
  }

  private async snapshot(r: OpenRoom): Promise<void> {
    try {
      await r.room.drain();
      await r.journal.snapshot(this.opts.store, r.room.handle);
      r.lastSnapshotAt = this.opts.clock.now();
    } catch (err) {
      this.opts.log.error({ err, boardId: r.room.boardId }, 'snapshot failed');
    }
  }

  /**
   * The board's dashboard preview, when it changed since the last one and none is in progress:
   * the document is saved here (the handle is the event loop's), drawn and encoded in the render
   * worker, stored under previewKey and announced. Never per change: maintain() calls it at most
   * every previewEveryMs, and evict() once more for the last edits.
   */
  preview(r: OpenRoom): void {
    const { renders, previewed, log, store } = this.opts;
    const version = r.journal.lastSeq;
    if (!renders || !previewed || r.previewing || version <= r.previewSeq) return;
    const { boardId } = r.room;
    const started = performance.now();
    const doc = r.room.handle.saveNoCompress();
    r.lastPreviewAt = this.opts.clock.now();
    r.previewing = (async () => {
      const webp = await renders.preview(doc, r.room.boardInfo.background);
      await store.put(previewKey(boardId), webp);
      await previewed(boardId, version);
      r.previewSeq = version;
      log.info(
        { boardId, version, bytes: webp.length, ms: Math.round(performance.now() - started) },
        'board preview made',
      );
    })()
      .catch((err: unknown) => log.warn({ err, boardId }, 'board preview failed'))
      .finally(() => {
        r.previewing = null;
      });
  }

  /** H1: final persist + snapshot, release the lease, tell clients to reconnect. */
  async evict(r: OpenRoom, code: number, reason: string): Promise<void> {
    const { boardId } = r.room;
    if (this.rooms.get(boardId) !== r) return;
    this.rooms.delete(boardId);
    const done = (async () => {
      // persist before closing: a client reconnecting elsewhere must find every change
      const persisted = await r.room.drain();
      if (persisted) await this.snapshot(r);
      // the last edits' preview (saved now, made after the room is gone)
      if (r.previewing) await r.previewing;
      this.preview(r);
      r.room.close(code, reason);
      r.room.dispose();
      await this.opts.registry.release(boardId, r.token).catch(() => undefined);
      this.opts.sessions?.ended(r, this.opts.clock.now());
      this.opts.log.info({ boardId, reason, persisted }, 'room evicted');
    })();
    this.closing.set(boardId, done);
    try {
      await done;
    } finally {
      if (this.closing.get(boardId) === done) this.closing.delete(boardId);
    }
  }

  /** Purged board: close with BOARD_GONE, nothing is persisted any more. */
  dropPurged(boardId: string): void {
    const r = this.rooms.get(boardId);
    if (!r) return;
    this.rooms.delete(boardId);
    r.room.close(RT_CLOSE.BOARD_GONE, 'board deleted');
    r.room.dispose();
    void this.opts.registry.release(boardId, r.token).catch(() => undefined);
    this.opts.sessions?.ended(r, this.opts.clock.now());
  }

  /** SIGTERM: every room persisted and handed over (clients reconnect through the gateway). */
  async shutdown(): Promise<void> {
    this.stopping = true;
    this.stopTimers();
    await Promise.allSettled([...this.opening.values()]);
    await Promise.all([...this.rooms.values()].map((r) => this.evict(r, RT_CLOSE.ROOM_MOVED, 'node stopping')));
  }
}
