/**
 * Password recovery. Requesting always answers OK (an unknown address gets no mail, and the
 * caller cannot tell); the mailed link is single-use and valid 1 hour; completing it sets the
 * password and ends every session of the account.
 */
import { withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import { isValidEmail, normalizeEmail } from '../domain/email';
import { checkToken, hashLinkToken, looksLikeLinkToken } from '../domain/tokens';
import { revokeUserSessions } from '../repositories/sessions';
import { findToken, invalidateUserTokens, markTokenUsed } from '../repositories/tokens';
import { claimRecoveryMail, findUserByEmail, findUserById, updatePasswordHash } from '../repositories/users';
import type { AuthDeps } from './deps';
import { lockLinkToken, payloadString } from './linkTokens';

/** at most one recovery mail per account per minute, however often the form is sent */
const RECOVERY_MAIL_GAP_MS = 60 * 1000;

export async function requestPasswordRecovery(deps: AuthDeps, rawEmail: string): Promise<void> {
  const email = normalizeEmail(rawEmail);
  if (!isValidEmail(email)) return;
  const user = await findUserByEmail(deps.pool, email);
  if (!user) {
    deps.log.info('password recovery requested for an unknown address');
    return;
  }
  if (!(await claimRecoveryMail(deps.pool, user.id, deps.now(), RECOVERY_MAIL_GAP_MS))) {
    deps.log.info({ userId: user.id }, 'password recovery mail already sent within the last minute');
    return;
  }
  await deps.mail.enqueue({ kind: 'password_recovery', userId: user.id, email: user.email });
}

export async function completePasswordRecovery(
  deps: AuthDeps,
  input: { token: string; password: string },
): Promise<void> {
  if (!looksLikeLinkToken(input.token)) throw new AppError('ERR_INVALID_TOKEN');
  // check before hashing so bad tokens cost no scrypt time; re-checked under lock below
  const peek = await findToken(deps.pool, hashLinkToken(input.token));
  if (
    !peek ||
    checkToken(
      { purpose: peek.purpose, expiresAt: peek.expires_at, usedAt: peek.used_at },
      'password_recovery',
      deps.now(),
    ) !== 'ok'
  ) {
    throw new AppError('ERR_INVALID_TOKEN');
  }
  const passwordHash = await deps.hasher.hash(input.password);

  const { userId, revoked } = await withTransaction(deps.pool, async (client) => {
    const found = await lockLinkToken(client, input.token, 'password_recovery', deps.now());
    if (found.status !== 'ok') throw new AppError('ERR_INVALID_TOKEN');
    const user = await findUserById(client, found.token.user_id, { forUpdate: true });
    // sent to an address the account no longer has: not proof of owning the account
    if (!user || user.email !== payloadString(found.token, 'email')) throw new AppError('ERR_INVALID_TOKEN');
    await updatePasswordHash(client, user.id, passwordHash);
    await markTokenUsed(client, found.token.id);
    await invalidateUserTokens(client, user.id, ['password_recovery']);
    const revoked = await revokeUserSessions(client, user.id);
    return { userId: user.id, revoked };
  });
  await deps.sessions.forget(revoked);
  deps.metrics.revokedSessions.inc({ reason: 'recovery' }, revoked.length);
  deps.log.info({ userId, revokedSessions: revoked.length }, 'password reset through recovery link');
}
