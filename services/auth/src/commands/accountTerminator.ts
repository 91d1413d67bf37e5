/**
 * Terminate the account: the typed phrase must match; the owner of an open business account must
 * close it first (spec §6, asked of the teams service: ERR_CANT_TERMINATE_OWNER, or
 * ERR_TEMPORARY_PROBLEM when teams does not answer); personal data is erased (the row stays,
 * anonymised, so ids held by other services still resolve), links and sessions die, and
 * auth.user.terminated.v1 tells the other services to clean up their side (teams closes a business
 * opened in the moment between its answer and the termination, and frees the user's licence).
 */
import { appendEvent, withTransaction } from '@wb/platform';
import { AppError, TERMINATE_CONFIRMATION_PHRASE } from '@wb/proto';
import type { RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { revokeUserSessions } from '../repositories/sessions';
import { deleteUserTokens } from '../repositories/tokens';
import { anonymiseUser, findUserById } from '../repositories/users';
import { SCHEMA } from './deps';
import type { AuthDeps } from './deps';

export async function terminateAccount(
  deps: AuthDeps,
  input: { confirmation: string },
  actor: RequestActor,
): Promise<void> {
  const userId = requireUserId(actor);
  if (input.confirmation.trim() !== TERMINATE_CONFIRMATION_PHRASE) {
    throw new AppError('ERR_CONFIRMATION_FAILED', undefined, { confirmation: `type ${TERMINATE_CONFIRMATION_PHRASE}` });
  }
  if (await deps.teams.ownsBusiness(userId)) throw new AppError('ERR_CANT_TERMINATE_OWNER');
  const revoked = await withTransaction(deps.pool, async (client) => {
    const user = await findUserById(client, userId, { forUpdate: true });
    if (!user) throw new AppError('ERR_UNAUTHORIZED');
    await anonymiseUser(client, userId);
    await deleteUserTokens(client, userId);
    const revoked = await revokeUserSessions(client, userId);
    await appendEvent(client, SCHEMA, 'auth.user.terminated.v1', { userId });
    return revoked;
  });
  await deps.sessions.forget(revoked);
  deps.metrics.revokedSessions.inc({ reason: 'terminate' }, revoked.length);
  deps.log.info({ userId }, 'account terminated');
}
