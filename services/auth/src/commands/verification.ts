/** Email verification: (re)send the mail with its 5-minute wait, and confirm from the mailed link. */
import { appendEvent, withTransaction } from '@wb/platform';
import { AppError, AUTH_REDIRECTS, VERIFICATION_RESEND_WAIT_MS } from '@wb/proto';
import type { NoticeCode, RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { markTokenUsed } from '../repositories/tokens';
import { findUserById, setVerificationSentAt, updateEmailStatus } from '../repositories/users';
import { SCHEMA } from './deps';
import type { AuthDeps } from './deps';
import { lockLinkToken, payloadString } from './linkTokens';

/** → the notice to show; ERR_VERIFICATION_WAIT when the last mail went out less than 5 minutes ago */
export async function sendVerification(deps: AuthDeps, actor: RequestActor): Promise<NoticeCode> {
  const userId = requireUserId(actor);
  const now = deps.now();
  return withTransaction(deps.pool, async (client) => {
    const user = await findUserById(client, userId, { forUpdate: true });
    if (!user) throw new AppError('ERR_UNAUTHORIZED');
    if (user.email_status === 'verified') return 'ALREADY_VERIFIED';
    const sent = user.verification_sent_at?.getTime();
    if (sent !== undefined && now.getTime() - sent < VERIFICATION_RESEND_WAIT_MS)
      throw new AppError('ERR_VERIFICATION_WAIT');
    await setVerificationSentAt(client, userId, now);
    // queued before the commit: if Redis refuses, the wait is not started for a mail never sent
    await deps.mail.enqueue({ kind: 'verify_email', userId, email: user.email });
    return 'VERIFICATION_EMAIL_SENT';
  });
}

/** → the page to send the browser to */
export async function confirmVerification(deps: AuthDeps, rawToken: string | undefined): Promise<string> {
  const now = deps.now();
  return withTransaction(deps.pool, async (client) => {
    const found = await lockLinkToken(client, rawToken, 'verify_email', now);
    if (found.status === 'invalid') return AUTH_REDIRECTS.invalidVerificationLink;
    const user = await findUserById(client, found.token.user_id, { forUpdate: true });
    // a link sent to an address the account no longer has proves nothing about the current one
    if (!user || user.email !== payloadString(found.token, 'email')) return AUTH_REDIRECTS.invalidVerificationLink;
    if (found.status === 'used') {
      // clicking the same link twice is not an error when it already did its job
      return user.email_status === 'verified' ? AUTH_REDIRECTS.emailVerified : AUTH_REDIRECTS.invalidVerificationLink;
    }
    await markTokenUsed(client, found.token.id);
    if (user.email_status !== 'verified') {
      await updateEmailStatus(client, user.id, 'verified');
      await appendEvent(client, SCHEMA, 'auth.user.email_verified.v1', { userId: user.id, email: user.email });
      deps.log.info({ userId: user.id }, 'email verified');
    }
    return AUTH_REDIRECTS.emailVerified;
  });
}
