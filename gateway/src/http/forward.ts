/**
 * The generic handler that executes a RouteDef:
 *   session check → CSRF → validate → (login throttle) → bus.request → map the reply.
 * A reply is JSON 200 with its data; `notice`/`redirect` become x-notice/x-redirect headers;
 * `session: 'issue'` turns data.session into cookies, `'end'` clears them; `reply: 'redirect'`
 * answers 302; `reply: 'file'` sends the FileReply's bytes. Routes with `caller: 'server'`
 * (webhooks) skip the CSRF check. Failures are thrown and rendered by errors.ts.
 */
import type { Request, RequestHandler, Response } from 'express';
import { AppError, fileReplySchema } from '@wb/proto';
import type { ServiceReply } from '@wb/platform';
import type { GatewayConfig } from '../config';
import type { RouteDef } from '../routes/types';
import { actorOf } from './actor';
import { setCookie } from './cookies';
import { SAFE_METHODS } from './csrf';
import type { SessionBinder } from './session';
import { getState } from './state';
import type { GatewayBus, RequestState } from './state';
import type { LoginThrottle } from './throttle';
import { validateParts } from './validate';

export interface ForwardDeps {
  config: GatewayConfig;
  bus: GatewayBus;
  binder: SessionBinder;
  throttle: LoginThrottle;
}

const DEVICE_COOKIE_MAX_AGE = 180 * 24 * 3600;
const NOTICE_RE = /^[A-Za-z0-9_.:-]{1,64}$/;

/** Only same-site paths: a service must not turn the gateway into an open redirect. */
export function safeRedirect(target: string | undefined): string {
  if (
    !target ||
    !target.startsWith('/') ||
    target.startsWith('//') ||
    target.startsWith('/\\') ||
    /[\r\n]/.test(target)
  )
    return '/';
  return target;
}

/** Express 5 gives wildcard params as segment arrays; services get the joined path. */
function normalizeParams(params: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key in params) {
    const v = params[key];
    if (Array.isArray(v)) (out ??= { ...params })[key] = v.join('/');
  }
  return out ?? params;
}

function spread(part: unknown): object {
  return part !== null && typeof part === 'object' ? part : {};
}

function emailOf(body: unknown): string {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email : '';
}

/**
 * Only routes that act on the reply's content decode it; every other answer is passed through as
 * the bytes the service encoded (no parse and re-serialise of large lists).
 */
function passThrough(route: RouteDef): boolean {
  return route.session === undefined && (route.reply ?? 'json') === 'json';
}

/** whether an Accept-Encoding header takes gzip: an explicit `gzip` entry decides, else `*`; q=0 refuses */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [coding = '', ...params] = part.split(';').map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    weights.set(coding, q ? Number(q.slice(2)) : 1);
  }
  const q = weights.get('gzip') ?? weights.get('*') ?? 0;
  return q > 0;
}

export function forward(route: RouteDef, deps: ForwardDeps): RequestHandler {
  // server-to-server callbacks carry no browser cookies: the service checks their signature
  const unsafe = !SAFE_METHODS.has(route.method.toUpperCase()) && route.caller !== 'server';
  const trustProxy = deps.config.trustProxy !== false;
  const timeout = route.timeoutMs ? { timeoutMs: route.timeoutMs } : {};
  const raw = passThrough(route);

  return async (req, res) => {
    const st = getState(req);
    st.routeLabel = route.path;
    if (st.sessionError) throw st.sessionError;
    // 401 before CSRF: an expired session must read as "log in again", not "reload the page".
    if (route.auth === 'required' && !st.session) throw new AppError('ERR_UNAUTHORIZED');
    if (unsafe) deps.binder.verifyCsrf(req);
    // req.query is a parsing getter in Express 5: only touched when the route declares a query.
    const parts = validateParts(route, {
      params: normalizeParams(req.params),
      query: route.query ? req.query : undefined,
      body: req.body,
    });
    const input = route.input
      ? route.input(parts)
      : { ...spread(parts.params), ...spread(parts.query), ...spread(parts.body) };
    const actor = actorOf(req, st, trustProxy);

    const attempt =
      route.throttle === 'credentials'
        ? await deps.throttle.begin(emailOf(parts.body), req.ip ?? 'unknown', st.cookies[deps.config.cookies.device])
        : undefined;
    let reply: ServiceReply<unknown>;
    try {
      reply = raw
        ? await deps.bus.requestRaw(route.service, route.operation, input, actor, {
            ...timeout,
            parent: st.traceContext,
            acceptGzip: acceptsGzip(req.headers['accept-encoding']),
          })
        : await deps.bus.request(route.service, route.operation, input, actor, { ...timeout, parent: st.traceContext });
    } catch (err) {
      if (attempt)
        await (err instanceof AppError && err.code === 'ERR_LOGIN_FAILED' ? attempt.failed() : attempt.abandoned());
      throw err;
    }
    if (attempt) {
      const device = await attempt.succeeded();
      if (device)
        setCookie(res, deps.config.cookies.device, device, {
          httpOnly: true,
          secure: deps.config.secureCookies,
          maxAge: DEVICE_COOKIE_MAX_AGE,
        });
    }
    respond(route, reply, req, res, st, deps);
  };
}

function respond(
  route: RouteDef,
  reply: ServiceReply<unknown>,
  _req: Request,
  res: Response,
  st: RequestState,
  deps: ForwardDeps,
): void {
  let data = reply.data;
  if (route.session === 'issue' && data !== null && typeof data === 'object' && 'session' in data) {
    const { session, ...rest } = data as Record<string, unknown>;
    deps.binder.issue(res, st, session);
    data = rest;
  } else if (route.session === 'end') {
    deps.binder.end(res, st);
  }
  if (reply.notice && NOTICE_RE.test(reply.notice)) res.setHeader('x-notice', reply.notice);
  if (route.reply === 'redirect') {
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, safeRedirect(reply.redirect));
    return;
  }
  if (reply.redirect) res.setHeader('x-redirect', safeRedirect(reply.redirect));
  if (route.reply === 'file') {
    sendFile(res, data);
    return;
  }
  // Plain end() instead of res.json(): no content-type lookup or freshness check on the hot path.
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  // pass-through answers may come compressed (a service's pre-compressed cache, e.g. board lists)
  if (passThrough(route)) res.setHeader('Vary', 'Accept-Encoding');
  if (reply.gzip) res.setHeader('Content-Encoding', 'gzip');
  if (data instanceof Uint8Array) res.end(data.length === 0 ? 'null' : data);
  else res.end(JSON.stringify(data === undefined ? null : data));
}

/** `reply: 'file'`: the service's FileReply as bytes, downloaded as an attachment. */
function sendFile(res: Response, data: unknown): void {
  const file = fileReplySchema.safeParse(data);
  // a contract bug in the service, not the client's fault: a 500 (logged by errors.ts)
  if (!file.success) throw new Error('file reply malformed: expected {filename, contentType, base64}');
  const bytes = Buffer.from(file.data.base64, 'base64');
  res.statusCode = 200;
  res.setHeader('Content-Type', file.data.contentType);
  res.setHeader('Content-Length', String(bytes.length));
  // the filename pattern (proto) allows no quotes, slashes or control characters
  res.setHeader('Content-Disposition', `attachment; filename="${file.data.filename}"`);
  res.end(bytes);
}
