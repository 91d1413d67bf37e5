/**
 * The browser's realtime board client (protocol logic only, no UI; the reference is
 * services/realtime/src/testing/client.ts): keeps a high-level Automerge document, joins with
 * the sync protocol, sends each committed change once in sync, tracks which of its changes are
 * saved, reconnects after failures and re-sends what the server may lack (SPEC J*, S*, P2, C).
 *
 * Transport and timers are injected, so unit tests run it against an in-memory server.
 */
import * as A from '@automerge/automerge/slim';
import {
  decodeEphemeralBatch,
  decodeList,
  encodeBytesFrame,
  encodeEphemeral,
  encodeJsonFrame,
  encodeListFrame,
  MSG,
  REALTIME_PROTOCOL_VERSION,
  RT_CLOSE,
  RT_HEARTBEAT,
  RT_LIMITS,
  splitFrame,
} from '@wb/proto';
import type { BoardInfo, EphemeralKind, PresenceEntry, RenderRecord, RtError, Welcome } from '@wb/proto';
import { getShape, isReady, touchedShapeIds, type BoardDoc } from './boardDoc';
import { EphemeralOutbox, RemoteEphemeral } from './ephemeral';
import { decodeBoardInfo, decodePresence, decodeRtError, decodeSaved, decodeWelcome } from './messages';
import { renderRecords } from './renderFrame';
import type { ChangeStore } from './changeStore';
import type { Connection, Transport } from './transport';
import { browserTimers, type Timers } from './timers';

/** Lock screens (product spec §2 "board lock screens"). */
export type LockReason =
  'restricted' | 'notFound' | 'readOnlyPlan' | 'reload' | 'error' | 'unauthenticated' | 'guestLimit';
export type ConnectionStatus = 'connecting' | 'syncing' | 'live' | 'reconnecting' | 'locked' | 'stopped';
/** offline: not connected with own changes unsent (kept on this device, K4); reconnecting: nothing unsent */
export type SaveState = 'saved' | 'saving' | 'reconnecting' | 'offline';

/** What the client does after a close code (SPEC close-code table). */
export type CloseAction =
  { kind: 'reconnect'; now: boolean } | { kind: 'lock'; reason: LockReason } | { kind: 'readOnly' };

export function closeAction(code: number): CloseAction {
  switch (code) {
    case RT_CLOSE.WRONG_NODE:
    case RT_CLOSE.ROOM_MOVED:
      return { kind: 'reconnect', now: true };
    case RT_CLOSE.JOIN_TIMEOUT:
    case RT_CLOSE.SLOW_CONSUMER:
    case RT_CLOSE.INTERNAL:
      return { kind: 'reconnect', now: false };
    case RT_CLOSE.RESTRICTED:
      return { kind: 'lock', reason: 'restricted' };
    case RT_CLOSE.NOT_FOUND:
    case RT_CLOSE.BOARD_GONE:
      return { kind: 'lock', reason: 'notFound' };
    case RT_CLOSE.READ_ONLY_PLAN:
      return { kind: 'lock', reason: 'readOnlyPlan' };
    case RT_CLOSE.PROTOCOL_VERSION:
      return { kind: 'lock', reason: 'reload' };
    case RT_CLOSE.MALFORMED:
    case RT_CLOSE.TOO_LARGE:
      return { kind: 'lock', reason: 'error' };
    case RT_CLOSE.UNAUTHENTICATED:
      // no valid session: the session ended (logout, a password change elsewhere: SPEC A5) or the
      // actor header was refused. A reconnect would come back as a guest: lock ("your session has
      // ended", log in again), never a reconnect loop
      return { kind: 'lock', reason: 'unauthenticated' };
    case RT_CLOSE.BOARD_FULL:
      return { kind: 'readOnly' };
    case RT_CLOSE.GUEST_LIMIT:
      // SPEC J7: too many guest sockets from this address on the board; retrying would only be
      // refused again: say so, and offer an account (signed-in people have no such cap)
      return { kind: 'lock', reason: 'guestLimit' };
    default:
      // network loss, gateway 502/503 before the upgrade (1006), server restarts (1001/1012)
      return { kind: 'reconnect', now: false };
  }
}

/** Reconnect delays: 250 ms doubling to 10 s, with ±25 % jitter so a node's clients spread out. */
export function backoffDelay(attempt: number, random: () => number): number {
  const base = Math.min(10_000, 250 * 2 ** Math.max(0, attempt));
  return Math.round(base * (0.75 + random() * 0.5));
}

export interface BoardSnapshot {
  status: ConnectionStatus;
  lock: LockReason | null;
  saveState: SaveState;
  welcome: Welcome | null;
  /**
   * the board's title, background and deleteOwnOnly as they are now: from WELCOME, then every
   * change the owner makes while the board is open (BOARD_INFO, SPEC B1); null before the first
   * WELCOME. Prefer it to `welcome.deleteOwnOnly`, which is the value at join.
   */
  board: BoardInfo | null;
  presence: readonly PresenceEntry[];
  /** the genesis has arrived: the document can be shown and edited (J5) */
  ready: boolean;
  /** viewer role, plan read-only, or board full: tools are disabled */
  readOnly: boolean;
  readOnlyCause: 'viewer' | 'plan' | 'boardFull' | null;
  pending: number;
}

export type DocUpdate = { all: true } | { all: false; ids: ReadonlySet<string> };

/**
 * What one change costs under SPEC L4, counted as the node counts it: every operation
 * (`RT_LIMITS.maxChangeOps`), and the overwrites among them, i.e. operations on a map key that
 * replace or remove a value (`RT_LIMITS.maxChangeOverwrites`): a field of an existing shape
 * written or deleted (a move is 2: x and y), a shape deleted or replaced. Text characters
 * inserted or deleted and the fields of new shapes are operations but not overwrites.
 */
export interface ChangeCost {
  ops: number;
  overwrites: number;
}
/** The L4 cost of committed change bytes (what the node will count). */
export function changeCost(change: Uint8Array): ChangeCost {
  const ops = A.decodeChange(change).ops as unknown as { key?: unknown; pred?: readonly unknown[] }[];
  let overwrites = 0;
  for (const op of ops) if (typeof op.key === 'string' && op.pred !== undefined && op.pred.length > 0) overwrites++;
  return { ops: ops.length, overwrites };
}

export interface BoardClientOptions {
  transport: Transport;
  /** the author's user id (0 for a guest): new shapes carry it as `creator` (SPEC D7) */
  userId: number;
  /** display name sent in HELLO (guests pick one; ≤ 60 characters) */
  name?: string;
  timers?: Timers;
  random?: () => number;
  /**
   * resolves once the Automerge wasm is instantiated (loadAutomerge). Without it the engine is
   * assumed ready. Until then the socket is already open: WELCOME and a render snapshot (S9) are
   * shown, and the frames that need the document wait.
   */
  engine?: Promise<unknown>;
  /**
   * K4: where unsent changes outlive the tab (IndexedDB in the browser: changeStore.ts). Its
   * changes are loaded on start, applied after the first SYNCED and sent like any unsaved change.
   */
  store?: ChangeStore | null;
  /** K1–K3: watch the connection for silence (default on) */
  heartbeat?: boolean;
}

/** S9: how long the DOC waits after a RENDER for a view to paint it (none may be mounted yet) */
const PREVIEW_HOLD_MS = 2000;

/** K2: how often the connection's silence is looked at */
const WATCH_EVERY_MS = 1000;
/** K3: a wake-up probes a live-looking connection only when it has been quiet this long */
const WAKE_QUIET_MS = 1000;
/** K2: the code a connection given up for silence is handled with (as a network loss) */
const RT_CLOSE_SILENT = 1006;
const PING_FRAME = new Uint8Array([MSG.PING]);

/** feature frames kept for listeners that are not there yet (the newest state wins anyway) */
const FEATURE_BACKLOG_MAX = 64;

/** frames that need the Automerge engine (and the ones after them wait with them, in order) */
const NEEDS_ENGINE = new Set<number>([MSG.DOC, MSG.SYNC_S, MSG.CHANGES_S, MSG.SYNCED]);

type Listener<T> = (value: T) => void;

export class BoardClient {
  /** an empty plain object until the engine is ready (it reads as a document with no shapes) */
  doc: A.Doc<BoardDoc> = {} as A.Doc<BoardDoc>;
  private syncState: A.SyncState | null = null;
  private engineReady: boolean;
  /** frames received and not yet handled: waiting for the engine or for a render's paint */
  private inbox: Uint8Array[] = [];
  private holdForPaint = false;
  private previewTimer: unknown = null;
  /** performance.now() of the first WELCOME (benchmarks) */
  welcomeAt: number | null = null;
  /** S9: the render snapshot's records until the document they preview is ready, else null */
  preview: readonly RenderRecord[] | null = null;
  private conn: Connection | null = null;
  /** bumped per connection: events of an old connection are ignored */
  private generation = 0;
  private inSync = false;
  /** the current connection reached SYNCED (K2: the shorter deadline applies from then) */
  private everInSyncHere = false;
  private everLive = false;
  private attempts = 0;
  private reconnectTimer: unknown = null;
  private stopped = false;
  /** own changes not yet acknowledged as saved, in the order they were made */
  readonly pending = new Map<string, Uint8Array>();
  /** own unsaved changes kept across a document drop (D7), applied again after the next sync */
  private carryOver: Uint8Array[] = [];
  /** K2: when the current connection last gave a sign of life (opened, or any frame) */
  private lastHeard = 0;
  private pingedAt = 0;
  /** K3: a probe's deadline (online / focus with a connection that looks live), else null */
  private probeUntil: number | null = null;
  private watchTimer: unknown = null;
  private storeLoaded = false;
  readonly remote = new RemoteEphemeral();
  readonly outbox: EphemeralOutbox;
  private snapshot: BoardSnapshot = {
    status: 'connecting',
    lock: null,
    saveState: 'saved',
    welcome: null,
    board: null,
    presence: [],
    ready: false,
    readOnly: false,
    readOnlyCause: null,
    pending: 0,
  };
  private boardFull = false;
  private lessonReadOnly = false;
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly snapshotListeners = new Set<Listener<BoardSnapshot>>();
  private readonly docListeners = new Set<Listener<DocUpdate>>();
  private readonly errorListeners = new Set<Listener<RtError>>();
  private readonly ephemeralListeners = new Set<Listener<void>>();
  private readonly frameListeners = new Set<Listener<{ type: number; payload: Uint8Array }>>();
  private readonly renderListeners = new Set<Listener<readonly RenderRecord[]>>();
  private readonly featureBacklog: { type: number; payload: Uint8Array }[] = [];

  constructor(private readonly opts: BoardClientOptions) {
    this.timers = opts.timers ?? browserTimers;
    this.random = opts.random ?? Math.random;
    this.outbox = new EphemeralOutbox((kind, bytes) => this.sendEphemeral(kind, bytes), this.timers);
    this.engineReady = !opts.engine;
    this.loadStored();
    if (this.engineReady) this.startEngine();
    else
      opts.engine!.then(
        () => {
          this.startEngine();
          this.drain();
        },
        () => undefined, // the page shows that the editor failed to load
      );
  }

  /** K4: the changes a previous tab left unsent join this one's (after the sync, like D7's carry-over) */
  private loadStored(): void {
    const store = this.opts.store;
    if (!store) {
      this.storeLoaded = true;
      return;
    }
    store.load().then(
      (changes) => {
        this.storeLoaded = true;
        if (this.stopped && this.generation > 0) return;
        const fresh: Uint8Array[] = [];
        for (const bytes of changes) {
          let hash: string;
          try {
            hash = A.decodeChange(bytes).hash;
          } catch {
            continue; // unreadable: nothing to send
          }
          if (this.pending.has(hash)) continue;
          this.pending.set(hash, bytes);
          fresh.push(bytes);
        }
        if (!fresh.length) return;
        this.carryOver.push(...fresh);
        if (this.inSync) this.applyCarryOver();
        this.update({});
      },
      (err: unknown) => {
        this.storeLoaded = true;
        console.warn('board outbox unreadable', err);
      },
    );
  }

  /** apply the carried-over changes (D7, K4) to a ready document and send every unsaved change (S2) */
  private applyCarryOver(): void {
    if (this.carryOver.length && isReady(this.doc)) {
      const before = A.getHeads(this.doc);
      [this.doc] = A.applyChanges(
        this.doc,
        this.carryOver.map((b) => b.slice()),
      );
      this.carryOver = [];
      this.afterRemote(before, true);
      if (this.pending.size) this.sendChanges([...this.pending.values()]);
    }
  }

  /** K4: own changes not yet saved (the page asks before it is left while there are some) */
  hasUnsent(): boolean {
    return this.pending.size > 0 || this.carryOver.length > 0;
  }

  /** the outbox has been read (K4; tests, and nothing to wait for without a store) */
  get outboxLoaded(): boolean {
    return this.storeLoaded;
  }

  private startEngine(): void {
    this.engineReady = true;
    this.doc = A.init<BoardDoc>();
    this.syncState = A.initSyncState();
  }

  get userId(): number {
    return this.opts.userId;
  }

  // ------------------------------------------------------------------------------------------
  // subscriptions (React reads the snapshot with useSyncExternalStore; the canvas the doc events)

  getSnapshot = (): BoardSnapshot => this.snapshot;
  subscribe = (fn: Listener<BoardSnapshot>): (() => void) => {
    this.snapshotListeners.add(fn);
    return () => this.snapshotListeners.delete(fn);
  };
  onDoc(fn: Listener<DocUpdate>): () => void {
    this.docListeners.add(fn);
    return () => this.docListeners.delete(fn);
  }
  onError(fn: Listener<RtError>): () => void {
    this.errorListeners.add(fn);
    return () => this.errorListeners.delete(fn);
  }
  /**
   * server frames the document client does not handle itself (chat and other features). Those
   * that arrived while nothing listened (the client joins before the page mounts: LESSON_STATE
   * comes with WELCOME) reach the listeners registered in the same turn, once that turn ends.
   */
  onFrame(fn: Listener<{ type: number; payload: Uint8Array }>): () => void {
    this.frameListeners.add(fn);
    if (this.featureBacklog.length)
      queueMicrotask(() => {
        const frames = this.featureBacklog.splice(0);
        for (const frame of frames) for (const listener of this.frameListeners) listener(frame);
      });
    return () => this.frameListeners.delete(fn);
  }
  /** lesson (SPEC LS5): someone else presents: tools off until it ends */
  setLessonReadOnly(on: boolean): void {
    if (this.lessonReadOnly === on) return;
    this.lessonReadOnly = on;
    this.update({});
  }
  /** send a feature frame on the current connection; false when there is none (not joined) */
  sendFrame(frame: Uint8Array): boolean {
    if (!this.conn || !this.snapshot.welcome) return false;
    this.conn.send(frame);
    return true;
  }
  /**
   * S9: the shapes of the DOC that is on its way, to paint before that document is loaded (a
   * fresh join only). The document's own update ({all: true}) replaces them once it is.
   */
  onRender(fn: Listener<readonly RenderRecord[]>): () => void {
    this.renderListeners.add(fn);
    return () => this.renderListeners.delete(fn);
  }
  onEphemeral(fn: Listener<void>): () => void {
    this.ephemeralListeners.add(fn);
    return () => this.ephemeralListeners.delete(fn);
  }

  private update(patch: Partial<BoardSnapshot>): void {
    const next = { ...this.snapshot, ...patch };
    const live = next.status === 'live' || next.status === 'syncing';
    next.pending = this.pending.size;
    // K2: cut off with changes unsent is "offline" (they are kept on this device), never "saving"
    next.saveState =
      !live && this.hasUnsent() && (this.everLive || next.status === 'reconnecting')
        ? 'offline'
        : !live && (this.everLive || this.pending.size > 0)
          ? 'reconnecting'
          : this.hasUnsent()
            ? 'saving'
            : 'saved';
    const w = next.welcome;
    next.readOnlyCause = this.boardFull
      ? 'boardFull'
      : w?.readOnlyReason
        ? 'plan'
        : w?.role === 'viewer'
          ? 'viewer'
          : null;
    // lesson (SPEC LS5): following a presenter makes the board read-only without a lock cause
    next.readOnly = next.readOnlyCause !== null || this.lessonReadOnly;
    const prev = this.snapshot;
    if ((Object.keys(next) as (keyof BoardSnapshot)[]).every((k) => prev[k] === next[k])) return;
    this.snapshot = next;
    for (const fn of this.snapshotListeners) fn(next);
  }

  private docChanged(update: DocUpdate): void {
    if (update.all || update.ids.size) for (const fn of this.docListeners) fn(update);
  }

  // ------------------------------------------------------------------------------------------
  // connection lifecycle

  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** leave the board (page closed): no reconnects */
  stop(): void {
    this.stopped = true;
    if (this.reconnectTimer !== null) this.timers.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.stopWatch();
    this.generation++;
    this.conn?.close(1000, 'bye');
    this.conn = null;
    this.inSync = false;
    this.outbox.reset();
    this.update({ status: 'stopped' });
  }

  private connect(): void {
    if (this.stopped) return;
    this.reconnectTimer = null;
    const gen = ++this.generation;
    this.inSync = false;
    this.inbox = [];
    this.releaseHold();
    if (this.engineReady) this.syncState = A.initSyncState();
    this.update({ status: this.everLive ? 'reconnecting' : 'connecting' });
    this.lastHeard = this.timers.now();
    this.pingedAt = 0;
    this.probeUntil = null;
    this.conn = this.opts.transport.connect({
      onOpen: (info) => {
        if (gen !== this.generation) return;
        this.lastHeard = this.timers.now();
        if (info?.greeted) return; // an early socket said it (S9): as this client would, fresh
        // S6: with no document yet, a recent whole one first (shared with every other joiner),
        // and S9: its shapes as plain records before it, to paint while it loads
        const fresh = !this.engineReady || A.getHeads(this.doc).length === 0;
        const hello = {
          protocol: REALTIME_PROTOCOL_VERSION,
          ...(this.opts.name ? { name: this.opts.name } : {}),
          ...(fresh ? { fresh: true, render: true } : {}),
        };
        this.conn?.send(encodeJsonFrame(MSG.HELLO, hello));
      },
      onFrame: (frame) => {
        if (gen !== this.generation) return;
        this.lastHeard = this.timers.now();
        this.probeUntil = null;
        if (frame.length === 1 && frame[0] === MSG.PONG) return; // K2: only a sign of life
        this.inbox.push(frame);
        this.drain();
      },
      onClose: (code) => {
        if (gen !== this.generation) return;
        this.conn = null;
        this.handleClose(code);
      },
    });
    this.startWatch();
  }

  // ------------------------------------------------------------------------------------------
  // heartbeat and network events (SPEC K2, K3)

  private startWatch(): void {
    if (this.opts.heartbeat === false || this.watchTimer !== null) return;
    this.watchTimer = this.timers.setTimeout(() => {
      this.watchTimer = null;
      this.watch();
    }, WATCH_EVERY_MS);
  }

  private stopWatch(): void {
    if (this.watchTimer !== null) this.timers.clearTimeout(this.watchTimer);
    this.watchTimer = null;
  }

  /** K2: a connection silent past its deadline (or a failed K3 probe) is given up and replaced */
  private watch(): void {
    if (!this.conn || this.stopped) return;
    const now = this.timers.now();
    const silent = now - this.lastHeard;
    const deadMs = this.everInSyncHere ? RT_HEARTBEAT.clientDeadMs : RT_HEARTBEAT.clientJoinDeadMs;
    if (silent >= deadMs || (this.probeUntil !== null && now >= this.probeUntil)) {
      this.dropConnection(RT_CLOSE_SILENT);
      return;
    }
    if (silent >= RT_HEARTBEAT.clientIdleMs && this.pingedAt <= this.lastHeard && this.snapshot.welcome) this.ping();
    this.startWatch();
  }

  private ping(): void {
    this.pingedAt = this.timers.now();
    this.conn?.send(PING_FRAME);
  }

  /**
   * K3: the network may be back (the browser's `online`, the tab focused or shown): reconnect at
   * once instead of at the next backoff step; a connection that looks live but has been quiet is
   * asked (PING) and given up when nothing comes back within `clientProbeMs`.
   */
  wake(): void {
    if (this.stopped || this.snapshot.status === 'locked') return;
    if (this.reconnectTimer !== null) {
      this.timers.clearTimeout(this.reconnectTimer);
      this.attempts = 0;
      this.connect();
      return;
    }
    if (!this.conn || !this.snapshot.welcome || this.probeUntil !== null) return;
    const now = this.timers.now();
    if (now - this.lastHeard < WAKE_QUIET_MS) return;
    this.probeUntil = now + RT_HEARTBEAT.clientProbeMs;
    this.ping();
    this.stopWatch();
    this.watchTimer = this.timers.setTimeout(() => {
      this.watchTimer = null;
      this.watch();
    }, RT_HEARTBEAT.clientProbeMs);
  }

  /** K3: the browser lost the network: the socket is useless now (Chromium freezes it) */
  networkLost(): void {
    if (this.stopped || !this.conn || this.snapshot.status === 'locked') return;
    this.dropConnection(RT_CLOSE_SILENT);
  }

  /** S9: a view has painted the render snapshot: the document behind it may load now */
  previewShown(): void {
    if (!this.holdForPaint) return;
    this.releaseHold();
    this.drain();
  }

  private releaseHold(): void {
    this.holdForPaint = false;
    if (this.previewTimer !== null) this.timers.clearTimeout(this.previewTimer);
    this.previewTimer = null;
  }

  /** handle the frames received, in order, until one must wait (engine, a render's paint) */
  private drain(): void {
    while (this.inbox.length && !this.holdForPaint) {
      const frame = this.inbox[0]!;
      if (!this.engineReady && NEEDS_ENGINE.has(frame[0]!)) return;
      this.inbox.shift();
      try {
        this.receive(frame);
      } catch (err) {
        // a frame this client cannot read: start over on a fresh connection
        console.error('realtime frame failed', err);
        this.dropConnection(RT_CLOSE.INTERNAL);
        return;
      }
    }
  }

  private dropConnection(code: number): void {
    this.generation++;
    this.conn?.close(1000, 'client restart');
    this.conn = null;
    this.handleClose(code);
  }

  private handleClose(code: number): void {
    this.inSync = false;
    this.everInSyncHere = false;
    this.probeUntil = null;
    this.stopWatch();
    this.outbox.reset();
    this.remote.clear();
    for (const fn of this.ephemeralListeners) fn();
    if (this.stopped) return;
    const action = closeAction(code);
    if (action.kind === 'lock') {
      this.update({ status: 'locked', lock: action.reason });
      return;
    }
    if (action.kind === 'readOnly') this.boardFull = true;
    const now = action.kind === 'reconnect' && action.now && this.attempts < 3;
    const delay = now ? Math.round(this.random() * 100) : backoffDelay(this.attempts, this.random);
    this.attempts++;
    this.update({ status: 'reconnecting' });
    this.reconnectTimer = this.timers.setTimeout(() => this.connect(), delay);
  }

  // ------------------------------------------------------------------------------------------
  // frames

  private receive(frame: Uint8Array): void {
    const { type, payload } = splitFrame(frame);
    switch (type) {
      case MSG.WELCOME: {
        this.welcomeAt ??= performance.now();
        performance.mark('wb:welcome');
        const welcome = decodeWelcome(payload);
        const { title, background, deleteOwnOnly } = welcome;
        this.update({
          status: 'syncing',
          welcome,
          board: sameBoard(this.snapshot.board, welcome) ? this.snapshot.board : { title, background, deleteOwnOnly },
          presence: welcome.presence,
          lock: null,
        });
        return;
      }
      case MSG.BOARD_INFO: {
        const board = decodeBoardInfo(payload);
        if (!sameBoard(this.snapshot.board, board)) this.update({ board });
        return;
      }
      case MSG.RENDER: {
        if (isReady(this.doc)) return; // the document is here already: nothing to preview
        // loading the DOC behind it blocks this thread (~1.5 s for 20,000 objects): it waits until
        // a view has painted the records (previewShown), or PREVIEW_HOLD_MS without one
        // (counted from here: an inflate that never ends cannot hold the document back)
        this.holdForPaint = true;
        this.previewTimer = this.timers.setTimeout(() => this.previewShown(), PREVIEW_HOLD_MS);
        const gen = this.generation;
        renderRecords(payload).then(
          (records) => {
            if (gen !== this.generation || !this.holdForPaint) return; // too late: the DOC is loading
            performance.mark('wb:render');
            this.preview = records;
            for (const fn of this.renderListeners) fn(records);
          },
          (err: unknown) => {
            console.warn('render snapshot ignored', err); // only a preview: the DOC follows
            if (gen === this.generation) this.previewShown();
          },
        );
        return;
      }
      case MSG.DOC: {
        // S6: only sent before the first SYNC of a connection that said it had nothing
        const before = A.getHeads(this.doc);
        const wasReady = isReady(this.doc);
        performance.mark('wb:doc');
        this.doc = A.load<BoardDoc>(payload.slice());
        performance.mark('wb:doc-loaded');
        this.afterRemote(before, wasReady);
        performance.mark('wb:doc-applied');
        return;
      }
      case MSG.SYNC_S: {
        const before = A.getHeads(this.doc);
        const wasReady = isReady(this.doc);
        [this.doc, this.syncState] = A.receiveSyncMessage(this.doc, this.syncState!, payload.slice());
        this.afterRemote(before, wasReady);
        this.pushSync();
        return;
      }
      case MSG.SYNCED:
        performance.mark('wb:synced');
        this.onSynced();
        return;
      case MSG.CHANGES_S: {
        const before = A.getHeads(this.doc);
        const wasReady = isReady(this.doc);
        [this.doc] = A.applyChanges(
          this.doc,
          decodeList(payload).map((b) => b.slice()),
        );
        this.afterRemote(before, wasReady);
        return;
      }
      case MSG.SAVED: {
        const saved = decodeSaved(payload);
        for (const h of saved) this.pending.delete(h);
        this.opts.store?.remove(saved);
        this.update({});
        return;
      }
      case MSG.PRESENCE: {
        const presence = decodePresence(payload);
        this.remote.prune(new Set(presence.map((p) => p.peerId)), this.timers.now());
        this.update({ presence });
        for (const fn of this.ephemeralListeners) fn();
        return;
      }
      case MSG.ERROR:
        this.onRtError(decodeRtError(payload));
        return;
      case MSG.EPHEMERAL_BATCH: {
        const own = this.snapshot.welcome?.peerId;
        const now = this.timers.now();
        let any = false;
        for (const item of decodeEphemeralBatch(payload)) {
          if (item.peerId === own) continue;
          any = this.remote.apply(item, now) || any;
        }
        // a delta that arrives after its stroke was committed must not leave a preview behind
        if (isReady(this.doc))
          for (const id of this.remote.strokes.keys()) if (getShape(this.doc, id)) this.remote.strokes.delete(id);
        this.remote.prune(new Set(this.snapshot.presence.map((p) => p.peerId)), now);
        if (any) for (const fn of this.ephemeralListeners) fn();
        return;
      }
      default:
        // features outside the document (chat, lesson) read their own frames; others are ignored
        if (this.frameListeners.size === 0) {
          if (this.featureBacklog.length < FEATURE_BACKLOG_MAX) this.featureBacklog.push({ type, payload });
          return;
        }
        for (const fn of this.frameListeners) fn({ type, payload });
        return;
    }
  }

  private onSynced(): void {
    this.inSync = true;
    this.everInSyncHere = true;
    this.attempts = 0;
    this.everLive = true;
    // D7, K4: changes carried over (a dropped document, a previous tab) join the document now
    const carried = this.carryOver.length > 0 && isReady(this.doc);
    this.applyCarryOver();
    // S2: everything of ours not yet saved; the server ignores what it has
    if (!carried && this.pending.size) this.sendChanges([...this.pending.values()]);
    this.update({ status: 'live', ready: isReady(this.doc) });
  }

  private afterRemote(before: A.Heads, wasReady: boolean): void {
    const ready = isReady(this.doc);
    if (ready) this.preview = null;
    if (ready && !wasReady) this.docChanged({ all: true });
    else if (ready) {
      const after = A.getHeads(this.doc);
      if (!sameHeads(before, after)) {
        const ids = touchedShapeIds(A.diff(this.doc, before, after));
        for (const id of ids) if (this.remote.strokeCommitted(id)) for (const fn of this.ephemeralListeners) fn();
        this.docChanged({ all: false, ids });
      }
    }
    if (ready !== this.snapshot.ready) this.update({ ready });
  }

  private onRtError(error: RtError): void {
    if (error.code === 'board_full') this.boardFull = true;
    for (const fn of this.errorListeners) fn(error);
    if (error.hashes?.length) this.dropDocument(error.hashes);
    else this.update({});
  }

  /**
   * D7: the server refused some of our changes: drop the local document and rejoin. Unsaved
   * changes that neither were refused nor depend on a refused one are applied again after the
   * new sync (and re-sent).
   */
  private dropDocument(refusedHashes: readonly string[]): void {
    const refused = new Set(refusedHashes);
    const keep: [string, Uint8Array][] = [];
    for (const [hash, bytes] of this.pending) {
      const { deps } = A.decodeChange(bytes);
      if (refused.has(hash) || deps.some((d) => refused.has(d))) refused.add(hash);
      else keep.push([hash, bytes]);
    }
    this.pending.clear();
    for (const [h, b] of keep) this.pending.set(h, b);
    this.opts.store?.remove(refused);
    this.carryOver = keep.map(([, b]) => b);
    this.doc = A.init<BoardDoc>();
    this.docChanged({ all: true });
    this.update({ ready: false });
    this.attempts = 0;
    this.dropConnection(RT_CLOSE.ROOM_MOVED);
  }

  private pushSync(): void {
    if (!this.conn) return;
    if (!this.engineReady) return; // the first SYNC it answers is sent once the engine is ready
    const [state, msg] = A.generateSyncMessage(this.doc, this.syncState!);
    this.syncState = state;
    if (msg) this.conn.send(encodeBytesFrame(MSG.SYNC, msg));
  }

  private sendChanges(changes: Uint8Array[]): void {
    // several frames when the list would exceed the frame limit (L1)
    let batch: Uint8Array[] = [];
    let size = 5;
    for (const c of changes) {
      if (batch.length && size + 4 + c.length > RT_LIMITS.maxFrameBytes) {
        this.conn?.send(encodeListFrame(MSG.CHANGES, batch));
        batch = [];
        size = 5;
      }
      batch.push(c);
      size += 4 + c.length;
    }
    if (batch.length) this.conn?.send(encodeListFrame(MSG.CHANGES, batch));
  }

  private sendEphemeral(kind: EphemeralKind, bytes: Uint8Array): void {
    if (this.conn && this.snapshot.welcome && this.snapshot.status !== 'locked')
      this.conn.send(encodeEphemeral(kind, bytes));
  }

  /** tab hidden/shown (collaboration insights: hidden minutes) */
  setHidden(hidden: boolean): void {
    if (this.conn && this.snapshot.welcome) this.conn.send(encodeJsonFrame(MSG.VISIBILITY, { hidden }));
  }

  // ------------------------------------------------------------------------------------------
  // editing

  /** the client may change the document now (J4, J5) */
  canEdit(): boolean {
    return this.snapshot.ready && !this.snapshot.readOnly && this.snapshot.status !== 'locked';
  }

  /**
   * One user action = one Automerge change (brief fact 5). Returns its hash, or null when nothing
   * changed or the client may not edit.
   */
  change(fn: (d: BoardDoc) => void): string | null {
    if (!this.canEdit()) return null;
    const before = A.getHeads(this.doc);
    this.doc = A.change(this.doc, fn);
    const change = A.getLastLocalChange(this.doc);
    const after = A.getHeads(this.doc);
    if (!change || sameHeads(before, after)) return null;
    // a local change depends on every head before it, so it is the only head after it (decoding
    // the change for its hash costs ~1 ms on a big board)
    const hash = after.length === 1 ? after[0]! : A.decodeChange(change).hash;
    this.pending.set(hash, change);
    this.opts.store?.put(hash, change); // K4: kept until SAVED, across a closed tab
    if (this.inSync) this.sendChanges([change]);
    else this.pushSync();
    this.docChanged({ all: false, ids: touchedShapeIds(A.diff(this.doc, before, after)) });
    this.update({});
    return hash;
  }

  /**
   * One user action that may be too big for one change (SPEC L4: moving, restyling or deleting
   * many shapes, pasting many) as several changes, each within RT_LIMITS: `fn` is applied to every
   * item, `cost(item)` says what it writes (a move `{ops: 2, overwrites: 2}`, a delete
   * `{ops: 1, overwrites: 1}`, a new shape `{ops: 1 + its fields + text characters, overwrites: 0}`).
   * Returns the hashes of the changes made, in order (empty when nothing changed or the client may
   * not edit); an undo of the action undoes all of them.
   */
  changeInParts<T>(items: readonly T[], cost: (item: T) => ChangeCost, fn: (d: BoardDoc, item: T) => void): string[] {
    const hashes: string[] = [];
    for (const part of partsWithinLimits(items, cost)) {
      const hash = this.change((d) => {
        for (const item of part) fn(d, item);
      });
      if (hash) hashes.push(hash);
    }
    return hashes;
  }
}

/** same info: the snapshot keeps its object (React re-renders only on a real change) */
function sameBoard(a: BoardInfo | null, b: BoardInfo): boolean {
  return a !== null && a.title === b.title && a.background === b.background && a.deleteOwnOnly === b.deleteOwnOnly;
}

/**
 * L4: `items` in groups whose summed cost stays within RT_LIMITS (an item over the limits on its
 * own gets a group of its own: the node will refuse it).
 */
export function partsWithinLimits<T>(items: readonly T[], cost: (item: T) => ChangeCost): T[][] {
  const parts: T[][] = [];
  let part: T[] = [];
  let ops = 0;
  let overwrites = 0;
  for (const item of items) {
    const c = cost(item);
    if (
      part.length &&
      (ops + c.ops > RT_LIMITS.maxChangeOps || overwrites + c.overwrites > RT_LIMITS.maxChangeOverwrites)
    ) {
      parts.push(part);
      part = [];
      ops = 0;
      overwrites = 0;
    }
    part.push(item);
    ops += c.ops;
    overwrites += c.overwrites;
  }
  if (part.length) parts.push(part);
  return parts;
}

function sameHeads(a: A.Heads, b: A.Heads): boolean {
  return a.length === b.length && a.every((h) => b.includes(h));
}
