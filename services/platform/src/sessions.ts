/**
 * Session cache in Redis shared by the auth service (writes, revokes) and the gateway (reads).
 * PostgreSQL (auth schema) is the record; Redis is the cache the gateway checks per request,
 * and the gateway keeps a ≤ 1 s in-process cache in front of it, so a revoked session stops
 * working within 1 s with no per-request database hit.
 * Key: <REDIS_PREFIX>sess:<sessionId> where sessionId = sha256(token) hex; value JSON CachedSession.
 */
import type { Redis } from 'ioredis';
export interface CachedSession {
  sessionId: string;
  userId: number;
  /** epoch ms */
  expiresAt: number;
}
export function newSessionToken(): string {
  throw new Error('not implemented');
}
/** sha256 hex of a session token: what is stored and logged, never the token itself */
export function sessionIdOf(_token: string): string {
  throw new Error('not implemented');
}
export class SessionCache {
  constructor(_redis: Redis, _prefix: string) {}
  async get(_sessionId: string): Promise<CachedSession | null> {
    throw new Error('not implemented');
  }
  async put(_session: CachedSession): Promise<void> {
    throw new Error('not implemented');
  }
  async remove(_sessionIds: string[]): Promise<void> {
    throw new Error('not implemented');
  }
}
