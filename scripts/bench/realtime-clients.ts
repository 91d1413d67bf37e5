/**
 * The client process of the realtime benchmark (forked by realtime.ts, so client CPU is not
 * billed to the servers). It runs classroom loads against our realtime nodes or a stock
 * Hocuspocus server and measures, in this one process (one clock):
 *
 * - stroke → visible: the drawing client stamps each committed stroke right before the frame
 *   leaves; every other client stamps the arrival of the frame that carries it, before decoding
 *   anything (ours: the change bytes are forwarded unchanged, so a change is recognised by its
 *   chunk checksum, bytes 4–8; hocuspocus: the update is applied to the client's Y.Doc and the
 *   new key of the shapes map is looked up);
 * - cursor: the send time (performance.now()) travels in the cursor payload (ours: 16 bytes
 *   f64 t, f32 x, f32 y; hocuspocus: the awareness JSON state);
 * - ack: ours, commit → SAVED at the author (sent by the node after the journal transaction
 *   committed: an upper bound of "in PostgreSQL"); hocuspocus, commit → its sync-status ack
 *   (applied in server memory, no persistence configured).
 *
 * Receivers of our protocol join with the protocol client of services/realtime (TestClient:
 * sync catch-up) and from then on only read what is measured: they do not apply CHANGES to a
 * document (no Automerge work per frame) and parse EPHEMERAL_BATCH frames in place.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import type * as YApi from 'yjs' with { 'resolution-mode': 'import' };
import type * as SyncApi from 'y-protocols/sync' with { 'resolution-mode': 'import' };
import type * as EncodingApi from 'lib0/encoding' with { 'resolution-mode': 'import' };
import type * as DecodingApi from 'lib0/decoding' with { 'resolution-mode': 'import' };
import {
  decodeList,
  encodeBytesFrame,
  encodeEphemeral,
  encodeJsonFrame,
  encodeListFrame,
  MSG,
  packPoints,
} from '@wb/proto';
import { A, newHandle, newSyncState } from '@wb/realtime/dist/doc/automerge';
import { signActor } from '@wb/realtime/dist/server/actor';
import { addShape, penStroke, TestClient } from '@wb/realtime/dist/testing/client';
import { connectClient } from '@wb/realtime/dist/testing/wsClient';
import type { WsConnection } from '@wb/realtime/dist/testing/wsClient';
import {
  Samples,
  strokePoints,
  summarize,
  type BigLoadResult,
  type ClassroomLoad,
  type ClientReply,
  type ClientRequest,
  type JoinResult,
  type LoadReport,
  type PooledReport,
  type WbBoardSpec,
} from './realtime-common';

// These packages are ESM-typed but ship CommonJS builds ("require" exports): load those (one yjs
// instance for y-protocols and us) and type them with the ESM declarations.
/* eslint-disable @typescript-eslint/no-require-imports */
const Y = require('yjs') as typeof YApi;
const syncProtocol = require('y-protocols/sync') as typeof SyncApi;
const encoding = require('lib0/encoding') as typeof EncodingApi;
const decoding = require('lib0/decoding') as typeof DecodingApi;
/* eslint-enable @typescript-eslint/no-require-imports */

const EPHEMERAL_CURSOR = 1;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `p`, or a rejection after `ms` (the timer is cleared either way) */
async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} after ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// measurement state (reset by `mark`)

interface StrokeRec {
  sentAt: number;
  sentWall: number;
  hash: string;
  receivers: number;
  lat: number[];
  ackAt?: number;
}

const state = {
  markAt: performance.now(),
  markCpu: process.cpuUsage(),
  cursorLat: new Samples(),
  cursorsSent: 0,
  /** cursors sent / received by 100 ms bucket of their send time (delivery ratio) */
  cursorSentBy: [] as number[],
  cursorRecvBy: [] as number[],
  strokes: [] as StrokeRec[],
  errors: [] as string[],
};
const eld = monitorEventLoopDelay({ resolution: 5 });
eld.enable();

function mark(): void {
  state.markAt = performance.now();
  state.markCpu = process.cpuUsage();
  state.cursorLat.clear();
  state.cursorsSent = 0;
  state.cursorSentBy = [];
  state.cursorRecvBy = [];
  state.strokes = [];
  state.errors = [];
  eld.reset();
}

interface Pool {
  windows: number;
  visible: Samples;
  visibleAll: Samples;
  ack: Samples;
  cursor: Samples;
  sent: number;
  expected: number;
  delivered: number;
  acked: number;
  cursorsSent: number;
  cursorsReceived: number;
  perCursor: number;
}
const pools = new Map<string, Pool>();
function poolOf(name: string): Pool {
  let p = pools.get(name);
  if (!p) {
    p = {
      windows: 0,
      visible: new Samples(),
      visibleAll: new Samples(),
      ack: new Samples(),
      cursor: new Samples(),
      sent: 0,
      expected: 0,
      delivered: 0,
      acked: 0,
      cursorsSent: 0,
      cursorsReceived: 0,
      perCursor: 1,
    };
    pools.set(name, p);
  }
  return p;
}
function pooled(name: string): PooledReport {
  const p = poolOf(name);
  return {
    windows: p.windows,
    strokes: {
      sent: p.sent,
      expectedDeliveries: p.expected,
      delivered: p.delivered,
      acked: p.acked,
      visible: summarize(p.visible.view()),
      visibleAll: summarize(p.visibleAll.view()),
      ack: summarize(p.ack.view()),
    },
    cursors: {
      latency: summarize(p.cursor.view()),
      deliveredRatio:
        p.cursorsSent > 0 ? Math.round((p.cursorsReceived / (p.cursorsSent * p.perCursor)) * 1000) / 1000 : NaN,
    },
  };
}

function error(msg: string): void {
  if (state.errors.length < 50) state.errors.push(msg);
}

/** a cursor sample: `t` is the send time read from the payload, `now` the frame's arrival */
function cursorSample(t: number, now: number): void {
  if (t < state.markAt) return;
  state.cursorLat.push(now - t);
  const b = Math.floor((t - state.markAt) / 100);
  state.cursorRecvBy[b] = (state.cursorRecvBy[b] ?? 0) + 1;
}

function report(boards: number, clients: number, poolName?: string): LoadReport {
  const now = performance.now();
  const windowMs = now - state.markAt;
  const cpu = process.cpuUsage(state.markCpu);
  const inWindow = state.strokes.filter((s) => s.sentAt >= state.markAt && s.sentAt <= now - 1000);
  const visible: number[] = [];
  const visibleAll: number[] = [];
  const ack: number[] = [];
  let expected = 0;
  let delivered = 0;
  for (const s of inWindow) {
    expected += s.receivers;
    delivered += s.lat.length;
    visible.push(...s.lat);
    if (s.lat.length === s.receivers && s.receivers > 0) visibleAll.push(Math.max(...s.lat));
    if (s.ackAt !== undefined) ack.push(s.ackAt - s.sentAt);
  }
  const perCursor = Math.max(0, clients / Math.max(1, boards) - 1);
  if (poolName) {
    const p = poolOf(poolName);
    p.windows++;
    for (const x of visible) p.visible.push(x);
    for (const x of visibleAll) p.visibleAll.push(x);
    for (const x of ack) p.ack.push(x);
    for (const x of state.cursorLat.view()) p.cursor.push(x);
    p.sent += inWindow.length;
    p.expected += expected;
    p.delivered += delivered;
    p.acked += ack.length;
    p.perCursor = perCursor;
  }
  // delivery of cursors sent up to 500 ms before the end
  const lastBucket = Math.floor((now - 500 - state.markAt) / 100);
  let cursorsSent = 0;
  let cursorsReceived = 0;
  for (let b = 0; b < lastBucket; b++) {
    cursorsSent += state.cursorSentBy[b] ?? 0;
    cursorsReceived += state.cursorRecvBy[b] ?? 0;
  }
  if (poolName) {
    poolOf(poolName).cursorsSent += cursorsSent;
    poolOf(poolName).cursorsReceived += cursorsReceived;
  }
  return {
    windowS: Math.round(windowMs) / 1000,
    boards,
    clients,
    strokes: {
      sent: inWindow.length,
      expectedDeliveries: expected,
      delivered,
      visible: summarize(visible),
      visibleAll: summarize(visibleAll),
      ack: summarize(ack),
      acked: ack.length,
      sentWall: inWindow.map((s) => [s.hash, s.sentWall]),
    },
    cursors: {
      sent: state.cursorsSent,
      deliveredRatio: cursorsSent > 0 ? Math.round((cursorsReceived / (cursorsSent * perCursor)) * 1000) / 1000 : NaN,
      latency: summarize(state.cursorLat.view()),
    },
    errors: [...state.errors],
    client: {
      cpuPercent: Math.round(((cpu.user + cpu.system) / 1000 / windowMs) * 1000) / 10,
      eventLoopDelayP99Ms: Math.round(eld.percentile(99) / 1e4) / 100,
      eventLoopDelayMaxMs: Math.round(eld.max / 1e4) / 100,
    },
  };
}

function sendCursorPayload(): Uint8Array {
  const t = performance.now();
  const data = new Uint8Array(16);
  const dv = new DataView(data.buffer);
  dv.setFloat64(0, t, true);
  dv.setFloat32(8, Math.random() * 1000, true);
  dv.setFloat32(12, Math.random() * 800, true);
  state.cursorsSent++;
  const b = Math.floor((t - state.markAt) / 100);
  if (b >= 0) state.cursorSentBy[b] = (state.cursorSentBy[b] ?? 0) + 1;
  return data;
}

// ---------------------------------------------------------------------------------------------
// our realtime nodes

class WbBoard {
  readonly clients: BenchClient[] = [];
  /** change chunk checksum (bytes 4–8) → stroke */
  readonly byKey = new Map<number, StrokeRec>();
  readonly byHash = new Map<string, StrokeRec>();
  strokeNo = 0;
  constructor(
    readonly spec: WbBoardSpec,
    readonly index: number,
  ) {}
}

class BenchClient extends TestClient {
  conn: WsConnection | null = null;
  timers: NodeJS.Timeout[] = [];
  closing = false;
  welcomeAt = NaN;
  private syncedResolve: (() => void) | null = null;
  readonly synced = new Promise<void>((r) => (this.syncedResolve = r));

  constructor(
    userId: number,
    readonly board: WbBoard,
    readonly drawer: boolean,
  ) {
    super(userId);
  }

  override receive(frame: Uint8Array): void {
    const now = performance.now();
    const type = frame[0];
    if (type === MSG.EPHEMERAL_BATCH) return this.onEphemeral(frame, now);
    if (type === MSG.CHANGES_S && this.inSync && !this.drawer) return this.onChanges(frame, now);
    if (type === MSG.SAVED && this.drawer) {
      const { hashes } = JSON.parse(Buffer.from(frame.buffer, frame.byteOffset + 1, frame.length - 1).toString()) as {
        hashes: string[];
      };
      for (const h of hashes) {
        const rec = this.board.byHash.get(h);
        if (rec && rec.ackAt === undefined) rec.ackAt = now;
      }
    }
    if (type === MSG.WELCOME) this.welcomeAt = now;
    if (type === MSG.ERROR) error(`ERROR frame: ${Buffer.from(frame.subarray(1)).toString()}`);
    super.receive(frame);
    if (type === MSG.SYNCED) this.syncedResolve?.();
  }

  private onChanges(frame: Uint8Array, now: number): void {
    for (const change of decodeList(frame.subarray(1))) {
      const key = new DataView(change.buffer, change.byteOffset, change.byteLength).getUint32(4);
      const rec = this.board.byKey.get(key);
      if (rec) rec.lat.push(now - rec.sentAt);
    }
  }

  /** EPHEMERAL_BATCH: u32 count, per item u32 peerId, u8 kind, u32 length, bytes (read in place) */
  private onEphemeral(frame: Uint8Array, now: number): void {
    const me = this.welcome?.peerId ?? -1;
    const dv = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
    const n = dv.getUint32(1);
    let o = 5;
    for (let i = 0; i < n; i++) {
      const peer = dv.getUint32(o);
      const kind = frame[o + 4];
      const len = dv.getUint32(o + 5);
      if (peer !== me && kind === EPHEMERAL_CURSOR && len === 16) cursorSample(dv.getFloat64(o + 9, true), now);
      o += 9 + len;
    }
  }

  /** one committed stroke (one Automerge change), stamped right before the frame leaves */
  commitStroke(points: number[]): void {
    const b = this.board;
    const id = `s${b.index}-${b.strokeNo++}-${Math.random().toString(36).slice(2, 8)}`;
    this.doc = A.change(this.doc, (d) => addShape(d, id, penStroke(id, this.userId, points, `a${b.strokeNo}`)));
    const change = A.getLastLocalChange(this.doc);
    if (!change) return;
    const hash = A.getHeads(this.doc)[0]!;
    this.pending.set(hash, change);
    const key = new DataView(change.buffer, change.byteOffset, change.byteLength).getUint32(4);
    const frame = encodeListFrame(MSG.CHANGES, [change]);
    const rec: StrokeRec = {
      sentAt: performance.now(),
      sentWall: performance.timeOrigin + performance.now(),
      hash,
      receivers: b.clients.length - 1,
      lat: [],
    };
    b.byKey.set(key, rec);
    b.byHash.set(hash, rec);
    state.strokes.push(rec);
    this.sendRaw(frame);
  }
}

const wbBoards: WbBoard[] = [];
/** raw sockets kept open by wb.bigLoad (closed by closeAll) */
const openSockets: WebSocket[] = [];

const welcomeTimes: number[] = [];

async function joinWb(board: WbBoard, client: BenchClient, secret: string): Promise<number> {
  const t0 = performance.now();
  const conn = await connectClient(board.spec.url, board.spec.boardId, client, { secret, timeoutMs: 20_000 });
  client.conn = conn;
  void conn.closed.then(({ code, reason }) => {
    if (!client.closing) error(`client ${client.userId} of ${board.spec.boardId} closed: ${code} ${reason}`);
  });
  let synced = false;
  const closedEarly = new Promise<never>((_, reject) => {
    void conn.closed.then(({ code, reason }) => {
      if (!synced) reject(new Error(`closed before SYNCED: ${code} ${reason}`));
    });
  });
  closedEarly.catch(() => undefined);
  await within(Promise.race([client.synced, closedEarly]), 30_000, 'no SYNCED');
  synced = true;
  welcomeTimes.push(client.welcomeAt - t0);
  return performance.now() - t0;
}

async function inBatches<T>(items: T[], concurrency: number, fn: (item: T) => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      out.push(await fn(item));
    }
  });
  await Promise.all(workers);
  return out;
}

/** start the drawing and cursor timers of one client (random phases, so sends spread out) */
function startTimers(
  timers: NodeJS.Timeout[],
  load: ClassroomLoad,
  drawer: boolean,
  cursor: () => void,
  stroke: (points: number[]) => void,
): void {
  if (load.cursorHz > 0) {
    const every = 1000 / load.cursorHz;
    const phase = setTimeout(() => timers.push(setInterval(cursor, every)), Math.random() * every);
    timers.push(phase);
  }
  if (drawer && load.strokeRate > 0) {
    const every = 1000 / load.strokeRate;
    const draw = (): void =>
      stroke(strokePoints(load.pointsMin + Math.floor(Math.random() * (load.pointsMax - load.pointsMin + 1))));
    const phase = setTimeout(() => timers.push(setInterval(draw, every)), Math.random() * every);
    timers.push(phase);
  }
}

async function wbOpen(req: Extract<ClientRequest, { cmd: 'wb.open' }>): Promise<JoinResult> {
  const t0 = performance.now();
  const joins: Array<{ board: WbBoard; client: BenchClient }> = [];
  for (const spec of req.boards) {
    const board = new WbBoard(spec, wbBoards.length);
    wbBoards.push(board);
    for (let i = 0; i < req.load.clients; i++) {
      const drawer = i === 0;
      const client = new BenchClient(drawer ? spec.ownerUserId : 10_000 + i, board, drawer);
      board.clients.push(client);
      joins.push({ board, client });
    }
  }
  welcomeTimes.length = 0;
  const times = await inBatches(joins, req.concurrency, ({ board, client }) => joinWb(board, client, req.secret));
  for (const { client } of joins) {
    startTimers(
      client.timers,
      req.load,
      client.drawer,
      () => client.sendRaw(encodeEphemeral(EPHEMERAL_CURSOR, sendCursorPayload())),
      (points) => client.commitStroke(points),
    );
  }
  return {
    clients: joins.length,
    joinMs: summarize(times),
    welcomeMs: summarize(welcomeTimes),
    elapsedMs: Math.round(performance.now() - t0),
  };
}

async function wbConnectMany(req: Extract<ClientRequest, { cmd: 'wb.connectMany' }>): Promise<JoinResult> {
  const t0 = performance.now();
  const joins: Array<{ board: WbBoard; client: BenchClient }> = [];
  for (const spec of req.boards) {
    const board = new WbBoard(spec, wbBoards.length);
    wbBoards.push(board);
    for (let i = 0; i < req.perBoard; i++) {
      const client = new BenchClient(20_000 + i, board, false);
      board.clients.push(client);
      joins.push({ board, client });
    }
  }
  const times = await inBatches(joins, req.concurrency, ({ board, client }) => joinWb(board, client, req.secret));
  return { clients: joins.length, joinMs: summarize(times), elapsedMs: Math.round(performance.now() - t0) };
}

/** Cold join of a big board with a raw-handle client (no materialised document on this side either). */
async function wbBigLoad(req: Extract<ClientRequest, { cmd: 'wb.bigLoad' }>): Promise<BigLoadResult> {
  const ws = new WebSocket(`${req.url}/rt/boards/${encodeURIComponent(req.boardId)}`, {
    headers: { 'x-wb-actor': signActor(req.secret, { userId: req.userId }, Date.now()) },
  });
  ws.binaryType = 'nodebuffer';
  const handle = newHandle();
  const syncState = newSyncState();
  let opened = 0;
  let welcome = NaN;
  let firstSync = NaN;
  let bytes = 0;
  let ok = false;
  try {
    const result = await new Promise<BigLoadResult>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('big board: no SYNCED within 60 s')), 60_000);
      ws.on('open', () => {
        opened = performance.now();
        ws.send(encodeJsonFrame(MSG.HELLO, { protocol: 1 }));
      });
      ws.on('close', (code, reason) => reject(new Error(`big board: closed ${code} ${reason.toString()}`)));
      ws.on('error', reject);
      ws.on('message', (data: Buffer) => {
        const now = performance.now();
        const type = data[0];
        if (type === MSG.WELCOME) welcome = now - opened;
        else if (type === MSG.SYNC_S) {
          if (Number.isNaN(firstSync)) firstSync = now - opened;
          bytes += data.length;
          handle.receiveSyncMessage(syncState, new Uint8Array(data.subarray(1)));
          const msg = handle.generateSyncMessage(syncState);
          if (msg) ws.send(encodeBytesFrame(MSG.SYNC, msg));
        } else if (type === MSG.SYNCED) {
          clearTimeout(timer);
          resolve({ welcomeMs: welcome, firstSyncMs: firstSync, syncedMs: now - opened, syncBytes: bytes });
        }
      });
    });
    ok = true;
    return result;
  } finally {
    ws.removeAllListeners('close');
    ws.removeAllListeners('message');
    ws.on('error', () => undefined);
    syncState.free();
    handle.free();
    // kept open: the node keeps the room (and its memory) until closeAll
    if (ok && req.keepOpen) openSockets.push(ws);
    else ws.close();
  }
}

// ---------------------------------------------------------------------------------------------
// stock Hocuspocus (its wire protocol with y-protocols, one websocket per client like its provider)

const HP = { SYNC: 0, AWARENESS: 1, AUTH: 2, SYNC_REPLY: 4, SYNC_STATUS: 8 } as const;
const AUTH_AUTHENTICATED = 2;
const AUTH_PERMISSION_DENIED = 1;

class HpBoard {
  readonly clients: HpClient[] = [];
  readonly byId = new Map<string, StrokeRec>();
  strokeNo = 0;
  constructor(
    readonly name: string,
    readonly index: number,
  ) {}
}

class HpClient {
  readonly ws: WebSocket;
  readonly doc = new Y.Doc();
  readonly shapes = this.doc.getMap<YApi.Map<unknown>>('shapes');
  timers: NodeJS.Timeout[] = [];
  closing = false;
  private awClock = 0;
  private arrival = 0;
  private pendingStroke: StrokeRec | null = null;
  private readonly ackQueue: StrokeRec[] = [];
  readonly ready: Promise<void>;

  constructor(
    readonly board: HpBoard,
    url: string,
    readonly drawer: boolean,
    readonly userId: number,
  ) {
    this.ws = new WebSocket(url);
    this.ws.binaryType = 'nodebuffer';
    let synced: () => void = () => undefined;
    let failed: (err: Error) => void = () => undefined;
    this.ready = new Promise<void>((res, rej) => {
      synced = res;
      failed = rej;
    });
    this.ready.catch(() => undefined); // awaited later, in join batches
    this.ws.on('open', () => {
      // the provider's handshake: token (none configured on the server), then sync step 1
      const auth = this.header(HP.AUTH);
      encoding.writeVarUint(auth, 0);
      encoding.writeVarString(auth, '');
      this.ws.send(encoding.toUint8Array(auth));
      const step1 = this.header(HP.SYNC);
      syncProtocol.writeSyncStep1(step1, this.doc);
      this.ws.send(encoding.toUint8Array(step1));
    });
    this.ws.on('error', (err) => failed(err));
    this.ws.on('close', (code, reason) => {
      failed(new Error(`closed ${code}`));
      if (!this.closing) error(`hocuspocus client ${userId} closed: ${code} ${reason.toString()}`);
    });
    this.ws.on('message', (data: Buffer) => this.onMessage(data, synced));
    if (drawer) {
      this.doc.on('update', (update: Uint8Array, origin: unknown) => {
        if (origin === this) return; // applied from the server
        const enc = this.header(HP.SYNC);
        syncProtocol.writeUpdate(enc, update);
        const frame = encoding.toUint8Array(enc);
        const rec = this.pendingStroke;
        if (rec) {
          rec.sentAt = performance.now();
          rec.sentWall = performance.timeOrigin + rec.sentAt;
          this.ackQueue.push(rec);
          this.pendingStroke = null;
        }
        this.ws.send(frame);
      });
    } else {
      this.shapes.observe((ev) => {
        for (const [key, change] of ev.changes.keys) {
          if (change.action !== 'add') continue;
          const rec = this.board.byId.get(key);
          if (rec) rec.lat.push(this.arrival - rec.sentAt);
        }
      });
    }
  }

  private header(type: number): EncodingApi.Encoder {
    const enc = encoding.createEncoder();
    encoding.writeVarString(enc, this.board.name);
    encoding.writeVarUint(enc, type);
    return enc;
  }

  private onMessage(data: Buffer, synced: () => void): void {
    const now = performance.now();
    const dec = decoding.createDecoder(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    decoding.readVarString(dec);
    const type = decoding.readVarUint(dec);
    switch (type) {
      case HP.SYNC:
      case HP.SYNC_REPLY: {
        this.arrival = now;
        const enc = this.header(HP.SYNC);
        const empty = encoding.length(enc);
        const kind = syncProtocol.readSyncMessage(dec, enc, this.doc, this);
        if (encoding.length(enc) > empty) this.ws.send(encoding.toUint8Array(enc));
        if (kind === syncProtocol.messageYjsSyncStep2) synced();
        return;
      }
      case HP.AWARENESS: {
        const update = decoding.createDecoder(decoding.readVarUint8Array(dec));
        const n = decoding.readVarUint(update);
        for (let i = 0; i < n; i++) {
          const clientId = decoding.readVarUint(update);
          decoding.readVarUint(update); // clock
          const json = decoding.readVarString(update);
          if (clientId === this.doc.clientID || json === 'null') continue;
          const s = JSON.parse(json) as { cursor?: { t: number } };
          if (s.cursor) cursorSample(s.cursor.t, now);
        }
        return;
      }
      case HP.AUTH: {
        const sub = decoding.readVarUint(dec);
        if (sub === AUTH_PERMISSION_DENIED) error('hocuspocus: permission denied');
        else if (sub !== AUTH_AUTHENTICATED) error(`hocuspocus: auth message ${sub}`);
        return;
      }
      case HP.SYNC_STATUS: {
        // one per update the server applied from this connection, in order
        const rec = this.ackQueue.shift();
        if (rec) rec.ackAt = now;
        return;
      }
      default:
        return;
    }
  }

  sendCursor(): void {
    const c = sendCursorPayload();
    const dv = new DataView(c.buffer);
    const state = JSON.stringify({
      user: { name: `Student ${this.userId}`, color: '#4363d8' },
      cursor: { x: dv.getFloat32(8, true), y: dv.getFloat32(12, true), t: dv.getFloat64(0, true) },
    });
    const inner = encoding.createEncoder();
    encoding.writeVarUint(inner, 1);
    encoding.writeVarUint(inner, this.doc.clientID);
    encoding.writeVarUint(inner, ++this.awClock);
    encoding.writeVarString(inner, state);
    const enc = this.header(HP.AWARENESS);
    encoding.writeVarUint8Array(enc, encoding.toUint8Array(inner));
    this.ws.send(encoding.toUint8Array(enc));
  }

  /** the same stroke record as ours, as a Y.Map (points as bytes) */
  commitStroke(points: number[]): void {
    const b = this.board;
    const id = `s${b.index}-${b.strokeNo++}-${Math.random().toString(36).slice(2, 8)}`;
    const rec: StrokeRec = { sentAt: NaN, sentWall: NaN, hash: id, receivers: b.clients.length - 1, lat: [] };
    b.byId.set(id, rec);
    state.strokes.push(rec);
    const shape = new Y.Map<unknown>(
      Object.entries({
        kind: 'pen',
        creator: this.userId,
        z: `a${b.strokeNo}`,
        x: 0,
        y: 0,
        strokeColor: 0,
        strokeWidth: 3,
        points: packPoints(points),
      }),
    );
    this.pendingStroke = rec;
    this.doc.transact(() => this.shapes.set(id, shape));
  }
}

const hpBoards: HpBoard[] = [];

async function hpOpen(req: Extract<ClientRequest, { cmd: 'hp.open' }>): Promise<JoinResult> {
  const t0 = performance.now();
  const joins: HpClient[] = [];
  for (const name of req.docs) {
    const board = new HpBoard(name, hpBoards.length);
    hpBoards.push(board);
    for (let i = 0; i < req.load.clients; i++) {
      const client = new HpClient(board, req.url, i === 0, i === 0 ? 1 : 10_000 + i);
      board.clients.push(client);
      joins.push(client);
    }
  }
  // constructing a client opens its socket: wait for each in turn, bounded by `concurrency` at a time
  const times = await inBatches(joins, req.concurrency, async (c) => {
    const s = performance.now();
    await within(c.ready, 30_000, 'hocuspocus: no sync');
    return performance.now() - s;
  });
  for (const c of joins) {
    startTimers(
      c.timers,
      req.load,
      c.drawer,
      () => c.sendCursor(),
      (points) => c.commitStroke(points),
    );
  }
  return { clients: joins.length, joinMs: summarize(times), elapsedMs: Math.round(performance.now() - t0) };
}

// ---------------------------------------------------------------------------------------------

function counts(): { boards: number; clients: number } {
  let clients = 0;
  for (const b of wbBoards) clients += b.clients.length;
  for (const b of hpBoards) clients += b.clients.length;
  return { boards: wbBoards.length + hpBoards.length, clients };
}

async function closeAll(): Promise<{ closed: number }> {
  let closed = 0;
  const waits: Array<Promise<unknown>> = [];
  for (const b of wbBoards) {
    for (const c of b.clients) {
      c.closing = true;
      for (const t of c.timers) clearInterval(t);
      if (c.conn) {
        waits.push(c.conn.closed);
        c.conn.close();
        closed++;
      }
    }
  }
  for (const b of hpBoards) {
    for (const c of b.clients) {
      c.closing = true;
      for (const t of c.timers) clearInterval(t);
      waits.push(new Promise((r) => (c.ws.readyState === WebSocket.CLOSED ? r(null) : c.ws.once('close', r))));
      c.ws.close();
      c.doc.destroy();
      closed++;
    }
  }
  for (const ws of openSockets.splice(0)) {
    waits.push(new Promise((r) => (ws.readyState === WebSocket.CLOSED ? r(null) : ws.once('close', r))));
    ws.close();
    closed++;
  }
  await Promise.race([Promise.all(waits), sleep(5000)]);
  wbBoards.length = 0;
  hpBoards.length = 0;
  return { closed };
}

async function handle(req: ClientRequest): Promise<unknown> {
  switch (req.cmd) {
    case 'wb.open':
      return wbOpen(req);
    case 'hp.open':
      return hpOpen(req);
    case 'wb.connectMany':
      return wbConnectMany(req);
    case 'wb.bigLoad':
      return wbBigLoad(req);
    case 'mark':
      mark();
      return null;
    case 'report': {
      const c = counts();
      return report(c.boards, c.clients, req.pool);
    }
    case 'pooled':
      return pooled(req.pool);
    case 'closeAll':
      return closeAll();
  }
}

process.on('message', (msg: { id: number; req: ClientRequest }) => {
  handle(msg.req).then(
    (result) => process.send?.({ id: msg.id, ok: true, result } satisfies ClientReply),
    (err: unknown) =>
      process.send?.({
        id: msg.id,
        ok: false,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      } satisfies ClientReply),
  );
});
process.on('disconnect', () => process.exit(0));
process.send?.({ id: 0, ok: true, result: 'ready' } satisfies ClientReply);
