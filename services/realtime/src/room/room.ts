/**
 * One board room on its owner node (SPEC J*, S*, E*, P*, D*). The server keeps the raw Automerge
 * handle; a joining peer catches up with the sync protocol; once in sync it gets the change bytes
 * other peers commit, batched per tick (one encode, N sends — no per-peer sync computation).
 * Ephemeral messages are coalesced per peer per tick and are the first thing dropped under
 * back-pressure. Persistence is delegated to a `RoomJournal`. With a scheduler (the node's) work
 * is flushed when it arrives and the journal is appended at once (S8, P1); `housekeep()` runs on a
 * fixed tick for what is time-driven only. Tests without one call `tick()` and `flushPersist()`.
 */
import { createHash } from 'node:crypto';
import {
  AVATAR_COLORS,
  avatarColor,
  decodeJson,
  decodeList,
  encodeBytesFrame,
  encodeEphemeralBatch,
  encodeJsonFrame,
  encodeListFrame,
  EPHEMERAL_KIND,
  EPHEMERAL_KINDS,
  FrameError,
  MSG,
  REALTIME_PROTOCOL_VERSION,
  RT_CLOSE,
  RT_LIMITS,
  splitFrame,
  visibilitySchema,
} from '@wb/proto';
import type {
  BoardAccess,
  BoardBackground,
  BoardInfo,
  EphemeralItem,
  PresenceEntry,
  READ_ONLY_REASONS,
  RtError,
  Welcome,
} from '@wb/proto';
import type { Logger } from '@wb/platform';
import { A, decodeChange, decodeSyncMessage, expandSyncChanges, layoutOf, newSyncState } from '../doc/automerge';
import type { DocLayout, Handle, RawSyncState } from '../doc/automerge';

import { checkChange } from '../doc/checks';
import type { ChatStore } from '../repositories/chat';
import type { ChatMetrics } from '../chatMetrics';
import { RoomChat } from './chat';
import { RoomLesson } from './lesson';
import type { LessonMetrics } from './lesson';
import type { LessonStore } from '../repositories/lesson';
import type { PlanSource } from '@wb/platform';
import type { RoomMetrics } from '../metrics';
import type { FlushMode, RoomScheduler } from './flushScheduler';
import type { RenderSnapshotMaker } from '../doc/renderSnapshot';

export interface PeerSocket {
  send(frame: Uint8Array): void;
  close(code: number, reason: string): void;
  /** bytes queued but not yet written (ws.bufferedAmount) */
  readonly bufferedAmount: number;
}
export interface Clock {
  now(): number;
}
export interface PeerIdentity {
  userId: number;
  name: string;
  guest: boolean;
  access: BoardAccess;
  readOnlyReason: (typeof READ_ONLY_REASONS)[number] | null;
  /** the client address the gateway signed (A1): guests are admitted (J7) and rate-limited (C4) per address */
  address?: string;
}
export interface JournalEntry {
  hash: string;
  bytes: Uint8Array;
}
/** Durable storage of committed changes; rejects with `FencedError` when the room lost ownership. */
export interface RoomJournal {
  append(entries: JournalEntry[]): Promise<void>;
}
export class FencedError extends Error {
  constructor(message = 'stale fencing token') {
    super(message);
    this.name = 'FencedError';
  }
}
export interface RoomEvents {
  /** a peer left (or was closed): collaboration-time accounting */
  peerLeft?(peer: Peer): void;
  /** a peer joined: collaboration minutes (src/room/collaboration.ts) */
  peerJoined?(peer: Peer): void;
  /** the room lost ownership (fenced): the manager drops it */
  fenced?(room: Room): void;
}

export interface RoomOptions {
  boardId: string;
  ownerId: number;
  deleteOwnOnly: boolean;
  /** shown by every peer (B1); default '' and 'empty' (tests, benches) */
  title?: string;
  background?: BoardBackground;
  handle: Handle;
  journal: RoomJournal;
  clock: Clock;
  log: Logger;
  events?: RoomEvents;
  /** drop ephemeral frames to a peer whose socket buffers more than this (default 256 KiB) */
  ephemeralDropBytes?: number;
  /** close a peer whose socket buffers more than this even with ephemerals dropped (default 16 MiB) */
  slowConsumerBytes?: number;
  /** bytes of the board already stored (journal + snapshot), for the board size limit */
  storedBytes?: number;
  metrics?: RoomMetrics;
  /** chat storage (SPEC C*); without it chat frames are answered with chat_unavailable */
  chat?: ChatStore;
  chatMetrics?: ChatMetrics;
  /** lesson (SPEC LS*): the owner's plan (timer and presentation are paid features) */
  plans?: PlanSource;
  /** lesson: keeps the timer across a failover (LS9) */
  lessonStore?: LessonStore;
  lessonMetrics?: LessonMetrics;
  /**
   * S8: flushes when work arrives (src/room/flushScheduler.ts) and group-commits the journal.
   * Without one (unit tests) nothing leaves until someone calls tick()/flush()/flushPersist().
   */
  scheduler?: RoomScheduler;
  /** S9: render snapshots of the catch-up DOC (a worker thread); without it no RENDER frames */
  renders?: RenderSnapshotMaker;
}

/**
 * A peer's colour (presence avatar, cursor, selection, laser): a signed-in user's follows from
 * their id (proto avatarColor: the same on every reload and in every tab); a guest has no id and
 * takes one by arrival.
 */
function peerColor(identity: { guest: boolean; userId: number }, peerId: number): string {
  return identity.guest ? AVATAR_COLORS[(peerId - 1) % AVATAR_COLORS.length]! : avatarColor(identity.userId);
}
/** S6: a catch-up document this many changes behind is saved again for the next fresh peer */
const CATCH_UP_MAX_BEHIND = 200;
const MAX_STROKE_DELTAS_PER_TICK = 16;
/**
 * E5: ephemeral kinds only a peer that may edit can mean. Cursors, viewports and the laser
 * pointer are anyone's (a viewing student points at something too): like every kind but STROKE
 * they are state kinds, the latest per peer per tick wins (E1).
 */
const EDITOR_ONLY_EPHEMERALS: ReadonlySet<number> = new Set([EPHEMERAL_KIND.STROKE, EPHEMERAL_KIND.SELECTION]);
/** S7: a sync message unanswered this long is followed by a new one anyway */
const SYNC_REPLY_WAIT_MS = 1000;

export class Peer {
  readonly joinedAt: number;
  hiddenSince: number | null = null;
  hiddenMs = 0;
  inSync = false;
  syncState: RawSyncState = newSyncState();
  /** heads the last sync message was generated at (skip generate when nothing changed) */
  syncDirty = true;
  /** when our last SYNC to this peer left, until the peer answers (S7); null: nothing in flight */
  syncSentAt: number | null = null;
  /** latest state ephemerals by kind; STROKE deltas appended */
  eph = new Map<number, Uint8Array>();
  strokes: Uint8Array[] = [];
  saved: string[] = [];
  closed = false;
  /** LS5: someone else is presenting: this peer follows and may not edit (set by src/room/lesson.ts) */
  lessonReadOnly = false;
  constructor(
    readonly id: number,
    readonly socket: PeerSocket,
    readonly identity: PeerIdentity,
    readonly role: 'owner' | 'editor' | 'viewer',
    readonly color: string,
    now: number,
  ) {
    this.joinedAt = now;
  }
  /** a read-only board (plan limits, used-up minutes) is read-only for its owner too (SPEC A) */
  get canEdit(): boolean {
    return this.role !== 'viewer' && !this.lessonReadOnly && this.identity.readOnlyReason === null;
  }
  presence(): PresenceEntry {
    return {
      peerId: this.id,
      userId: this.identity.userId,
      name: this.identity.name,
      color: this.color,
      role: this.role,
      guest: this.identity.guest,
    };
  }
}

export class Room {
  readonly boardId: string;
  readonly ownerId: number;
  private info: BoardInfo;
  readonly handle: Handle;
  private readonly layout: DocLayout;
  private readonly peers = new Map<number, Peer>();
  private nextPeerId = 1;
  /** changes applied since the last tick, with the peer they came from */
  private outgoing: { bytes: Uint8Array; from: Peer }[] = [];
  private persistQueue: JournalEntry[] = [];
  private persisting: Promise<void> | null = null;
  /** change hash → peers waiting for its saved ack */
  private unsaved = new Map<string, Set<Peer>>();
  private docChanged = false;
  /** changes applied since the room opened (how far behind the catch-up document is) */
  private applied = 0;
  /** S6: a recent whole document for peers that join with none, shared by all of them */
  private catchUp: { frame: Uint8Array; applied: number; render: Uint8Array | null } | null = null;
  private storedBytes: number;
  lastActivity: number;
  closed = false;
  private disposed = false;
  /** distinct participants since the room opened (guests count per connection) */
  readonly participants = new Set<string>();
  /** SPEC C*: the board's chat (src/room/chat.ts) */
  private readonly chat: RoomChat;
  /** SPEC LS*: timer and presentation (src/room/lesson.ts) */
  readonly lesson: RoomLesson;

  constructor(private readonly opts: RoomOptions) {
    this.chat = new RoomChat(this, opts.chat, opts.clock, opts.log, opts.chatMetrics);
    this.boardId = opts.boardId;
    this.ownerId = opts.ownerId;
    this.lesson = new RoomLesson(this, {
      plans: opts.plans,
      store: opts.lessonStore,
      clock: opts.clock,
      log: opts.log,
      metrics: opts.lessonMetrics,
    });
    this.info = { title: opts.title ?? '', background: opts.background ?? 'empty', deleteOwnOnly: opts.deleteOwnOnly };
    this.handle = opts.handle;
    const layout = layoutOf(opts.handle);
    if (!layout) throw new Error(`board ${opts.boardId}: document has no bucketed shapes map`);
    this.layout = layout;
    this.storedBytes = opts.storedBytes ?? 0;
    this.lastActivity = opts.clock.now();
  }

  get size(): number {
    return this.peers.size;
  }
  get deleteOwnOnly(): boolean {
    return this.info.deleteOwnOnly;
  }
  get boardInfo(): BoardInfo {
    return { ...this.info };
  }
  /**
   * B1: the board's title, background or deleteOwnOnly changed (boards events, or a fresher
   * access-check reply at a join): every peer gets the whole info at once, so nobody keeps
   * showing an old title or background until they rejoin. Nothing is sent when nothing changed.
   */
  updateBoardInfo(patch: Partial<BoardInfo>): void {
    const next: BoardInfo = { ...this.info };
    for (const k of ['title', 'background', 'deleteOwnOnly'] as const) {
      if (patch[k] !== undefined) (next as Record<typeof k, unknown>)[k] = patch[k];
    }
    const prev = this.info;
    if (next.title === prev.title && next.background === prev.background && next.deleteOwnOnly === prev.deleteOwnOnly)
      return;
    this.info = next;
    const frame = encodeJsonFrame(MSG.BOARD_INFO, next);
    for (const p of this.peers.values()) p.socket.send(frame);
  }
  get pendingPersist(): number {
    return this.persistQueue.length + (this.persisting ? 1 : 0);
  }
  peerList(): Peer[] {
    return [...this.peers.values()];
  }

  /**
   * J2–J4: welcome + presence, then the server's first sync message; a `fresh` peer (no document
   * yet) first gets the catch-up document (S6).
   */
  join(socket: PeerSocket, identity: PeerIdentity, opts: { fresh?: boolean; render?: boolean } = {}): Peer {
    const role =
      identity.access === 'own'
        ? 'owner'
        : identity.access === 'edit' && identity.readOnlyReason === null
          ? 'editor'
          : 'viewer';
    const id = this.nextPeerId++;
    const peer = new Peer(id, socket, identity, role, peerColor(identity, id), this.opts.clock.now());
    this.peers.set(id, peer);
    this.participants.add(identity.guest ? `g${id}` : `u${identity.userId}`);
    this.lastActivity = this.opts.clock.now();
    const welcome: Welcome = {
      protocol: REALTIME_PROTOCOL_VERSION,
      peerId: id,
      boardId: this.boardId,
      title: this.info.title,
      background: this.info.background,
      access: identity.access,
      role,
      readOnlyReason: identity.readOnlyReason,
      deleteOwnOnly: this.info.deleteOwnOnly,
      ownerId: this.ownerId,
      presence: this.presence(),
    };
    socket.send(encodeJsonFrame(MSG.WELCOME, welcome));
    this.lesson.joined(peer);
    this.broadcastPresence(peer);
    if (opts.fresh) {
      const catchUp = this.catchUpDoc();
      if (opts.render && catchUp.render) socket.send(catchUp.render);
      socket.send(catchUp.frame);
    }
    this.sendSync(peer);
    this.opts.events?.peerJoined?.(peer);
    return peer;
  }

  /**
   * S6: without it, the sync protocol answers a peer that has nothing with a whole-document save()
   * computed for that peer alone (~0.6 s of this node's event loop for 20,000 strokes, per
   * joining student). One uncompressed save is shared by every fresh peer until it falls
   * CATCH_UP_MAX_BEHIND changes behind; the sync that follows sends only what it lacks.
   * S9: each new one is also rendered to plain records in the worker, for the fresh peers that
   * join after it is ready (the first joiner of a new catch-up goes without).
   */
  private catchUpDoc(): { frame: Uint8Array; render: Uint8Array | null } {
    if (!this.catchUp || this.applied - this.catchUp.applied > CATCH_UP_MAX_BEHIND) {
      const saved = this.handle.saveNoCompress();
      const catchUp = {
        frame: encodeBytesFrame(MSG.DOC, saved),
        applied: this.applied,
        render: null as Uint8Array | null,
      };
      this.catchUp = catchUp;
      this.opts.renders?.render(saved).then(
        (payload) => {
          catchUp.render = encodeBytesFrame(MSG.RENDER, payload);
          this.opts.log.debug({ boardId: this.boardId, bytes: payload.length }, 'render snapshot made');
        },
        (err: unknown) => this.opts.log.warn({ err, boardId: this.boardId }, 'render snapshot failed'),
      );
    }
    return this.catchUp;
  }

  leave(peer: Peer): void {
    if (!this.peers.delete(peer.id)) return;
    peer.closed = true;
    const now = this.opts.clock.now();
    if (peer.hiddenSince !== null) peer.hiddenMs += now - peer.hiddenSince;
    peer.hiddenSince = null;
    for (const waiting of this.unsaved.values()) waiting.delete(peer);
    peer.syncState.free(); // wasm memory: not collected by the JS GC
    this.lastActivity = now;
    this.broadcastPresence();
    this.lesson.left(peer);
    this.opts.events?.peerLeft?.(peer);
  }

  /** Close one peer with a code (its own fault or a policy decision); others are unaffected (L5). */
  closePeer(peer: Peer, code: number, reason: string): void {
    if (peer.closed) return;
    this.leave(peer);
    try {
      peer.socket.close(code, reason.slice(0, 120));
    } catch (err) {
      this.opts.log.debug({ err }, 'close failed');
    }
  }

  /** One frame from a peer. A malformed or oversized frame closes that peer only (L1, L5). */
  receive(peer: Peer, frame: Uint8Array): void {
    if (peer.closed) return;
    if (frame.length > RT_LIMITS.maxFrameBytes) return this.closePeer(peer, RT_CLOSE.TOO_LARGE, 'frame too large');
    try {
      const { type, payload } = splitFrame(frame);
      switch (type) {
        case MSG.SYNC:
          return this.onSync(peer, payload);
        case MSG.CHANGES:
          return this.onChanges(peer, decodeList(payload));
        case MSG.EPHEMERAL:
          return this.onEphemeral(peer, payload);
        case MSG.CHAT_SEND:
        case MSG.CHAT_DELETE:
        case MSG.CHAT_HISTORY:
          return this.chat.receive(peer, type, payload);
        case MSG.LESSON_TIMER:
        case MSG.LESSON_PRESENT:
        case MSG.LESSON_GATHER:
          return this.lesson.receive(peer, type, payload);
        case MSG.VISIBILITY: {
          const { hidden } = decodeJson(payload, visibilitySchema);
          const now = this.opts.clock.now();
          if (hidden && peer.hiddenSince === null) peer.hiddenSince = now;
          if (!hidden && peer.hiddenSince !== null) {
            peer.hiddenMs += now - peer.hiddenSince;
            peer.hiddenSince = null;
          }
          return;
        }
        default:
          throw new FrameError(`unexpected message type ${type}`);
      }
    } catch (err) {
      if (err instanceof TooLarge) return this.closePeer(peer, RT_CLOSE.TOO_LARGE, err.message);
      // Automerge reports undecodable bytes as RangeError/Error: all close this socket only (L5)
      const expected = err instanceof FrameError || err instanceof RangeError;
      this.opts.log[expected ? 'info' : 'warn'](
        { err, peer: peer.id, boardId: this.boardId },
        'bad frame: closing that socket',
      );
      return this.closePeer(peer, RT_CLOSE.MALFORMED, 'malformed frame');
    }
  }

  private onSync(peer: Peer, payload: Uint8Array): void {
    peer.syncSentAt = null; // S7: the peer answered
    const msg = decodeSyncMessage(payload);
    if (msg.changes.length > 0) {
      // S3: changes inside sync messages are checked like any other; the rest of the message
      // (heads, need, have) then goes through the sync state without them.
      const stop = this.ingest(peer, expandSyncChanges(this.handle, msg.changes), false);
      if (stop === 'unapplied') {
        // S3: the peer's sync state now counts those changes as sent and would never resend
        // them: a fresh connection (fresh sync states) is the only way forward
        return this.closePeer(peer, RT_CLOSE.INTERNAL, 'resync');
      }
      if (peer.closed) return;
      payload = A.encodeSyncMessage({ ...msg, changes: [] });
    }
    this.handle.receiveSyncMessage(peer.syncState, payload);
    peer.syncDirty = true;
    this.sendSync(peer);
  }

  private onChanges(peer: Peer, changes: Uint8Array[]): void {
    const stop = this.ingest(peer, changes, true);
    if (stop === 'resync') {
      // S4: a change whose dependencies we lack: fall back to the sync protocol for this peer
      peer.inSync = false;
      peer.syncDirty = true;
      this.sendSync(peer);
    }
  }

  /**
   * Check and apply changes one by one. CHANGES frames are in causal order (a gap → 'resync');
   * sync messages may carry changes in any order, so those are applied in passes until no more
   * can be (a leftover → 'unapplied'). Stops at the first refused change.
   */
  private ingest(
    peer: Peer,
    changes: Uint8Array[],
    strictDeps: boolean,
  ): 'resync' | 'refused' | 'unapplied' | undefined {
    let remaining = changes.map((bytes) => {
      if (bytes.length > RT_LIMITS.maxChangeBytes) throw new TooLarge('change too large');
      return { bytes, change: decodeChange(bytes) };
    });
    // L4: refused before anything is read or applied (Automerge's apply of many overwrites on a
    // big board stalls the node for seconds); the author splits the edit into several changes
    for (const { change } of remaining) {
      const tooBig = changeTooBig(change);
      if (tooBig && !this.handle.getChangeByHash(change.hash)) {
        this.opts.metrics?.changeRefused('change_too_big');
        this.sendError(peer, { code: 'change_too_big', message: tooBig, hashes: [change.hash] });
        return 'refused';
      }
    }
    while (remaining.length > 0) {
      const later: typeof remaining = [];
      for (const item of remaining) {
        const { bytes, change } = item;
        const waiting = this.unsaved.get(change.hash);
        if (this.handle.getChangeByHash(change.hash)) {
          // duplicate (D9): ack when durable
          if (waiting) waiting.add(peer);
          else {
            peer.saved.push(change.hash);
            this.opts.scheduler?.flushDue();
          }
          continue;
        }
        if (change.deps.some((d) => !this.handle.getChangeByHash(d))) {
          if (strictDeps) return 'resync';
          later.push(item);
          continue;
        }
        const verdict = checkChange(this.handle, this.layout, change, {
          userId: peer.identity.userId,
          canEdit: peer.canEdit,
          isOwner: peer.role === 'owner',
          deleteOwnOnly: this.deleteOwnOnly,
        });
        if (!verdict.ok) {
          this.opts.metrics?.changeRefused(verdict.code);
          this.sendError(peer, { code: verdict.code, message: verdict.message, hashes: [change.hash] });
          return 'refused';
        }
        if (!isIntactChange(bytes, change.hash)) {
          // D12: the document would record (and export, save, sync) these ops under another hash
          // than the one they were checked, journaled and acknowledged under
          this.opts.metrics?.changeRefused('invalid_change');
          this.sendError(peer, {
            code: 'invalid_change',
            message: 'D12: the change bytes are damaged (checksum or hash does not match)',
            hashes: [change.hash],
          });
          return 'refused';
        }
        if (this.storedBytes + bytes.length > RT_LIMITS.maxBoardBytes) {
          this.sendError(peer, { code: 'board_full', message: 'the board is full', hashes: [change.hash] });
          return 'refused';
        }
        this.handle.applyChanges([bytes]);
        this.applied++;
        this.opts.metrics?.changeApplied();
        this.storedBytes += bytes.length;
        this.outgoing.push({ bytes, from: peer });
        this.persistQueue.push({ hash: change.hash, bytes });
        this.unsaved.set(change.hash, new Set([peer]));
        this.docChanged = true;
        this.lastActivity = this.opts.clock.now();
        // S8: forwarded on the next flush; P1: a group commit starts unless one is in flight
        this.opts.scheduler?.flushDue('changes');
        if (!this.persisting) this.opts.scheduler?.persistDue();
      }
      if (later.length === remaining.length) return 'unapplied';
      remaining = later;
    }
    return undefined;
  }

  private onEphemeral(peer: Peer, payload: Uint8Array): void {
    if (payload.length < 1) throw new FrameError('empty ephemeral');
    if (payload.length - 1 > RT_LIMITS.maxEphemeralBytes) throw new TooLarge('ephemeral too large');
    const kind = payload[0]!;
    if (!EPHEMERAL_KINDS.includes(kind)) throw new FrameError('unknown ephemeral kind');
    // E5: a viewer's stroke previews and selections could never be committed: nobody sees them
    if (!peer.canEdit && EDITOR_ONLY_EPHEMERALS.has(kind)) return;
    const data = payload.slice(1);
    // LS7: the presenter's viewport leaves at once, not on the next tick
    if (kind === EPHEMERAL_KIND.VIEWPORT && this.lesson.viewport(peer, data)) return;
    if (kind === EPHEMERAL_KIND.STROKE) {
      // E2: deltas accumulate; beyond the per-tick cap the oldest go (the committed stroke repairs it)
      peer.strokes.push(data);
      if (peer.strokes.length > MAX_STROKE_DELTAS_PER_TICK) peer.strokes.shift();
    } else {
      peer.eph.set(kind, data); // E1: latest wins
    }
    this.opts.scheduler?.flushDue();
  }

  private sendSync(peer: Peer): void {
    if (peer.closed || !peer.syncDirty) return;
    peer.syncDirty = false;
    const msg = this.handle.generateSyncMessage(peer.syncState);
    if (msg) {
      peer.syncSentAt = this.opts.clock.now();
      peer.socket.send(encodeBytesFrame(MSG.SYNC_S, msg));
    } else if (!peer.inSync) {
      // S2: nothing left to send and nothing asked for: from now on the peer gets change bytes
      peer.inSync = true;
      peer.socket.send(Uint8Array.of(MSG.SYNCED));
    }
  }

  private sendError(peer: Peer, error: RtError): void {
    peer.socket.send(encodeJsonFrame(MSG.ERROR, error));
  }

  presence(): PresenceEntry[] {
    return [...this.peers.values()].map((p) => p.presence());
  }
  private broadcastPresence(except?: Peer): void {
    const frame = encodeJsonFrame(MSG.PRESENCE, { presence: this.presence() });
    for (const p of this.peers.values()) if (p !== except) p.socket.send(frame);
  }

  /** Everything at once, as the old fixed tick did: time-driven work, then a flush (tests). */
  tick(): void {
    if (this.closed) return;
    this.lesson.tick();
    this.flush();
  }

  /**
   * S8: the node's fixed tick (RT_TICK_MS) — only what is time-driven: a timer that ran out (LS2),
   * a sync reply that never came (S7), slow consumers (E4). Whatever waits to be flushed is the
   * scheduler's (asked again here should a wake-up have been missed); without one, flushed here.
   */
  housekeep(): void {
    if (this.closed) return;
    this.lesson.tick();
    this.catchUpSync();
    this.closeSlowConsumers();
    if (!this.hasWork()) return;
    if (this.opts.scheduler) this.opts.scheduler.flushDue();
    else this.flush();
  }

  private hasWork(): boolean {
    if (this.outgoing.length > 0 || this.docChanged) return true;
    for (const p of this.peers.values()) if (p.eph.size > 0 || p.strokes.length > 0 || p.saved.length > 0) return true;
    return false;
  }

  /**
   * Forward committed changes (S5), catch-up sync (S7), the ephemeral batch (E1–E4) and saved
   * acks of duplicates, as one flush: called by the scheduler when work arrived (S8) or by tick().
   */
  flush(mode: FlushMode | 'tick' = 'tick'): void {
    if (this.closed) return;
    const started = performance.now();
    const dropAt = this.opts.ephemeralDropBytes ?? 256 * 1024;
    let changes = 0;

    if (this.outgoing.length > 0) {
      const batch = this.outgoing;
      this.outgoing = [];
      changes = batch.length;
      const all = encodeListFrame(
        MSG.CHANGES_S,
        batch.map((b) => b.bytes),
      );
      const authors = new Set(batch.map((b) => b.from));
      for (const p of this.peers.values()) {
        if (!p.inSync) continue;
        // S5: one encode for everyone who authored nothing in this batch
        if (!authors.has(p)) p.socket.send(all);
        else {
          const others = batch.filter((b) => b.from !== p).map((b) => b.bytes);
          if (others.length) p.socket.send(encodeListFrame(MSG.CHANGES_S, others));
        }
      }
    }
    if (this.docChanged) {
      this.docChanged = false;
      for (const p of this.peers.values()) if (!p.inSync) p.syncDirty = true;
    }
    this.catchUpSync();

    const items: EphemeralItem[] = [];
    // the peer all entries are from, if only one (it would get nothing but its own back)
    let only: Peer | null | undefined;
    for (const p of this.peers.values()) {
      if (p.eph.size === 0 && p.strokes.length === 0) continue;
      only = only === undefined ? p : null;
      for (const [kind, data] of p.eph) items.push({ peerId: p.id, kind, data });
      for (const data of p.strokes) items.push({ peerId: p.id, kind: EPHEMERAL_KIND.STROKE, data });
      p.eph.clear();
      p.strokes = [];
    }
    if (items.length > 0) {
      // E3: one frame per flush, the same bytes for every peer (a peer ignores its own entries)
      const frame = encodeEphemeralBatch(items);
      for (const p of this.peers.values()) {
        if (p === only) continue;
        if (p.socket.bufferedAmount > dropAt) {
          this.opts.metrics?.ephemeralDropped(); // E4: ephemerals go first
          continue;
        }
        p.socket.send(frame);
      }
    }
    for (const p of this.peers.values()) {
      if (p.saved.length) {
        p.socket.send(encodeJsonFrame(MSG.SAVED, { hashes: p.saved }));
        p.saved = [];
      }
    }
    this.closeSlowConsumers();
    const costMs = performance.now() - started;
    this.opts.metrics?.flushed(mode, changes, items.length, costMs / 1000);
    this.opts.scheduler?.flushed(costMs, changes);
  }

  /**
   * S7: a peer still catching up gets a new sync message when it has answered the last one
   * (or that one is SYNC_REPLY_WAIT_MS old), not on every flush with changes: each message costs a
   * bloom filter over every change the peer may lack (1.5–5 ms on a 20,000-stroke board), so a
   * slow or stuck client would otherwise cost the node that on every flush
   */
  private catchUpSync(): void {
    const now = this.opts.clock.now();
    for (const p of this.peers.values()) {
      if (!p.inSync && (p.syncSentAt === null || now - p.syncSentAt >= SYNC_REPLY_WAIT_MS)) this.sendSync(p);
    }
  }

  /** E4: a socket that buffers more than slowConsumerBytes even without ephemerals is closed 4429 */
  private closeSlowConsumers(): void {
    const slow = this.opts.slowConsumerBytes ?? 16 * 1024 * 1024;
    for (const p of [...this.peers.values()]) {
      if (p.socket.bufferedAmount > slow) this.closePeer(p, RT_CLOSE.SLOW_CONSUMER, 'slow consumer');
    }
  }

  /** Append what is queued to the journal (P1); ack the authors once it committed (P2). */
  flushPersist(): Promise<void> {
    if (this.persisting) return this.persisting;
    if (this.persistQueue.length === 0) return Promise.resolve();
    const batch = this.persistQueue;
    this.persistQueue = [];
    this.persisting = (async () => {
      let committed = false;
      try {
        const started = performance.now();
        await this.opts.journal.append(batch);
        this.opts.metrics?.journalAppended((performance.now() - started) / 1000, batch.length);
        committed = true;
        for (const { hash } of batch) {
          const waiting = this.unsaved.get(hash);
          this.unsaved.delete(hash);
          if (waiting) for (const p of waiting) if (!p.closed) p.saved.push(hash);
        }
        // acks leave at once rather than on the next flush: "saved" should not wait
        for (const p of this.peers.values()) {
          if (p.saved.length) {
            p.socket.send(encodeJsonFrame(MSG.SAVED, { hashes: p.saved }));
            p.saved = [];
          }
        }
      } catch (err) {
        if (err instanceof FencedError) {
          this.opts.log.warn({ boardId: this.boardId }, 'journal write fenced: room lost ownership');
          this.close(RT_CLOSE.ROOM_MOVED, 'room moved');
          this.opts.events?.fenced?.(this);
          return;
        }
        // P3: keep the batch (order preserved) and retry on the next flush
        this.persistQueue = batch.concat(this.persistQueue);
        this.opts.log.error({ err, boardId: this.boardId }, 'journal append failed; will retry');
      } finally {
        this.persisting = null;
      }
      // P1 group commit: what arrived during this append goes in the next one, right away (a
      // failed append is retried by the node's persist timer instead, not in a tight loop)
      if (committed && this.persistQueue.length > 0 && !this.closed) this.opts.scheduler?.persistDue();
    })();
    return this.persisting;
  }

  /** Persist everything queued (retrying a failed append a few times). */
  async drain(attempts = 5): Promise<boolean> {
    for (let i = 0; i < attempts && !this.closed; i++) {
      await this.flushPersist();
      if (this.persisting) await this.persisting;
      if (this.persistQueue.length === 0) return true;
    }
    return this.persistQueue.length === 0;
  }

  /** Close every peer (shutdown, hand-over, purge); the room is unusable afterwards. */
  close(code: number, reason: string): void {
    if (this.closed) return;
    this.lesson.roomClosing();
    for (const p of [...this.peers.values()]) this.closePeer(p, code, reason);
    this.closed = true;
    this.opts.scheduler?.stop();
  }

  /** Free the document's wasm memory (after close and the last persist). */
  dispose(): void {
    // once: a fenced append and a lost lease can both drop the room; a second free() of the
    // wasm handle throws (from a promise: the whole node would exit)
    if (this.disposed) return;
    this.disposed = true;
    this.close(RT_CLOSE.ROOM_MOVED, 'room closed');
    if (this.persisting) return void this.persisting.finally(() => this.handle.free());
    this.handle.free();
  }
}

class TooLarge extends Error {}

/** where an Automerge chunk's type byte and hashed part start; 1 = an uncompressed change */
const CHUNK_BODY_OFFSET = 8;
const CHANGE_CHUNK = 1;

/**
 * D12: one uncompressed change chunk whose checksum and hash are those of its bytes. Automerge's
 * decoder accepts a damaged chunk (a flipped bit, a wrong checksum) and reports the hash of the
 * bytes as sent, but the document keeps the ops it decoded and later exports (saves, syncs) them
 * re-encoded, under another hash: journal and SAVED acks would then name a change the document
 * does not have. Bytes that are not one intact chunk are refused before anything is applied.
 */
function isIntactChange(bytes: Uint8Array, hash: string): boolean {
  if (bytes.length <= CHUNK_BODY_OFFSET || bytes[CHUNK_BODY_OFFSET] !== CHANGE_CHUNK) return false;
  const digest = createHash('sha256').update(bytes.subarray(CHUNK_BODY_OFFSET)).digest();
  // header: 4 magic bytes, 4 checksum bytes (the first 4 of the hash), then type, length, body
  for (let i = 0; i < 4; i++) if (digest[i] !== bytes[4 + i]) return false;
  return digest.toString('hex') === hash;
}

/**
 * L4: why a decoded change is over the operation limits, or null. Overwrites are map operations
 * with a predecessor (a field of an existing shape written or deleted, a shape deleted); text
 * operations address list elements (no `key`) and are cheap to apply, like new objects.
 */
export function changeTooBig(change: { ops: readonly { key?: unknown; pred?: readonly unknown[] }[] }): string | null {
  const { maxChangeOps, maxChangeOverwrites } = RT_LIMITS;
  if (change.ops.length > maxChangeOps)
    return `a change may hold at most ${maxChangeOps} operations, this one has ${change.ops.length}: split the edit`;
  let overwrites = 0;
  for (const op of change.ops)
    if (typeof op.key === 'string' && op.pred !== undefined && op.pred.length > 0) overwrites++;
  return overwrites > maxChangeOverwrites
    ? `a change may change or delete at most ${maxChangeOverwrites} existing values, this one ${overwrites}: split the edit`
    : null;
}
