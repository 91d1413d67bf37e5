/**
 * Session cache in Redis shared by the auth service (writes, revokes) and the gateway (reads).
 * PostgreSQL (auth schema) is the record; Redis is the cache the gateway checks per request,
 * and the gateway keeps a ≤ 1 s in-process cache in front of it, so a revoked session stops
 * working within 1 s with no per-request database hit.
 * Key: <REDIS_PREFIX>sess:<sessionId> where sessionId = sha256(token) hex; value JSON CachedSession.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { cachedSessionSchema } from '@wb/proto';

export interface CachedSession {
  sessionId: string;
  userId: number;
  /** epoch ms */
  expiresAt: number;
}
/** 256 random bits, URL- and cookie-safe. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}
/** sha256 hex of a session token: what is stored and logged, never the token itself */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
export class SessionCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** injectable clock for tests */
    private readonly now: () => number = Date.now,
  ) {}

  key(sessionId: string): string {
    return `${this.prefix}sess:${sessionId}`;
  }

  async get(sessionId: string): Promise<CachedSession | null> {
    const raw = await this.redis.get(this.key(sessionId));
    if (raw === null) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return null; // unreadable entry: treat as a miss so auth re-fills it from the record
    }
    const result = cachedSessionSchema.safeParse(parsed);
    if (!result.success || result.data.sessionId !== sessionId) return null;
    // The key expires with the session; this guards against clock skew between hosts.
    if (result.data.expiresAt <= this.now()) return null;
    return result.data;
  }

  async put(session: CachedSession): Promise<void> {
    const ttl = session.expiresAt - this.now();
    if (ttl <= 0) {
      // Already expired: never cache it, and drop any stale copy.
      await this.redis.del(this.key(session.sessionId));
      return;
    }
    const value = JSON.stringify({
      sessionId: session.sessionId,
      userId: session.userId,
      expiresAt: session.expiresAt,
    });
    await this.redis.set(this.key(session.sessionId), value, 'PX', ttl);
  }

  async remove(sessionIds: string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    await this.redis.del(...sessionIds.map((id) => this.key(id)));
  }
}
