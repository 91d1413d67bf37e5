/**
 * Session and CSRF binding per request: resolve the `sid` cookie (local cache first), fall back to
 * the anonymous binding, and make sure the browser holds a CSRF token valid for that binding.
 * Also the two transitions forward.ts triggers: a new session (login) and an ended one (logout).
 */
import type { Request, RequestHandler, Response } from 'express';
import { AppError, sessionGrantSchema } from '@wb/proto';
import { sessionIdOf } from '@wb/platform';
import type { GatewayConfig } from '../config';
import type { SessionResolver } from '../sessions';
import { clearCookie, setCookie } from './cookies';
import { CSRF_BODY_FIELD, CSRF_HEADER, isAnonId, isCsrfTokenValid, mintAnonId, mintCsrfToken, sameToken } from './csrf';
import { getState } from './state';
import type { RequestState, ResolvedSession } from './state';

/** The session object cached locally also remembers the last CSRF cookie it verified (no HMAC per hit). */
type CachedBinding = ResolvedSession & { csrfVerified?: string };

export class SessionBinder {
  constructor(
    private readonly config: GatewayConfig,
    private readonly resolver: SessionResolver,
  ) {}

  readonly middleware: RequestHandler = (req, res, next) => {
    const st = getState(req);
    const token = st.cookies[this.config.cookies.session];
    if (!token) {
      this.bindAnonymous(res, st);
      return next();
    }
    let resolved: ReturnType<SessionResolver['resolve']>;
    try {
      resolved = this.resolver.resolve(token, st.traceContext);
    } catch (err) {
      return next(err);
    }
    if (resolved instanceof Promise) {
      resolved.then(
        (s) => {
          try {
            this.bind(res, st, token, s);
          } catch (err) {
            return next(err);
          }
          next();
        },
        (err: unknown) => {
          // Keep the cookie (the user is not logged out) and let each route decide: API routes
          // answer 503 (forward.ts), the web app's page still loads.
          st.sessionError = err instanceof Error ? err : new AppError('ERR_SERVICE_UNAVAILABLE');
          next();
        },
      );
    } else {
      this.bind(res, st, token, resolved);
      next();
    }
  };

  /** 403 unless the request echoes the CSRF cookie (header or body field) and it fits the binding. */
  verifyCsrf(req: Request): void {
    const st = getState(req);
    const body = req.body as Record<string, unknown> | undefined;
    let submitted = req.headers[CSRF_HEADER];
    if (body && typeof body === 'object' && CSRF_BODY_FIELD in body) {
      const field = body[CSRF_BODY_FIELD];
      delete body[CSRF_BODY_FIELD]; // never reaches validation or a service
      if (submitted === undefined && typeof field === 'string') submitted = field;
    }
    const cookie = st.cookies[this.config.cookies.csrf];
    if (!st.csrfCookieValid || typeof submitted !== 'string' || !cookie || !sameToken(submitted, cookie)) {
      throw new AppError('ERR_CSRF');
    }
  }

  /** Login: the reply's SessionGrant becomes the session cookie plus a CSRF token bound to it. */
  issue(res: Response, st: RequestState, grant: unknown, now = Date.now()): void {
    const parsed = sessionGrantSchema.safeParse(grant);
    if (!parsed.success) throw new Error('session grant missing or malformed in the service reply');
    const { token, expiresAt } = parsed.data;
    if (st.token) this.resolver.forgetToken(st.token);
    const { cookies, secureCookies: secure } = this.config;
    setCookie(res, cookies.session, token, { httpOnly: true, secure, maxAge: (expiresAt - now) / 1000 });
    setCookie(res, cookies.csrf, mintCsrfToken(this.config.csrfSecret, sessionIdOf(token)), {
      httpOnly: false,
      secure,
    });
  }

  /** Logout: clear the session cookie and fall back to a fresh anonymous binding. */
  end(res: Response, st: RequestState): void {
    if (st.token) this.resolver.forgetToken(st.token);
    if (st.session) this.resolver.forget([st.session.sessionId]);
    const { cookies, secureCookies: secure } = this.config;
    clearCookie(res, cookies.session, { httpOnly: true, secure });
    st.session = null;
    st.token = undefined;
    st.csrfCookieValid = false;
    this.bindAnonymous(res, st, true);
  }

  private bind(res: Response, st: RequestState, token: string, session: ResolvedSession | null): void {
    if (!session) {
      // Logged out (expired or revoked): drop the dead cookie so the browser stops sending it.
      clearCookie(res, this.config.cookies.session, { httpOnly: true, secure: this.config.secureCookies });
      this.bindAnonymous(res, st);
      return;
    }
    st.token = token;
    st.session = session;
    const cached = session as CachedBinding;
    const cookie = st.cookies[this.config.cookies.csrf];
    if (
      cookie !== undefined &&
      (cached.csrfVerified === cookie || isCsrfTokenValid(this.config.csrfSecret, session.sessionId, cookie))
    ) {
      cached.csrfVerified = cookie;
      st.csrfCookieValid = true;
      return;
    }
    st.csrfCookieValid = false;
    setCookie(res, this.config.cookies.csrf, mintCsrfToken(this.config.csrfSecret, session.sessionId), {
      httpOnly: false,
      secure: this.config.secureCookies,
    });
  }

  private bindAnonymous(res: Response, st: RequestState, forceNewToken = false): void {
    const { cookies, secureCookies: secure, csrfSecret } = this.config;
    let anonId = st.cookies[cookies.anon];
    if (!isAnonId(anonId)) {
      anonId = mintAnonId();
      setCookie(res, cookies.anon, anonId, { httpOnly: true, secure });
    }
    st.anonId = anonId;
    const cookie = st.cookies[cookies.csrf];
    if (!forceNewToken && isCsrfTokenValid(csrfSecret, anonId, cookie)) {
      st.csrfCookieValid = true;
      return;
    }
    if (!forceNewToken) st.csrfCookieValid = false;
    setCookie(res, cookies.csrf, mintCsrfToken(csrfSecret, anonId), { httpOnly: false, secure });
  }
}
