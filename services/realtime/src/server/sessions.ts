/**
 * The sessions of this node's sockets (SPEC A5): when a session ends (logout, a password change
 * ending the other sessions, account termination, expiry) its sockets are closed with 4401, so
 * that nothing more is accepted from them. Two paths, so that a lost broadcast only delays it:
 *
 * 1. auth's broadcast `<NATS_PREFIX>bc.auth.sessions.revoked` (core NATS: at most once) →
 *    `revoke(ids)`: closes at once (well within 1 s).
 * 2. a sweep every RT_SESSION_CHECK_MS (default 5 s) over the distinct sessions connected here:
 *    one Redis MGET of their session-cache keys (the cache auth writes and gateways read; auth
 *    removes a revoked session from it before it broadcasts). A key that is missing is not yet a
 *    revocation (the cache can lose keys): auth's `session.resolve` decides, and re-fills the
 *    cache when the session is valid. A failed lookup closes nothing (fail open, retried on the
 *    next sweep).
 *
 * Revoked ids are remembered for a few minutes (longer than the actor header's 60 s lifetime), so
 * a socket upgraded with a header signed just before the revocation is refused at once.
 */
import { cachedSessionSchema, sessionResolveOutputSchema } from '@wb/proto';
import type { Logger } from '@wb/platform';
import type { Clock } from '../room/room';

/** Which of these sessions have ended; rejects when it cannot tell (nothing is closed then). */
export interface SessionValidity {
  ended(sessionIds: readonly string[]): Promise<string[]>;
}

export interface SessionGuardOptions {
  validity?: SessionValidity;
  clock: Clock;
  log: Logger;
  /** sweep period (RT_SESSION_CHECK_MS); default 5000 */
  checkEveryMs?: number;
  /** how long a revoked id is remembered; default 5 minutes (actor headers live 60 s) */
  rememberMs?: number;
}

/** How a socket of a session is closed: with RT_CLOSE.UNAUTHENTICATED "session ended". */
export type CloseSession = () => void;

export class SessionGuard {
  private readonly sockets = new Map<string, Set<CloseSession>>();
  /** revoked session id → when */
  private readonly revoked = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private readonly rememberMs: number;

  constructor(private readonly opts: SessionGuardOptions) {
    this.rememberMs = opts.rememberMs ?? 5 * 60_000;
  }

  /** Sessions with at least one socket here. */
  get size(): number {
    return this.sockets.size;
  }

  /**
   * Follow a socket of `sessionId`; returns the function that stops following it (socket closed),
   * or null when the session is already known to have ended (the caller closes the socket).
   */
  track(sessionId: string, close: CloseSession): (() => void) | null {
    if (this.isRevoked(sessionId)) return null;
    let set = this.sockets.get(sessionId);
    if (!set) this.sockets.set(sessionId, (set = new Set()));
    set.add(close);
    return () => {
      const s = this.sockets.get(sessionId);
      if (!s) return;
      s.delete(close);
      if (s.size === 0) this.sockets.delete(sessionId);
    };
  }

  isRevoked(sessionId: string): boolean {
    const at = this.revoked.get(sessionId);
    return at !== undefined && this.opts.clock.now() - at < this.rememberMs;
  }

  /** These sessions ended: close their sockets here. Returns how many sockets were closed. */
  revoke(sessionIds: readonly string[]): number {
    const now = this.opts.clock.now();
    let closed = 0;
    for (const id of sessionIds) {
      this.revoked.set(id, now);
      const set = this.sockets.get(id);
      if (!set) continue;
      this.sockets.delete(id);
      for (const close of set) {
        closed++;
        try {
          close();
        } catch (err) {
          this.opts.log.warn({ err }, 'closing a socket of an ended session failed');
        }
      }
    }
    this.forgetOld(now);
    return closed;
  }

  /** The fallback: ask whether the connected sessions are still valid; close the ended ones. */
  sweep(): Promise<void> {
    if (this.sweeping) return this.sweeping;
    const validity = this.opts.validity;
    const ids = [...this.sockets.keys()];
    if (!validity || ids.length === 0) {
      this.forgetOld(this.opts.clock.now());
      return Promise.resolve();
    }
    this.sweeping = (async () => {
      try {
        const ended = await validity.ended(ids);
        if (ended.length) {
          const closed = this.revoke(ended);
          this.opts.log.info({ sessions: ended.length, sockets: closed }, 'closed sockets of ended sessions');
        }
      } catch (err) {
        this.opts.log.warn({ err }, 'session check failed; retrying on the next sweep');
      } finally {
        this.sweeping = null;
      }
    })();
    return this.sweeping;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep(), this.opts.checkEveryMs ?? 5000);
    this.timer.unref();
  }
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private forgetOld(now: number): void {
    for (const [id, at] of this.revoked) if (now - at >= this.rememberMs) this.revoked.delete(id);
  }
}

/** The few Redis commands the session check needs (ioredis satisfies it). */
export interface SessionCacheReader {
  mget(...keys: string[]): Promise<(string | null)[]>;
}
const MGET_CHUNK = 500;
const RESOLVE_CHUNK = 20;

/**
 * SessionValidity over the shared session cache (`<REDIS_PREFIX>sess:<id>`, platform
 * SessionCache) and auth's `session.resolve` for the ids the cache lacks.
 */
export function cachedSessionValidity(opts: {
  redis: SessionCacheReader;
  redisPrefix: string;
  /** auth's session.resolve: the session, or null when it has ended */
  resolve: (sessionId: string) => Promise<unknown>;
  clock: Clock;
}): SessionValidity {
  return {
    async ended(ids) {
      const now = opts.clock.now();
      const unknown: string[] = [];
      const ended: string[] = [];
      for (let i = 0; i < ids.length; i += MGET_CHUNK) {
        const chunk = ids.slice(i, i + MGET_CHUNK);
        const values = await opts.redis.mget(...chunk.map((id) => `${opts.redisPrefix}sess:${id}`));
        chunk.forEach((id, k) => {
          const parsed = parseCached(values[k] ?? null);
          if (!parsed || parsed.sessionId !== id) unknown.push(id);
          else if (parsed.expiresAt <= now) ended.push(id);
        });
      }
      // not in the cache: auth reads its record (and re-fills the cache when the session is valid);
      // an id auth could not answer for stays open until a later sweep
      let failure: unknown = null;
      for (let i = 0; i < unknown.length; i += RESOLVE_CHUNK) {
        const chunk = unknown.slice(i, i + RESOLVE_CHUNK);
        const answers = await Promise.allSettled(
          chunk.map(async (id) => sessionResolveOutputSchema.parse(await opts.resolve(id))),
        );
        answers.forEach((a, k) => {
          if (a.status === 'rejected') failure ??= a.reason;
          else if (a.value === null || a.value.expiresAt <= now) ended.push(chunk[k]!);
        });
      }
      if (failure !== null && ended.length === 0)
        throw failure instanceof Error ? failure : new Error('session check failed');
      return ended;
    },
  };
}

function parseCached(raw: string | null): { sessionId: string; expiresAt: number } | null {
  if (raw === null) return null;
  try {
    const r = cachedSessionSchema.safeParse(JSON.parse(raw));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
