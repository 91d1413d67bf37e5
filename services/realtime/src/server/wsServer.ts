/**
 * The node's websocket endpoint (SPEC A*, J*): checks Origin and the signed actor on the upgrade,
 * accepts it (so that refusals reach browsers as close codes), waits for HELLO, asks the boards
 * service for access, opens the room (or redirects to the owner node) and wires frames to it.
 * Each socket of a signed-in user follows its session (A5: closed with 4401 when it ends); its
 * presence name is the signed actor's (A6), only guests choose one in HELLO.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import type { RawData } from 'ws';
import { z } from 'zod';
import {
  AppError,
  boardIdSchema,
  decodeJson,
  FrameError,
  helloSchema,
  MSG,
  REALTIME_ACTOR_HEADER,
  REALTIME_PATH_PREFIX,
  REALTIME_PROTOCOL_VERSION,
  RT_CLOSE,
  RT_HEARTBEAT,
  RT_LIMITS,
  splitFrame,
} from '@wb/proto';
import type { AccessCheckReply, Hello, RequestActor } from '@wb/proto';
import type { Logger } from '@wb/platform';
import type { RoomManager } from '../room/manager';
import type { Clock, Peer, PeerSocket } from '../room/room';
import { verifyActor } from './actor';
import type { SignedActor } from './actor';
import { startHeartbeat } from './heartbeat';
import type { HeartbeatMetrics } from './heartbeat';

/** J7: open guest sockets of one client address in a room */
export function guestsFrom(peers: readonly Peer[], address: string): number {
  return peers.filter((p) => p.identity.guest && !p.closed && p.identity.address === address).length;
}

export interface AccessChecker {
  check(boardId: string, actor: RequestActor): Promise<AccessCheckReply>;
}

export interface WsServerOptions {
  port: number;
  manager: RoomManager;
  access: AccessChecker;
  secret: string;
  allowedOrigins: string[];
  clock: Clock;
  log: Logger;
  /** interface to listen on (env RT_LISTEN_HOST: loopback with the development secret); default all */
  host?: string;
  /** A5: the sessions of the sockets (closed when their session ends) */
  sessions?: SessionTracker;
  /** close a socket that sent no HELLO within this time (default 10 000) */
  helloTimeoutMs?: number;
  /** K1: ping every socket this often, drop one silent for a whole round (env RT_HEARTBEAT_MS; 0: off) */
  heartbeatMs?: number;
  heartbeatMetrics?: HeartbeatMetrics;
}
/** What the server needs of the SessionGuard (./sessions). */
export interface SessionTracker {
  /** null: the session has already ended */
  track(sessionId: string, close: () => void): (() => void) | null;
}

/** A5: the close reason of a socket whose session ended (code 4401, RT_CLOSE.UNAUTHENTICATED) */
export const SESSION_ENDED_REASON = 'session ended';

/**
 * HELLO as the node reads it: a signed-in user's name is ignored (A6), so any string is tolerated
 * there (the web sends the account name, which may be longer than a guest's); a guest's is checked
 * by `guestName`.
 */
const nodeHelloSchema = helloSchema.extend({ name: z.string().max(1000).optional() });

/** C0/C1 controls and the bidirectional embeddings, overrides and isolates (display spoofing) */
// eslint-disable-next-line no-control-regex
const NOT_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** L3/A6: a guest's display name: 1–60 characters after trimming, no control characters. */
export function guestName(name: string | undefined): string | null {
  if (name === undefined) return 'Guest';
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > RT_LIMITS.maxNameLength || NOT_IN_NAMES.test(trimmed)) return null;
  return trimmed;
}
export interface RunningWsServer {
  port: number;
  /** stop accepting upgrades (shutdown: rooms are handed over separately) */
  stopAccepting(): void;
  close(): Promise<void>;
  connections(): number;
}

/** /rt/boards/<id> → id (ids may contain slashes), or null */
export function boardIdFromPath(url: string | undefined): string | null {
  const path = (url ?? '').split('?')[0]!;
  if (!path.startsWith(REALTIME_PATH_PREFIX)) return null;
  let id: string;
  try {
    id = decodeURIComponent(path.slice(REALTIME_PATH_PREFIX.length));
  } catch {
    return null;
  }
  return boardIdSchema.safeParse(id).success ? id : null;
}

function socketAdapter(ws: WebSocket): PeerSocket {
  return {
    send: (frame) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(frame, { binary: true });
    },
    close: (code, reason) => ws.close(code, reason),
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
  };
}

function toBytes(data: RawData): Uint8Array {
  if (Buffer.isBuffer(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  return new Uint8Array(data);
}

export async function startWsServer(opts: WsServerOptions): Promise<RunningWsServer> {
  const { log, manager } = opts;
  // twice the frame limit: frames up to that get the protocol's 4413 from the room (L1); ws itself
  // closes anything larger with 1009 without buffering it
  const wss = new WebSocketServer({ noServer: true, maxPayload: 2 * RT_LIMITS.maxFrameBytes });
  const server = http.createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' });
    res.end('websocket only');
  });
  let accepting = true;
  const heartbeatMs = opts.heartbeatMs ?? RT_HEARTBEAT.serverPingMs;
  const heartbeat =
    heartbeatMs > 0
      ? startHeartbeat({
          intervalMs: heartbeatMs,
          clients: () => wss.clients,
          ...(opts.heartbeatMetrics ? { metrics: opts.heartbeatMetrics } : {}),
          onDrop: () => log.debug('socket silent for a heartbeat round: dropped (K1)'),
        })
      : null;
  /** K2: the answer to a client's PING (the same bytes every time) */
  const pong = new Uint8Array([MSG.PONG]);

  server.on('upgrade', (req, socket, head) => {
    const reject = (status: number, text: string): void => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (!accepting) return reject(503, 'Service Unavailable');
    // A2: browsers always send Origin; only listed origins may open a board
    const origin = req.headers.origin;
    if (origin !== undefined && !opts.allowedOrigins.includes(origin)) return reject(403, 'Forbidden');
    const boardId = boardIdFromPath(req.url);
    if (!boardId) return reject(404, 'Not Found');
    const header = req.headers[REALTIME_ACTOR_HEADER];
    const actor = verifyActor(opts.secret, Array.isArray(header) ? header[0] : header, opts.clock.now());
    wss.handleUpgrade(req, socket, head, (ws) => {
      // A1: refusals after the upgrade so the client sees a close code
      if (!actor) return ws.close(RT_CLOSE.UNAUTHENTICATED, 'unauthenticated');
      handleConnection(ws, boardId, actor);
    });
  });

  function handleConnection(ws: WebSocket, boardId: string, actor: SignedActor): void {
    heartbeat?.watch(ws);
    const early: Uint8Array[] = [];
    let peer: Peer | null = null;
    let room: {
      receive(p: Peer, f: Uint8Array): void;
      leave(p: Peer): void;
      closePeer(p: Peer, c: number, r: string): void;
    } | null = null;
    let helloSeen = false;
    const timer = setTimeout(() => {
      if (!helloSeen) ws.close(RT_CLOSE.JOIN_TIMEOUT, 'no hello');
    }, opts.helloTimeoutMs ?? 10_000);
    // A5: when the session ends, this socket is closed and nothing more is taken from it
    let untrack: (() => void) | null = null;
    if (actor.sessionId && opts.sessions) {
      untrack = opts.sessions.track(actor.sessionId, () => {
        if (peer && room) room.closePeer(peer, RT_CLOSE.UNAUTHENTICATED, SESSION_ENDED_REASON);
        else ws.close(RT_CLOSE.UNAUTHENTICATED, SESSION_ENDED_REASON);
      });
      if (!untrack) {
        clearTimeout(timer);
        return ws.close(RT_CLOSE.UNAUTHENTICATED, SESSION_ENDED_REASON);
      }
    }

    ws.on('message', (data, isBinary) => {
      heartbeat?.heard(ws);
      const frame = toBytes(data);
      if (!isBinary) return ws.close(RT_CLOSE.MALFORMED, 'binary frames only');
      // K2: a client that heard nothing for a while asks; answered at once, whatever the join's state
      if (helloSeen && frame.length === 1 && frame[0] === MSG.PING) return ws.send(pong, { binary: true });
      if (peer && room) return room.receive(peer, frame);
      if (helloSeen) {
        if (early.length > 64) return ws.close(RT_CLOSE.MALFORMED, 'too many frames before welcome');
        early.push(frame);
        return;
      }
      helloSeen = true;
      clearTimeout(timer);
      let hello: Hello;
      try {
        const { type, payload } = splitFrame(frame);
        if (type !== MSG.HELLO) throw new FrameError('expected hello');
        hello = decodeJson(payload, nodeHelloSchema);
      } catch {
        return ws.close(RT_CLOSE.MALFORMED, 'malformed hello');
      }
      // J1: an incompatible client must reload
      if (hello.protocol !== REALTIME_PROTOCOL_VERSION) return ws.close(RT_CLOSE.PROTOCOL_VERSION, 'reload');
      // A6: signed-in users are named by the signed actor; only guests choose (L3)
      const name = actor.userId === 0 ? guestName(hello.name) : (actor.name ?? `User ${actor.userId}`);
      if (name === null) return ws.close(RT_CLOSE.MALFORMED, 'invalid name');
      void join(hello, name).catch((err: unknown) => {
        log.error({ err, boardId }, 'join failed');
        ws.close(RT_CLOSE.INTERNAL, 'internal error');
      });
    });

    async function join(hello: Hello, name: string): Promise<void> {
      const requestActor: RequestActor = {
        userId: actor.userId,
        ...(actor.sessionId ? { sessionId: actor.sessionId } : {}),
      };
      let reply: AccessCheckReply;
      try {
        reply = await opts.access.check(boardId, requestActor);
      } catch (err) {
        if (err instanceof AppError && err.code === 'ERR_BOARD_NOT_FOUND')
          return ws.close(RT_CLOSE.NOT_FOUND, 'not found');
        if (err instanceof AppError && err.code === 'ERR_FORBIDDEN') return ws.close(RT_CLOSE.RESTRICTED, 'restricted');
        throw err;
      }
      // J3: no access → lock screen "restricted"
      log.debug({ boardId, userId: actor.userId, access: reply.access }, 'join');
      if (reply.access === 'none') return ws.close(RT_CLOSE.RESTRICTED, 'restricted');
      if (ws.readyState !== WebSocket.OPEN) return;
      const opened = await manager.open(boardId, {
        ownerId: reply.board.ownerId,
        deleteOwnOnly: reply.board.deleteOwnOnly,
        title: reply.board.title,
        background: reply.board.background,
      });
      if (opened.kind === 'elsewhere') {
        // R3: not the owner: the gateway/client reconnects (the gateway reads the owner from Redis)
        return ws.close(RT_CLOSE.WRONG_NODE, JSON.stringify({ node: opened.nodeId }));
      }
      if (ws.readyState !== WebSocket.OPEN) return;
      const guest = actor.userId === 0;
      const r = opened.room.room;
      if (r.closed) return ws.close(RT_CLOSE.ROOM_MOVED, 'room moved');
      // J7: guests have no identity beyond the socket: cap their sockets per client address
      if (guest && actor.ip !== undefined && guestsFrom(r.peerList(), actor.ip) >= RT_LIMITS.guestSocketsPerAddress) {
        log.info({ boardId, limit: RT_LIMITS.guestSocketsPerAddress }, 'guest refused: too many from one address (J7)');
        return ws.close(RT_CLOSE.GUEST_LIMIT, 'too many guests from this address');
      }
      const p = r.join(
        socketAdapter(ws),
        {
          userId: actor.userId,
          name,
          guest,
          access: reply.access,
          readOnlyReason: reply.readOnlyReason,
          ...(actor.ip !== undefined ? { address: actor.ip } : {}),
        },
        { fresh: hello.fresh === true, render: hello.render === true },
      );
      peer = p;
      room = r;
      for (const f of early.splice(0)) r.receive(p, f);
    }

    ws.on('close', () => {
      clearTimeout(timer);
      untrack?.();
      if (peer && room) room.leave(peer);
    });
    ws.on('error', (err) => {
      // ws closes the socket itself (1009 too big, 1002 bad frame); 'close' then leaves the room
      log.debug({ err, boardId }, 'socket error');
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const listening = (): void => {
      server.off('error', reject);
      resolve();
    };
    if (opts.host) server.listen(opts.port, opts.host, listening);
    else server.listen(opts.port, listening);
  });
  const { port, address } = server.address() as AddressInfo;
  log.info({ port, address }, `realtime websocket server listening on ${address} port ${port}`);
  return {
    port,
    stopAccepting() {
      accepting = false;
    },
    connections: () => wss.clients.size,
    close: () =>
      new Promise<void>((resolve) => {
        accepting = false;
        heartbeat?.stop();
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
