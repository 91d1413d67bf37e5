/**
 * A protocol client for tests and benchmarks (and the reference the web client follows): keeps a
 * high-level Automerge document, joins with the sync protocol, sends each committed change as
 * bytes once in sync, and tracks which of its changes are saved (SPEC J*, S*, P2).
 * Transport-agnostic: `attach(send)` on (re)connect, `receive(frame)` for each server frame.
 */
import {
  boardInfoSchema,
  bucketOf,
  packPoints,
  decodeEphemeralBatch,
  decodeJson,
  decodeList,
  decodeRenderSnapshot,
  encodeBytesFrame,
  encodeEphemeral,
  encodeJsonFrame,
  encodeListFrame,
  MSG,
  presenceMsgSchema,
  REALTIME_PROTOCOL_VERSION,
  rtErrorSchema,
  savedSchema,
  splitFrame,
  welcomeSchema,
} from '@wb/proto';
import type { BoardInfo, EphemeralItem, EphemeralKind, PresenceEntry, RenderRecord, RtError, Welcome } from '@wb/proto';
import { gunzipSync } from 'node:zlib';
import { A } from '../doc/automerge';
import type { Doc } from '../doc/automerge';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type BoardDoc = any;

export class TestClient {
  doc: Doc<BoardDoc> = A.init<BoardDoc>();
  private syncState = A.initSyncState();
  private send: ((frame: Uint8Array) => void) | null = null;
  inSync = false;
  welcome: Welcome | null = null;
  presence: PresenceEntry[] = [];
  /** PONG frames received (SPEC K2) */
  pongs = 0;
  /** the board's title, background and deleteOwnOnly: from WELCOME, then BOARD_INFO (B1) */
  boardInfo: BoardInfo | null = null;
  /** every BOARD_INFO received */
  boardInfos: BoardInfo[] = [];
  errors: RtError[] = [];
  ephemeral: EphemeralItem[] = [];
  /** hashes of own changes not yet acknowledged as saved */
  readonly pending = new Map<string, Uint8Array>();
  readonly savedHashes = new Set<string>();
  /** every change this client made (for "nothing was lost" assertions) */
  readonly made: string[] = [];

  constructor(
    readonly userId: number,
    readonly name?: string,
  ) {}

  /** S9: ask for the render snapshot with the catch-up document (the browser does) */
  wantsRender = false;
  /** S9: render snapshots received */
  renders: RenderRecord[][] = [];

  /**
   * A new connection: say hello; the server answers with welcome + sync. A client without a
   * document asks for the catch-up document first (S6) unless `fresh` is false.
   */
  attach(send: (frame: Uint8Array) => void, protocol = REALTIME_PROTOCOL_VERSION, fresh = true): void {
    this.send = send;
    this.inSync = false;
    this.syncState = A.initSyncState();
    const empty = A.getHeads(this.doc).length === 0;
    send(
      encodeJsonFrame(MSG.HELLO, {
        protocol,
        ...(this.name ? { name: this.name } : {}),
        ...(fresh && empty ? { fresh: true, ...(this.wantsRender ? { render: true } : {}) } : {}),
      }),
    );
  }
  detach(): void {
    this.send = null;
    this.inSync = false;
  }

  receive(frame: Uint8Array): void {
    const { type, payload } = splitFrame(frame);
    switch (type) {
      case MSG.WELCOME:
        this.welcome = decodeJson(payload, welcomeSchema);
        this.presence = this.welcome.presence;
        this.boardInfo = {
          title: this.welcome.title,
          background: this.welcome.background,
          deleteOwnOnly: this.welcome.deleteOwnOnly,
        };
        return;
      case MSG.BOARD_INFO:
        this.boardInfo = decodeJson(payload, boardInfoSchema);
        this.boardInfos.push(this.boardInfo);
        return;
      case MSG.DOC:
        // S6: only ever sent before the first SYNC of a connection that said it had nothing
        this.doc = A.load<BoardDoc>(payload.slice());
        return;
      case MSG.SYNC_S: {
        [this.doc, this.syncState] = A.receiveSyncMessage(this.doc, this.syncState, payload.slice());
        this.pushSync();
        return;
      }
      case MSG.SYNCED:
        this.inSync = true;
        // anything the sync exchange may not have carried: the server ignores what it has
        if (this.pending.size) this.send?.(encodeListFrame(MSG.CHANGES, [...this.pending.values()]));
        return;
      case MSG.CHANGES_S:
        [this.doc] = A.applyChanges(
          this.doc,
          decodeList(payload).map((b) => b.slice()),
        );
        return;
      case MSG.SAVED:
        for (const h of decodeJson(payload, savedSchema).hashes) {
          this.pending.delete(h);
          this.savedHashes.add(h);
        }
        return;
      case MSG.PRESENCE:
        this.presence = decodeJson(payload, presenceMsgSchema).presence;
        return;
      case MSG.ERROR:
        this.errors.push(decodeJson(payload, rtErrorSchema));
        return;
      case MSG.EPHEMERAL_BATCH:
        this.ephemeral.push(...decodeEphemeralBatch(payload));
        return;
      case MSG.LESSON_STATE:
      case MSG.LESSON_GATHER_S:
        return; // lesson (SPEC LS1): every joiner gets LESSON_STATE; LessonTestClient reads them
      case MSG.PONG:
        this.pongs++; // K2: the answer to a PING
        return;
      case MSG.RENDER:
        this.renders.push(decodeRenderSnapshot(gunzipSync(payload))); // S9: the DOC that follows, as records
        return;
      default:
        throw new Error(`unknown server message ${type}`);
    }
  }

  private pushSync(): void {
    if (!this.send) return;
    const [state, msg] = A.generateSyncMessage(this.doc, this.syncState);
    this.syncState = state;
    if (msg) this.send(encodeBytesFrame(MSG.SYNC, msg));
  }

  /** One user action = one change (brief fact 5). Returns its hash (null if nothing changed). */
  edit(fn: (d: BoardDoc) => void): string | null {
    this.doc = A.change(this.doc, fn);
    const change = A.getLastLocalChange(this.doc);
    if (!change) return null;
    const hash = A.decodeChange(change).hash;
    if (this.made.includes(hash)) return null;
    this.made.push(hash);
    this.pending.set(hash, change);
    if (this.inSync) this.send?.(encodeListFrame(MSG.CHANGES, [change]));
    else this.pushSync();
    return hash;
  }

  sendEphemeral(kind: EphemeralKind, data: Uint8Array): void {
    this.send?.(encodeEphemeral(kind, data));
  }
  sendRaw(frame: Uint8Array): void {
    this.send?.(frame);
  }

  heads(): string[] {
    return A.getHeads(this.doc).slice().sort();
  }
  /** shape ids currently on the board */
  shapeIds(): string[] {
    const out: string[] = [];
    const shapes = (this.doc as { shapes?: Record<string, Record<string, unknown>> }).shapes ?? {};
    for (const b of Object.values(shapes)) out.push(...Object.keys(b));
    return out.sort();
  }
}

/** A pen stroke record as the web writes it (atomic strings, points as bytes). */
export function penStroke(id: string, creator: number, points: number[], z = 'a0'): Record<string, unknown> {
  return {
    kind: new A.ImmutableString('pen'),
    creator,
    z: new A.ImmutableString(z),
    x: 0,
    y: 0,
    strokeColor: 0,
    strokeWidth: 3,
    points: packPoints(points),
  };
}
/** put a shape in its bucket (SPEC D2) */
export function addShape(d: BoardDoc, id: string, shape: Record<string, unknown>): void {
  d.shapes[bucketOf(id)][id] = shape;
}
export function deleteShape(d: BoardDoc, id: string): void {
  delete d.shapes[bucketOf(id)][id];
}
