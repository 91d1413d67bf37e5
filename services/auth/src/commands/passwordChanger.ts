/** Change the password knowing the current one; every OTHER session of the account ends. */
import { withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { revokeUserSessions } from '../repositories/sessions';
import { invalidateUserTokens } from '../repositories/tokens';
import { findUserById, updatePasswordHash } from '../repositories/users';
import type { AuthDeps } from './deps';

export async function changePassword(
  deps: AuthDeps,
  input: { currentPassword: string; newPassword: string },
  actor: RequestActor,
): Promise<void> {
  const userId = requireUserId(actor);
  const user = await findUserById(deps.pool, userId);
  if (!user) throw new AppError('ERR_UNAUTHORIZED');
  if (!user.password_hash || !(await deps.hasher.verify(input.currentPassword, user.password_hash)).ok) {
    throw new AppError('ERR_INVALID_CREDENTIALS', undefined, { currentPassword: 'wrong password' });
  }
  const passwordHash = await deps.hasher.hash(input.newPassword);
  const revoked = await withTransaction(deps.pool, async (client) => {
    await updatePasswordHash(client, userId, passwordHash);
    // a pending recovery link must not undo the change
    await invalidateUserTokens(client, userId, ['password_recovery']);
    return revokeUserSessions(client, userId, actor.sessionId);
  });
  await deps.sessions.forget(revoked);
  deps.metrics.revokedSessions.inc({ reason: 'password_change' }, revoked.length);
  deps.log.info({ userId, revokedSessions: revoked.length }, 'password changed');
}
