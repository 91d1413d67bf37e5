/**
 * Change of email address in two links: one to the NEW address confirms the change (and, being
 * clicked from that inbox, verifies it); one to the OLD address reverts it and ends every
 * session, in case someone else started it with a stolen password.
 */
import { appendEvent, withTransaction } from '@wb/platform';
import { AppError, AUTH_REDIRECTS } from '@wb/proto';
import type { RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { isUniqueViolation } from '../repositories/db';
import { revokeUserSessions } from '../repositories/sessions';
import { invalidateUserTokens, markTokenUsed } from '../repositories/tokens';
import { emailInUse, findUserById, updateEmail } from '../repositories/users';
import type { EmailStatus } from '../repositories/users';
import { checkNewEmail } from './accountRules';
import { SCHEMA } from './deps';
import type { AuthDeps } from './deps';
import { lockLinkToken, payloadString } from './linkTokens';

export async function startEmailChange(
  deps: AuthDeps,
  input: { email: string; password: string },
  actor: RequestActor,
): Promise<void> {
  const userId = requireUserId(actor);
  const newEmail = checkNewEmail(input.email, deps.throwaway);
  const user = await findUserById(deps.pool, userId);
  if (!user) throw new AppError('ERR_UNAUTHORIZED');
  if (!user.password_hash || !(await deps.hasher.verify(input.password, user.password_hash)).ok) {
    throw new AppError('ERR_INVALID_CREDENTIALS', undefined, { password: 'wrong password' });
  }
  // only after the password: whether an address is registered is not for strangers to learn
  if (newEmail === user.email)
    throw new AppError('ERR_INVALID_INPUT', 'This is already your email address', {
      email: 'same as the current address',
    });
  if (await emailInUse(deps.pool, newEmail, userId))
    throw new AppError('ERR_EMAIL_TAKEN', undefined, { email: 'already registered' });

  await deps.mail.enqueue({ kind: 'change_email_confirm', userId, oldEmail: user.email, newEmail });
  await deps.mail.enqueue({
    kind: 'change_email_revert',
    userId,
    oldEmail: user.email,
    newEmail,
    oldStatus: user.email_status,
  });
  deps.log.info({ userId }, 'email change started');
}

/** → the page to send the browser to */
export async function confirmEmailChange(deps: AuthDeps, rawToken: string | undefined): Promise<string> {
  const invalid = AUTH_REDIRECTS.invalidVerificationLink;
  try {
    return await withTransaction(deps.pool, async (client) => {
      const found = await lockLinkToken(client, rawToken, 'change_email', deps.now());
      if (found.status === 'invalid') return invalid;
      const newEmail = payloadString(found.token, 'newEmail');
      const oldEmail = payloadString(found.token, 'oldEmail');
      const user = await findUserById(client, found.token.user_id, { forUpdate: true });
      if (!user || !newEmail) return invalid;
      if (found.status === 'used') return user.email === newEmail ? AUTH_REDIRECTS.changeEmailSuccess : invalid;
      // the address changed again since this link was sent: it no longer describes the account
      if (user.email !== oldEmail) return invalid;
      if (await emailInUse(client, newEmail, user.id)) return invalid;
      await markTokenUsed(client, found.token.id);
      await updateEmail(client, user.id, newEmail, 'verified');
      await appendEvent(client, SCHEMA, 'auth.user.email_verified.v1', { userId: user.id, email: newEmail });
      deps.log.info({ userId: user.id }, 'email change confirmed');
      return AUTH_REDIRECTS.changeEmailSuccess;
    });
  } catch (err) {
    if (isUniqueViolation(err)) return invalid; // someone registered the address a moment ago
    throw err;
  }
}

/** → the page to send the browser to */
export async function revertEmailChange(deps: AuthDeps, rawToken: string | undefined): Promise<string> {
  const invalid = AUTH_REDIRECTS.invalidVerificationLink;
  try {
    const result = await withTransaction(deps.pool, async (client) => {
      const found = await lockLinkToken(client, rawToken, 'revert_email_change', deps.now());
      if (found.status !== 'ok')
        return { page: found.status === 'used' ? AUTH_REDIRECTS.changeEmailReverted : invalid, revoked: [] };
      const oldEmail = payloadString(found.token, 'oldEmail');
      const oldStatus = (payloadString(found.token, 'oldStatus') ?? 'unverified') as EmailStatus;
      const user = await findUserById(client, found.token.user_id, { forUpdate: true });
      if (!user || !oldEmail) return { page: invalid, revoked: [] };
      // the old address was taken by another account meanwhile: it cannot be given back
      if (await emailInUse(client, oldEmail, user.id)) return { page: invalid, revoked: [] };
      await markTokenUsed(client, found.token.id);
      // a change still waiting for confirmation must not go through after the revert
      await invalidateUserTokens(client, user.id, ['change_email', 'password_recovery', 'verify_email']);
      if (user.email !== oldEmail) await updateEmail(client, user.id, oldEmail, oldStatus);
      const revoked = await revokeUserSessions(client, user.id);
      deps.log.info({ userId: user.id, revokedSessions: revoked.length }, 'email change reverted');
      return { page: AUTH_REDIRECTS.changeEmailReverted, revoked };
    });
    await deps.sessions.forget(result.revoked);
    deps.metrics.revokedSessions.inc({ reason: 'email_revert' }, result.revoked.length);
    return result.page;
  } catch (err) {
    if (isUniqueViolation(err)) return invalid;
    throw err;
  }
}
