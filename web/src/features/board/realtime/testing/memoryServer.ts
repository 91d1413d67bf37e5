/**
 * TEST-ONLY: an in-memory stand-in for a realtime node, enough of services/realtime's room
 * (SPEC J2, S1–S2, S5, P2, D5/D7, E3, B1) to drive BoardClient in unit tests through a Transport:
 * the same genesis change, WELCOME → PRESENCE → SYNC, SYNCED when the peer is caught up,
 * forwarded CHANGES, SAVED acks (held back on demand), ERROR for refused changes, ephemeral
 * batches, BOARD_INFO to every peer when the board's title or settings change (`setBoardInfo`),
 * and the node's change limits (L4: change_too_big).
 */
/// <reference types="node" />
import { gzipSync } from 'node:zlib';
import * as A from '@automerge/automerge/slim';
import {
  BUCKET_NAMES,
  decodeList,
  encodeBytesFrame,
  encodeEphemeralBatch,
  encodeJsonFrame,
  encodeListFrame,
  encodeRenderSnapshot,
  MSG,
  RT_LIMITS,
  splitFrame,
} from '@wb/proto';
import type { BoardInfo, PresenceEntry, RtError, Welcome } from '@wb/proto';
import type { Connection, Transport, TransportHandlers } from '../transport';
import { allShapes, type BoardDoc } from '../boardDoc';

const GENESIS_ACTOR = '00000000000000000000000000000000';

/** L4 as the node counts it: all operations, and those replacing or removing a map value */
function overLimits(change: A.DecodedChange): boolean {
  const ops = change.ops as unknown as { key?: unknown; pred?: readonly unknown[] }[];
  const overwrites = ops.filter((op) => typeof op.key === 'string' && (op.pred?.length ?? 0) > 0).length;
  return ops.length > RT_LIMITS.maxChangeOps || overwrites > RT_LIMITS.maxChangeOverwrites;
}

/** the server's genesis: fixed actor and time, byte-identical to services/realtime's */
export function genesisChange(): Uint8Array {
  const doc = A.change(A.init<Record<string, unknown>>({ actor: GENESIS_ACTOR }), { time: 0 }, (d) => {
    d.schema = new A.Int(1);
    const shapes: Record<string, object> = {};
    for (const b of BUCKET_NAMES) shapes[b] = {};
    d.shapes = shapes;
  });
  return A.getLastLocalChange(doc)!;
}

interface Peer {
  peerId: number;
  userId: number;
  name: string;
  handlers: TransportHandlers;
  syncState: A.SyncState;
  inSync: boolean;
  welcomed: boolean;
  open: boolean;
  /** hashes received and not yet acknowledged (held while autoSave is off) */
  unsaved: string[];
  frames: Uint8Array[];
  frozen?: boolean;
}

export interface MemoryServerOptions {
  role?: Welcome['role'];
  readOnlyReason?: Welcome['readOnlyReason'];
  /** a change (decoded) the server refuses, with the error code */
  refuse?: (change: A.DecodedChange) => RtError['code'] | null;
  /** the board's title, background and deleteOwnOnly at start (default "Board", empty, false) */
  board?: Partial<BoardInfo>;
}

export class MemoryServer {
  doc = A.applyChanges(A.init<Record<string, unknown>>(), [genesisChange()])[0];
  readonly peers: Peer[] = [];
  autoSave = true;
  /** S9: answer a HELLO with `render` with a render snapshot of the DOC it gets */
  renders = false;
  /** accept connections; false: close every new one with this code right after opening */
  refuseWith: number | null = null;
  /** K2: PING frames received */
  pings = 0;
  /**
   * K2: the connections open now freeze (a half-open socket): what they send is taken and nothing
   * reaches them, and nobody closes them. New connections work.
   */
  freeze(): void {
    for (const p of this.livePeers) p.frozen = true;
  }
  private nextPeer = 1;
  /** every CHANGES item received (for "re-sent" assertions) */
  readonly received: string[] = [];
  /** every HELLO, as sent */
  readonly hellos: Array<{ protocol: number; name?: string; fresh?: boolean; render?: boolean }> = [];
  /** what WELCOME says of the board; `setBoardInfo` changes it live */
  board: BoardInfo;

  constructor(private readonly opts: MemoryServerOptions = {}) {
    this.board = { title: 'Board', background: 'empty', deleteOwnOnly: false, ...opts.board };
  }

  /** B1: the owner renamed the board or changed its settings: every welcomed peer is told */
  setBoardInfo(patch: Partial<BoardInfo>): void {
    this.board = { ...this.board, ...patch };
    const frame = encodeJsonFrame(MSG.BOARD_INFO, this.board);
    for (const p of this.livePeers) if (p.welcomed) this.send(p, frame);
  }

  transport(userId: number, name = `User ${userId}`): Transport {
    return {
      connect: (handlers): Connection => {
        const peer: Peer = {
          peerId: this.nextPeer++,
          userId,
          name,
          handlers,
          syncState: A.initSyncState(),
          inSync: false,
          welcomed: false,
          open: true,
          unsaved: [],
          frames: [],
        };
        this.peers.push(peer);
        queueMicrotask(() => {
          if (!peer.open) return;
          handlers.onOpen();
          if (this.refuseWith !== null) this.close(peer, this.refuseWith);
        });
        return {
          send: (frame) => {
            const copy = frame.slice();
            queueMicrotask(() => peer.open && this.receive(peer, copy));
          },
          close: () => {
            peer.open = false;
            this.broadcastPresence();
          },
        };
      },
    };
  }

  get livePeers(): Peer[] {
    return this.peers.filter((p) => p.open);
  }

  /** the server closes a peer's socket with a code (the client sees onClose) */
  close(peer: Peer, code: number, reason = ''): void {
    if (!peer.open) return;
    peer.open = false;
    queueMicrotask(() => peer.handlers.onClose(code, reason));
    this.broadcastPresence();
  }
  /** a frame of the node's own to every open peer (feature frames the tests invent) */
  broadcast(frame: Uint8Array): void {
    for (const p of this.livePeers) this.send(p, frame);
  }
  closeAll(code: number): void {
    for (const p of this.livePeers) this.close(p, code);
  }

  /** acknowledge every held change as saved */
  flushSaves(): void {
    for (const p of this.livePeers) this.ack(p);
  }

  shapeIds(): string[] {
    const shapes = (this.doc as { shapes?: Record<string, Record<string, unknown>> }).shapes ?? {};
    return Object.values(shapes)
      .flatMap((b) => Object.keys(b))
      .sort();
  }

  private send(peer: Peer, frame: Uint8Array): void {
    if (!peer.open || peer.frozen) return;
    peer.frames.push(frame);
    queueMicrotask(() => peer.open && peer.handlers.onFrame(frame));
  }

  private presence(): PresenceEntry[] {
    return this.livePeers
      .filter((p) => p.welcomed)
      .map((p) => ({
        peerId: p.peerId,
        userId: p.userId,
        name: p.name,
        color: '#3366ff',
        role: this.opts.role ?? 'editor',
        guest: p.userId === 0,
      }));
  }
  private broadcastPresence(): void {
    const frame = encodeJsonFrame(MSG.PRESENCE, { presence: this.presence() });
    for (const p of this.livePeers) if (p.welcomed) this.send(p, frame);
  }

  private ack(peer: Peer): void {
    if (!peer.unsaved.length) return;
    this.send(peer, encodeJsonFrame(MSG.SAVED, { hashes: peer.unsaved.splice(0) }));
  }

  private receive(peer: Peer, frame: Uint8Array): void {
    const { type, payload } = splitFrame(frame);
    if (type === MSG.PING) {
      this.pings++;
      if (!peer.frozen) this.send(peer, new Uint8Array([MSG.PONG])); // K2
      return;
    }
    if (peer.frozen) return; // K2: a frozen connection: nothing comes back
    switch (type) {
      case MSG.HELLO: {
        const hello = JSON.parse(new TextDecoder().decode(payload)) as {
          protocol: number;
          name?: string;
          fresh?: boolean;
          render?: boolean;
        };
        if (hello.name) peer.name = hello.name;
        this.hellos.push(hello);
        peer.welcomed = true;
        const welcome: Welcome = {
          protocol: 1,
          peerId: peer.peerId,
          boardId: 'b1',
          title: this.board.title,
          background: this.board.background,
          access: this.opts.role === 'viewer' ? 'view' : 'edit',
          role: this.opts.role ?? 'editor',
          readOnlyReason: this.opts.readOnlyReason ?? null,
          deleteOwnOnly: this.board.deleteOwnOnly,
          ownerId: 1,
          presence: this.presence(),
        };
        this.send(peer, encodeJsonFrame(MSG.WELCOME, welcome));
        this.broadcastPresence();
        // S6: a client with no document gets a whole one first
        if (hello.fresh && hello.render && this.renders) {
          const records = [...allShapes(this.doc as BoardDoc).values()].map((r) => ({ ...r }));
          this.send(peer, encodeBytesFrame(MSG.RENDER, gzipSync(encodeRenderSnapshot(records))));
        }
        if (hello.fresh) this.send(peer, encodeBytesFrame(MSG.DOC, A.save(this.doc)));
        this.pushSync(peer);
        return;
      }
      case MSG.SYNC: {
        const heads = A.getHeads(this.doc);
        const stateCopy = A.decodeSyncState(A.encodeSyncState(peer.syncState));
        const probe = A.receiveSyncMessage(A.clone(this.doc), stateCopy, payload);
        const added = A.getChanges(this.doc, probe[0]).map((c) => A.decodeChange(c));
        if (this.refused(peer, added)) return;
        [this.doc, peer.syncState] = A.receiveSyncMessage(this.doc, peer.syncState, payload);
        this.applied(peer, heads);
        this.pushSync(peer);
        return;
      }
      case MSG.CHANGES: {
        const items = decodeList(payload).map((b) => b.slice());
        const decoded = items.map((b) => A.decodeChange(b));
        for (const c of decoded) this.received.push(c.hash!);
        if (this.refused(peer, decoded)) return;
        // D9: a change the server already has is ignored, and acknowledged as saved
        for (const c of decoded) if (A.hasHeads(this.doc, [c.hash!])) peer.unsaved.push(c.hash!);
        if (this.autoSave) this.ack(peer);
        const heads = A.getHeads(this.doc);
        [this.doc] = A.applyChanges(this.doc, items);
        this.applied(peer, heads);
        return;
      }
      case MSG.EPHEMERAL: {
        const item = { peerId: peer.peerId, kind: payload[0]!, data: payload.subarray(1) };
        const batch = encodeEphemeralBatch([item]);
        for (const p of this.livePeers) if (p !== peer && p.welcomed) this.send(p, batch);
        return;
      }
      default:
        return;
    }
  }

  private refused(peer: Peer, changes: A.DecodedChange[]): boolean {
    const bad = changes
      .map((c) => [c, overLimits(c) ? 'change_too_big' : (this.opts.refuse?.(c) ?? null)] as const)
      .filter(([, code]) => code);
    if (!bad.length) return false;
    const error: RtError = { code: bad[0]![1]!, message: 'refused', hashes: bad.map(([c]) => c.hash!) };
    this.send(peer, encodeJsonFrame(MSG.ERROR, error));
    return true;
  }

  /** after applying a peer's changes: forward them (S5) and acknowledge them (P2) */
  private applied(author: Peer, before: A.Heads): void {
    const fresh = A.getChanges(A.view(this.doc, before), this.doc);
    if (!fresh.length) return;
    for (const c of fresh) author.unsaved.push(A.decodeChange(c).hash!);
    if (this.autoSave) this.ack(author);
    const frame = encodeListFrame(MSG.CHANGES_S, fresh);
    for (const p of this.livePeers) {
      if (p.inSync && p !== author && p.welcomed) this.send(p, frame);
    }
    // the room's tick: after a change, peers still catching up get a sync message (or SYNCED)
    queueMicrotask(() => {
      for (const p of this.livePeers) if (!p.inSync && p.welcomed) this.pushSync(p);
    });
  }

  private pushSync(peer: Peer): void {
    const [state, msg] = A.generateSyncMessage(this.doc, peer.syncState);
    peer.syncState = state;
    if (msg) this.send(peer, encodeBytesFrame(MSG.SYNC_S, msg));
    else if (!peer.inSync) {
      peer.inSync = true;
      this.send(peer, new Uint8Array([MSG.SYNCED]));
    }
  }
}
