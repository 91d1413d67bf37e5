import { withTransaction } from '@wb/platform';
import type { RequestActor } from '@wb/proto';
import { revokeSessionsByIds } from '../repositories/sessions';
import type { AuthDeps } from './deps';

/** End the caller's session (a guest's logout is a no-op). */
export async function logout(deps: AuthDeps, actor: RequestActor): Promise<void> {
  if (!actor.sessionId) return;
  const sessionId = actor.sessionId;
  const revoked = await withTransaction(deps.pool, (client) => revokeSessionsByIds(client, [sessionId]));
  await deps.sessions.forget(revoked);
  if (revoked.length) deps.metrics.revokedSessions.inc({ reason: 'logout' }, revoked.length);
}
