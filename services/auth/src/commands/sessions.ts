/**
 * Sessions: PostgreSQL is the record, the Redis SessionCache is what the gateway reads per
 * request. Opening happens inside the caller's transaction; the cache is written only after the
 * commit. Revoking = revoked_at in PostgreSQL (in the transaction), then `forget`: remove from
 * Redis and broadcast the ids so every gateway drops its ≤ 1 s local copy.
 */
import { broadcastSubject, SESSION_TTL_MS, SESSIONS_REVOKED } from '@wb/proto';
import type { RequestActor, SessionGrant } from '@wb/proto';
import { newSessionToken, publishBroadcast, sessionIdOf } from '@wb/platform';
import type { Bus, CachedSession, Logger, PoolClient, SessionCache } from '@wb/platform';
import { insertSession } from '../repositories/sessions';

export interface OpenedSession {
  grant: SessionGrant;
  cached: CachedSession;
}

/**
 * A session-resolve that read PostgreSQL just before a revocation committed could re-fill the
 * cache right after `forget` removed the key; a second removal a little later closes that gap.
 */
const SECOND_REMOVAL_MS = 1500;

export class SessionKeeper {
  constructor(
    private readonly cache: SessionCache,
    private readonly bus: Bus,
    private readonly log: Logger,
  ) {}

  async open(client: PoolClient, userId: number, actor: RequestActor, now: Date): Promise<OpenedSession> {
    const token = newSessionToken();
    const sessionId = sessionIdOf(token);
    const expiresAt = now.getTime() + SESSION_TTL_MS;
    await insertSession(client, {
      id: sessionId,
      userId,
      expiresAt: new Date(expiresAt),
      ip: actor.ip,
      userAgent: actor.userAgent,
    });
    return { grant: { token, expiresAt }, cached: { sessionId, userId, expiresAt } };
  }

  /** after commit; a failure only costs the gateway one session.resolve */
  async cacheOpened(session: CachedSession): Promise<void> {
    try {
      await this.cache.put(session);
    } catch (err) {
      this.log.warn({ err }, 'could not cache a new session');
    }
  }

  async cacheResolved(session: CachedSession): Promise<void> {
    await this.cacheOpened(session);
  }

  /** after commit of a revocation */
  async forget(sessionIds: string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    await this.removeWithRetry(sessionIds, 3);
    try {
      publishBroadcast(this.bus, broadcastSubject(this.bus.prefix, 'auth', SESSIONS_REVOKED), { sessionIds });
    } catch (err) {
      this.log.error({ err, count: sessionIds.length }, 'could not broadcast revoked sessions');
    }
    setTimeout(() => void this.removeWithRetry(sessionIds, 1), SECOND_REMOVAL_MS).unref();
  }

  private async removeWithRetry(sessionIds: string[], attempts: number): Promise<void> {
    for (let i = 1; i <= attempts; i++) {
      try {
        await this.cache.remove(sessionIds);
        return;
      } catch (err) {
        // a revoked session left in Redis keeps working: this is worth an alert
        if (i === attempts)
          this.log.error({ err, count: sessionIds.length }, 'could not remove revoked sessions from the cache');
        else await new Promise((r) => setTimeout(r, 200 * i));
      }
    }
  }
}
