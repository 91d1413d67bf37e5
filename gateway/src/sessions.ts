/**
 * Session resolution: token → session, in three tiers so the hot path costs nothing:
 *   1. an in-process map (≤ 1 s per entry, so a revoked session stops within 1 s),
 *   2. the shared Redis cache (`SessionCache`, written by the auth service),
 *   3. on a Redis miss, `svc.auth.session.resolve` (auth reads PostgreSQL and refills Redis).
 * Revocation broadcasts drop entries from tier 1 at once (`forget`).
 */
import type { Context } from '@opentelemetry/api';
import { AppError, sessionResolveOutputSchema } from '@wb/proto';
import { sessionIdOf } from '@wb/platform';
import type { CachedSession, Logger } from '@wb/platform';
import type { GatewayBus, ResolvedSession } from './http/state';

/** The Redis tier (platform `SessionCache`); an interface so tests can count lookups. */
export interface SessionSource {
  get(sessionId: string): Promise<CachedSession | null>;
}

interface Entry {
  /** when this entry was fetched (ms) */
  at: number;
  session: ResolvedSession | null;
}

export interface SessionResolverOptions {
  store: SessionSource;
  bus: GatewayBus;
  log: Logger;
  /** local cache lifetime; ≤ 1000 ms by contract */
  ttlMs?: number;
  /** local cache size bound (oldest entries evicted first) */
  maxEntries?: number;
  now?: () => number;
}

/** Tokens are opaque but cookie-safe and bounded: anything else is not worth a lookup. */
const TOKEN_RE = /^[A-Za-z0-9_-]{32,512}$/;

export class SessionResolver {
  private readonly byToken = new Map<string, Entry>();
  /** sessionId → token, so revocation by id finds the local entry */
  private readonly tokenOf = new Map<string, string>();
  private readonly inflight = new Map<string, Promise<ResolvedSession | null>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private lastCacheWarning = 0;

  constructor(private readonly opts: SessionResolverOptions) {
    this.ttlMs = Math.min(opts.ttlMs ?? 1000, 1000);
    this.maxEntries = opts.maxEntries ?? 50_000;
    this.now = opts.now ?? Date.now;
  }

  /**
   * null = no valid session (logged out, expired, revoked). Rejects only on infrastructure failure.
   * `parent`: the trace a lookup that reaches auth belongs to (the first caller's, when shared).
   */
  resolve(token: string, parent?: Context): Promise<ResolvedSession | null> | ResolvedSession | null {
    if (!TOKEN_RE.test(token)) return null;
    const now = this.now();
    const entry = this.byToken.get(token);
    if (entry && now - entry.at < this.ttlMs) {
      const s = entry.session;
      return s && s.expiresAt > now ? s : null;
    }
    let pending = this.inflight.get(token);
    if (!pending) {
      // One lookup per token at a time: a page firing ten requests costs one Redis read.
      pending = this.fetch(token, parent).finally(() => this.inflight.delete(token));
      this.inflight.set(token, pending);
    }
    return pending;
  }

  /** Drop sessions from the local cache (revocation broadcast, logout, login rotation). */
  forget(sessionIds: readonly string[]): void {
    for (const id of sessionIds) {
      const token = this.tokenOf.get(id);
      if (token === undefined) continue;
      this.tokenOf.delete(id);
      this.byToken.delete(token);
    }
  }

  forgetToken(token: string): void {
    const entry = this.byToken.get(token);
    if (entry?.session) this.tokenOf.delete(entry.session.sessionId);
    this.byToken.delete(token);
  }

  get size(): number {
    return this.byToken.size;
  }

  private async fetch(token: string, parent?: Context): Promise<ResolvedSession | null> {
    const sessionId = sessionIdOf(token);
    let found: CachedSession | null | undefined;
    try {
      found = await this.opts.store.get(sessionId);
    } catch (err) {
      // Redis trouble must not log everyone out: ask auth instead (and do not log every request).
      const now = this.now();
      if (now - this.lastCacheWarning > 10_000) {
        this.lastCacheWarning = now;
        this.opts.log.warn({ err }, 'session cache read failed; asking auth');
      }
    }
    if (!found) found = await this.askAuth(sessionId, parent);
    const now = this.now();
    const session =
      found && found.sessionId === sessionId && found.expiresAt > now
        ? { sessionId, userId: found.userId, expiresAt: found.expiresAt }
        : null;
    this.remember(token, { at: now, session });
    return session;
  }

  private async askAuth(sessionId: string, parent?: Context): Promise<CachedSession | null> {
    try {
      const reply = await this.opts.bus.request('auth', 'session.resolve', { sessionId }, { userId: 0 }, { parent });
      return sessionResolveOutputSchema.parse(reply.data);
    } catch (err) {
      this.opts.log.error({ err }, 'session resolution failed');
      throw err instanceof AppError && (err.code === 'ERR_TIMEOUT' || err.code === 'ERR_SERVICE_UNAVAILABLE')
        ? err
        : new AppError('ERR_SERVICE_UNAVAILABLE');
    }
  }

  private remember(token: string, entry: Entry): void {
    const old = this.byToken.get(token);
    if (old)
      this.byToken.delete(token); // re-insert: Map order is the eviction order
    else if (this.byToken.size >= this.maxEntries) this.evictOldest();
    this.byToken.set(token, entry);
    if (entry.session) this.tokenOf.set(entry.session.sessionId, token);
  }

  private evictOldest(): void {
    const first = this.byToken.keys().next();
    if (!first.done) this.forgetToken(first.value);
  }
}
