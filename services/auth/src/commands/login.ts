/**
 * Log in by email and password. One answer (ERR_LOGIN_FAILED) for an unknown address and a wrong
 * password, and the same hashing time for both, so nobody learns which addresses have accounts.
 */
import { withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { RequestActor, SessionGrant, UserDto } from '@wb/proto';
import { normalizeEmail } from '../domain/email';
import { presentUser } from '../presenters/user';
import { revokeSessionsByIds } from '../repositories/sessions';
import { findUserByEmail, updatePasswordHash } from '../repositories/users';
import type { AuthDeps } from './deps';

export async function login(
  deps: AuthDeps,
  input: { email: string; password: string },
  actor: RequestActor,
): Promise<{ user: UserDto; session: SessionGrant }> {
  const user = await findUserByEmail(deps.pool, normalizeEmail(input.email));
  if (!user || !user.password_hash) {
    await deps.hasher.verifyDummy(input.password);
    deps.metrics.logins.inc({ outcome: 'failed' });
    throw new AppError('ERR_LOGIN_FAILED');
  }
  const check = await deps.hasher.verify(input.password, user.password_hash);
  if (!check.ok) {
    deps.metrics.logins.inc({ outcome: 'failed' });
    throw new AppError('ERR_LOGIN_FAILED');
  }
  // the cost parameters were raised since this hash was made: store one at today's cost
  const newHash = check.needsRehash ? await deps.hasher.hash(input.password) : null;
  const now = deps.now();

  const { opened, revoked } = await withTransaction(deps.pool, async (client) => {
    if (newHash) await updatePasswordHash(client, user.id, newHash);
    const revoked = actor.sessionId ? await revokeSessionsByIds(client, [actor.sessionId]) : [];
    const opened = await deps.sessions.open(client, user.id, actor, now);
    return { opened, revoked };
  });
  await deps.sessions.forget(revoked);
  if (revoked.length) deps.metrics.revokedSessions.inc({ reason: 'login' }, revoked.length);
  await deps.sessions.cacheOpened(opened.cached);
  deps.metrics.logins.inc({ outcome: 'ok' });
  deps.log.info({ userId: user.id, rehashed: newHash !== null }, 'user logged in');
  return { user: presentUser(user), session: opened.grant };
}
