import type { CachedSession } from '@wb/platform';
import { findActiveSession } from '../repositories/sessions';
import type { AuthDeps } from './deps';

/** The gateway missed the cache: answer from PostgreSQL and re-fill the cache. */
export async function resolveSession(deps: AuthDeps, sessionId: string): Promise<CachedSession | null> {
  const row = await findActiveSession(deps.pool, sessionId, deps.now());
  if (!row) return null;
  const session: CachedSession = { sessionId: row.id, userId: row.user_id, expiresAt: row.expires_at.getTime() };
  await deps.sessions.cacheResolved(session);
  return session;
}
