/**
 * WebSocket upgrades of /janus → Janus's WebSocket transport (bound to a private address; browsers
 * never reach it directly). Only a request carrying a live session cookie or the anonymous
 * visitor cookie (guests: the same cookie their CSRF token is bound to) is passed on; Janus then
 * checks the call token on every request inside the socket (token_auth), so the gateway does
 * not read frames. Cookies and the client's address headers are not forwarded: Janus needs none
 * of them, and its api/admin secrets stay on the server side (the calls service).
 */
import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { CALL_JANUS_PATH } from '@wb/proto';
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
  /** the app's origin (PUBLIC_URL): other origins are refused when set */
  publicOrigin?: string;
  log: Logger;
}

/** the upgrade request headers a WebSocket handshake needs; nothing else goes to Janus */
const PASSED_HEADERS = [
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-protocol',
  'sec-websocket-extensions',
];

export function isJanusPath(url: string | undefined): boolean {
  const path = (url ?? '').split('?')[0];
  return path === CALL_JANUS_PATH || path === `${CALL_JANUS_PATH}/`;
}

function refuse(socket: Duplex, status: number, text: string): void {
  if (socket.writable) socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  else socket.destroy();
}

export function janusUpgradeHandler(
  opts: JanusProxyOptions,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
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
    if (opts.publicOrigin && origin && origin !== opts.publicOrigin) return refuse(socket, 403, 'Forbidden');
    if (!(await allowed(req))) return refuse(socket, 401, 'Unauthorized');
    if (!opts.upstream) return refuse(socket, 503, 'Service Unavailable');
    const target = new URL(opts.upstream);
    const headers: Record<string, string | string[]> = { connection: 'Upgrade', upgrade: 'websocket' };
    for (const name of PASSED_HEADERS) {
      const v = req.headers[name];
      if (v !== undefined) headers[name] = v;
    }
    const upstream = http.request({
      host: target.hostname,
      port: target.port || 80,
      path: target.pathname || '/',
      method: 'GET',
      headers,
    });
    upstream.on('upgrade', (res, janus, janusHead) => {
      const lines = [`HTTP/1.1 ${res.statusCode ?? 101} ${res.statusMessage ?? 'Switching Protocols'}`];
      for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (janusHead.length) socket.write(janusHead);
      if (head.length) janus.write(head);
      janus.on('error', () => socket.destroy());
      socket.on('error', () => janus.destroy());
      janus.on('close', () => socket.destroy());
      socket.on('close', () => janus.destroy());
      janus.pipe(socket);
      socket.pipe(janus);
    });
    upstream.on('response', (res) => {
      refuse(socket, res.statusCode ?? 502, res.statusMessage ?? 'Bad Gateway');
      res.resume();
    });
    upstream.on('error', (err) => {
      opts.log.warn({ err: err.message }, 'janus unreachable');
      refuse(socket, 503, 'Service Unavailable');
    });
    upstream.end();
  }
}
