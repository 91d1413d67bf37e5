/**
 * Websocket upgrades of /rt/boards/<id> → the board's owner realtime node (services/realtime
 * README "What the gateway must do"): resolve the session from the cookie (guests are user 0),
 * find the owner in Redis (lease holder if live, else rendezvous), forward the upgrade with a
 * signed `x-wb-actor` header and pipe the two sockets. Frames are not inspected here: the node
 * validates everything and its close codes reach the browser unchanged.
 *
 * The signed actor carries the session id the auth service revokes sessions by (sha256 of the
 * cookie token, as in `sessions.revoked` broadcasts: realtime SPEC A5) and the account's display
 * name (A6: presence shows it; a signed-in user's HELLO cannot choose another). The session cache
 * holds no names, so the name comes from auth (`users.names`), cached here per user for
 * NAME_CACHE_MS: at most one lookup per user and half minute, not one per upgrade.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { REALTIME_ACTOR_HEADER, REALTIME_PATH_PREFIX, resolveRealtimeOwner, usersNamesOutputSchema } from '@wb/proto';
import type { RealtimeRegistryReader } from '@wb/proto';
import type { Logger } from '@wb/platform';
import { parseCookies } from '../http/cookies';
import type { GatewayBus, ResolvedSession } from '../http/state';

export interface RealtimeUpgradeOptions {
  redis: RealtimeRegistryReader;
  redisPrefix: string;
  /** session cookie name */
  sessionCookie: string;
  resolveSession(token: string): Promise<ResolvedSession | null> | ResolvedSession | null;
  /** HMAC key shared with the realtime nodes (RT_SHARED_SECRET) */
  secret: string;
  /** a node without a heartbeat this long is dead (RT_NODE_TTL_MS of the nodes) */
  nodeTtlMs: number;
  /**
   * the client's address (the socket's, or the trusted proxies' X-Forwarded-For as for HTTP
   * requests): signed into the actor as `ip`, so a browser cannot choose it (realtime SPEC A1, J7, C4)
   */
  clientAddress?(req: IncomingMessage): string | undefined;
  /** asks auth for the display names of signed-in users (`users.names`); without it none is signed */
  bus?: Pick<GatewayBus, 'request'>;
  log: Logger;
  now?: () => number;
}

/** how long a looked-up display name is reused (a rename shows in new connections after this) */
export const NAME_CACHE_MS = 30_000;
const NAME_CACHE_MAX = 10_000;
/** a name lookup never holds an upgrade longer than this (the node then shows a neutral name) */
const NAME_LOOKUP_TIMEOUT_MS = 1000;

/** base64url(JSON) "." base64url(HMAC-SHA256(secret, first part)) — realtime SPEC A1. */
export function signRealtimeActor(
  secret: string,
  actor: { userId: number; sessionId?: string; name?: string; ip?: string },
  now: number,
  ttlMs = 60_000,
): string {
  const body = Buffer.from(JSON.stringify({ ...actor, exp: now + ttlMs })).toString('base64url');
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

const HOP_HEADERS = new Set(['cookie', 'host', REALTIME_ACTOR_HEADER]);

function refuse(socket: Duplex, status: number, text: string): void {
  if (socket.writable) socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  else socket.destroy();
}

export function realtimeUpgradeHandler(
  opts: RealtimeUpgradeOptions,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const now = opts.now ?? Date.now;
  const names = new Map<number, { at: number; name: Promise<string | undefined> }>();

  /** the account's display name (A6), shared by concurrent upgrades of one user; undefined if unknown */
  function nameOf(session: ResolvedSession): Promise<string | undefined> {
    const bus = opts.bus;
    if (!bus) return Promise.resolve(undefined);
    const t = now();
    const cached = names.get(session.userId);
    if (cached && t - cached.at < NAME_CACHE_MS) return cached.name;
    const name = bus
      .request(
        'auth',
        'users.names',
        { ids: [session.userId] },
        { userId: session.userId, sessionId: session.sessionId },
        { timeoutMs: NAME_LOOKUP_TIMEOUT_MS },
      )
      .then((reply) => usersNamesOutputSchema.parse(reply.data)[String(session.userId)]?.slice(0, 200))
      .catch((err: unknown) => {
        opts.log.warn({ err, userId: session.userId }, 'display name lookup failed');
        names.delete(session.userId); // not cached: the next upgrade asks again
        return undefined;
      });
    if (names.size >= NAME_CACHE_MAX) names.delete(names.keys().next().value!);
    names.set(session.userId, { at: t, name });
    return name;
  }

  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    if (!(req.url ?? '').startsWith(REALTIME_PATH_PREFIX)) return refuse(socket, 404, 'Not Found');
    void forward(req, socket, head).catch((err: unknown) => {
      opts.log.warn({ err }, 'realtime upgrade failed');
      refuse(socket, 503, 'Service Unavailable');
    });
  };

  async function forward(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const token = parseCookies(req.headers.cookie)[opts.sessionCookie];
    const session = token ? await opts.resolveSession(token) : null;
    const path = (req.url ?? '').split('?')[0]!;
    let boardId: string;
    try {
      boardId = decodeURIComponent(path.slice(REALTIME_PATH_PREFIX.length));
    } catch {
      return refuse(socket, 404, 'Not Found');
    }
    const [owner, name] = await Promise.all([
      resolveRealtimeOwner(opts.redis, opts.redisPrefix, boardId, now(), opts.nodeTtlMs),
      session ? nameOf(session) : undefined,
    ]);
    if (!owner) return refuse(socket, 503, 'Service Unavailable');
    const target = new URL(owner.url);

    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_HEADERS.has(k)) headers[k] = v;
    // A5: the session id is sha256(token), the id auth's sessions.revoked broadcasts carry
    const ip = opts.clientAddress?.(req)?.slice(0, 64);
    headers[REALTIME_ACTOR_HEADER] = signRealtimeActor(
      opts.secret,
      {
        ...(session
          ? { userId: session.userId, sessionId: session.sessionId, ...(name !== undefined ? { name } : {}) }
          : { userId: 0 }),
        ...(ip ? { ip } : {}),
      },
      now(),
    );
    const upstream = http.request({
      host: target.hostname,
      port: target.port,
      path: req.url,
      method: 'GET',
      headers,
    });
    upstream.on('upgrade', (res, node, nodeHead) => {
      const lines = [`HTTP/1.1 ${res.statusCode ?? 101} ${res.statusMessage ?? 'Switching Protocols'}`];
      for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (nodeHead.length) socket.write(nodeHead);
      if (head.length) node.write(head);
      node.on('error', () => socket.destroy());
      socket.on('error', () => node.destroy());
      node.pipe(socket);
      socket.pipe(node);
    });
    upstream.on('response', (res) => {
      // the node refused the upgrade (origin, path): pass the status on
      refuse(socket, res.statusCode ?? 502, res.statusMessage ?? 'Bad Gateway');
      res.resume();
    });
    upstream.on('error', (err) => {
      opts.log.warn({ err, node: owner.nodeId }, 'realtime node unreachable');
      refuse(socket, 502, 'Bad Gateway');
    });
    upstream.end();
  }
}
