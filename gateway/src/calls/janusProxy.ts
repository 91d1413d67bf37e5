/**
 * WebSocket upgrades of /janus → Janus's WebSocket transport (bound to a private address; browsers
 * never reach it directly). Only a browser Origin on the allowed list (the board socket's rule,
 * realtime SPEC A2: RT_ALLOWED_ORIGINS and PUBLIC_URL's origin; no Origin is a non-browser client)
 * and a request carrying a live session cookie or the anonymous visitor cookie (guests: the same
 * cookie their CSRF token is bound to) are passed on. Janus checks the call token's signature and
 * expiry on every request; the proxy reads each request too, because a VideoRoom token is valid
 * for the plugin, not for a room: a request that names a room must name its token's own room
 * (`room<id>` in the token, proto `callTokenRoom`), and only the VideoRoom requests a browser needs
 * pass (`CALL_BROWSER_REQUESTS`; not `list`, which would enumerate rooms). So a token for one board
 * cannot list the display names in another board's call (issue 25 §5). Cookies and the client's
 * address headers are not forwarded: Janus needs none of them.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { CALL_BROWSER_REQUESTS, CALL_JANUS_PATH, CALL_JANUS_SUBPROTOCOL, callTokenRoom } from '@wb/proto';
import type { Logger } from '@wb/platform';
import { isAnonId } from '../http/csrf';
import { parseCookies } from '../http/cookies';
import type { ResolvedSession } from '../http/state';

export interface JanusProxyOptions {
  /** ws://host:port of Janus's WebSocket transport; undefined: calls are not set up (503) */
  upstream: string | undefined;
  /** session and anonymous cookie names */
  sessionCookie: string;
  anonCookie: string;
  resolveSession(token: string): Promise<ResolvedSession | null> | ResolvedSession | null;
  /** browser origins allowed to open /janus (RT_ALLOWED_ORIGINS + PUBLIC_URL's origin); any other → 403 */
  allowedOrigins: readonly string[];
  /** counts requests refused for naming another room or a service-only request */
  onRefused?(reason: 'other_room' | 'request' | 'malformed'): void;
  log: Logger;
}

/** the largest Janus message a browser sends (an SDP offer with many candidates is ~20 KB) */
const MAX_MESSAGE_BYTES = 256 * 1024;
const BROWSER_REQUESTS: ReadonlySet<string> = new Set(CALL_BROWSER_REQUESTS);

export function isJanusPath(url: string | undefined): boolean {
  const path = (url ?? '').split('?')[0];
  return path === CALL_JANUS_PATH || path === `${CALL_JANUS_PATH}/`;
}

function refuse(socket: Duplex, status: number, text: string): void {
  if (socket.writable) socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  else socket.destroy();
}

/** a text frame's characters (ws hands over a Buffer, or fragments as a Buffer list) */
function textOf(data: WebSocket.RawData): string {
  const buf = Array.isArray(data)
    ? Buffer.concat(data)
    : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data);
  return buf.toString('utf8');
}

type Refusal = { reason: 'other_room' | 'request' | 'malformed'; text: string };

/**
 * Why a browser's Janus request may not pass, or null when it may. Requests without a plugin
 * message (create, attach, trickle, keepalive, …) carry no room; Janus checks their token.
 */
export function janusRequestRefusal(msg: unknown): Refusal | null {
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg))
    return { reason: 'malformed', text: 'not a Janus request' };
  const m = msg as { janus?: unknown; body?: unknown; token?: unknown };
  if (m.janus !== 'message') return null;
  if (typeof m.body !== 'object' || m.body === null) return { reason: 'malformed', text: 'a message without a body' };
  const body = m.body as { request?: unknown; room?: unknown };
  if (typeof body.request !== 'string' || !BROWSER_REQUESTS.has(body.request))
    return { reason: 'request', text: `request ${String(body.request)} is not allowed` };
  if (body.room === undefined) return null;
  const own = typeof m.token === 'string' ? callTokenRoom(m.token) : null;
  if (own === null || body.room !== own) return { reason: 'other_room', text: "not this token's room" };
  return null;
}

export function janusUpgradeHandler(
  opts: JanusProxyOptions,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  // the browser side: answers the handshake itself (Janus's subprotocol) and reads every request
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has(CALL_JANUS_SUBPROTOCOL) ? CALL_JANUS_SUBPROTOCOL : false),
  });
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    void forward(req, socket, head).catch((err: unknown) => {
      opts.log.warn({ err }, 'janus upgrade failed');
      refuse(socket, 503, 'Service Unavailable');
    });
  };

  async function allowed(req: IncomingMessage): Promise<boolean> {
    const cookies = parseCookies(req.headers.cookie);
    const token = cookies[opts.sessionCookie];
    if (token && (await opts.resolveSession(token))) return true;
    return isAnonId(cookies[opts.anonCookie]);
  }

  async function forward(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const origin = req.headers.origin;
    if (origin !== undefined && !opts.allowedOrigins.includes(origin)) return refuse(socket, 403, 'Forbidden');
    if (!(await allowed(req))) return refuse(socket, 401, 'Unauthorized');
    if (!opts.upstream) return refuse(socket, 503, 'Service Unavailable');
    const janus = new WebSocket(opts.upstream, CALL_JANUS_SUBPROTOCOL, { maxPayload: 16 * 1024 * 1024 });
    janus.once('error', (err) => {
      opts.log.warn({ err: err.message }, 'janus unreachable');
      refuse(socket, 503, 'Service Unavailable');
    });
    janus.once('unexpected-response', (_req, res) => {
      refuse(socket, res.statusCode ?? 502, res.statusMessage ?? 'Bad Gateway');
      res.resume();
      janus.terminate();
    });
    janus.once('open', () => {
      janus.removeAllListeners('error');
      wss.handleUpgrade(req, socket, head, (browser) => relay(browser, janus));
    });
  }

  function relay(browser: WebSocket, janus: WebSocket): void {
    const closeBoth = (): void => {
      browser.terminate();
      janus.terminate();
    };
    browser.on('error', closeBoth);
    janus.on('error', closeBoth);
    browser.on('close', () => janus.close());
    janus.on('close', () => browser.close());
    janus.on('message', (data, isBinary) => {
      if (browser.readyState === WebSocket.OPEN) browser.send(data, { binary: isBinary });
    });
    browser.on('message', (data, isBinary) => {
      let msg: unknown;
      try {
        msg = isBinary ? undefined : JSON.parse(textOf(data));
      } catch {
        msg = undefined;
      }
      const refusal = janusRequestRefusal(msg);
      if (refusal) {
        opts.onRefused?.(refusal.reason);
        opts.log.info({ reason: refusal.reason }, 'janus request refused');
        const m = (typeof msg === 'object' && msg !== null ? msg : {}) as {
          transaction?: unknown;
          session_id?: unknown;
        };
        browser.send(
          JSON.stringify({
            janus: 'error',
            ...(m.session_id !== undefined ? { session_id: m.session_id } : {}),
            ...(m.transaction !== undefined ? { transaction: m.transaction } : {}),
            error: { code: 403, reason: `Unauthorized request (${refusal.text})` },
          }),
        );
        return;
      }
      if (janus.readyState === WebSocket.OPEN) janus.send(data, { binary: false });
    });
  }
}
