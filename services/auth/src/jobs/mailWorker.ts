/**
 * Processes 'auth-mail' jobs: creates the link token (hashed in PostgreSQL), renders the mail and
 * sends it. A job for an address the account no longer has (or a verification for an already
 * verified one) is skipped, so retried or late jobs never mail stale links.
 */
import type { Logger, Mail, Mailer, Pool } from '@wb/platform';
import { AUTH_LINK_PATHS } from '@wb/proto';
import { expiryFor, hashLinkToken, newLinkToken, signUnsubscribeToken } from '../domain/tokens';
import type { TokenPurpose } from '../domain/tokens';
import type { AuthEnv } from '../env';
import type { AuthMetrics } from '../metrics';
import { insertToken } from '../repositories/tokens';
import { findUserById } from '../repositories/users';
import type { MailJob } from './mailJobs';
import { changeEmailConfirmMail, changeEmailRevertMail, recoveryMail, verificationMail } from './mailTemplates';

export interface MailWorkerDeps {
  pool: Pool;
  mailer: Mailer;
  env: Pick<AuthEnv, 'APP_URL' | 'AUTH_TOKEN_SECRET'>;
  log: Logger;
  metrics: AuthMetrics;
  now(): Date;
}

export async function processMailJob(deps: MailWorkerDeps, job: MailJob): Promise<'sent' | 'skipped'> {
  const user = await findUserById(deps.pool, job.userId);
  const link = (path: string, token: string): string => `${deps.env.APP_URL}${path}?token=${encodeURIComponent(token)}`;
  const unsubscribe = link(AUTH_LINK_PATHS.unsubscribe, signUnsubscribeToken(job.userId, deps.env.AUTH_TOKEN_SECRET));

  const issue = async (purpose: TokenPurpose, payload: Record<string, unknown>): Promise<string> => {
    const token = newLinkToken();
    await insertToken(deps.pool, {
      id: hashLinkToken(token),
      userId: job.userId,
      purpose,
      payload,
      expiresAt: expiryFor(purpose, deps.now()),
    });
    return token;
  };

  let mail: Mail | null = null;
  switch (job.kind) {
    case 'verify_email':
      if (user && user.email === job.email && user.email_status !== 'verified') {
        const token = await issue('verify_email', { email: job.email });
        mail = verificationMail(job.email, user.name, {
          action: link(AUTH_LINK_PATHS.verifyEmail, token),
          unsubscribe,
        });
      }
      break;
    case 'password_recovery':
      if (user && user.email === job.email) {
        const token = await issue('password_recovery', { email: job.email });
        mail = recoveryMail(job.email, user.name, {
          action: link(AUTH_LINK_PATHS.passwordRecovery, token),
          unsubscribe,
        });
      }
      break;
    case 'change_email_confirm':
      if (user && user.email === job.oldEmail) {
        const token = await issue('change_email', { oldEmail: job.oldEmail, newEmail: job.newEmail });
        mail = changeEmailConfirmMail(job.newEmail, user.name, {
          action: link(AUTH_LINK_PATHS.changeEmailConfirm, token),
          unsubscribe,
        });
      }
      break;
    case 'change_email_revert':
      // sent even if the change was confirmed already: the old owner must be able to undo it
      if (user) {
        const token = await issue('revert_email_change', {
          oldEmail: job.oldEmail,
          newEmail: job.newEmail,
          oldStatus: job.oldStatus,
        });
        mail = changeEmailRevertMail(job.oldEmail, user.name, job.newEmail, {
          action: link(AUTH_LINK_PATHS.changeEmailRevert, token),
          unsubscribe,
        });
      }
      break;
  }
  if (!mail) {
    deps.metrics.mails.inc({ kind: job.kind, outcome: 'skipped' });
    deps.log.info({ kind: job.kind, userId: job.userId }, 'mail job skipped: the account changed since it was queued');
    return 'skipped';
  }
  try {
    await deps.mailer.send(mail);
  } catch (err) {
    deps.metrics.mails.inc({ kind: job.kind, outcome: 'failed' });
    throw err;
  }
  deps.metrics.mails.inc({ kind: job.kind, outcome: 'sent' });
  return 'sent';
}
