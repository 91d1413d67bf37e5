/**
 * Processes 'teams-mail' jobs. An invitation mail gets a fresh join token (only its hash is
 * stored; several tokens of one invitation all work, so a retried job never breaks a link already
 * delivered); a job for an invitation no longer pending, or a business since closed, is skipped.
 * When auth does not answer (names, the owner's address) the job fails and BullMQ retries it.
 */
import type { Logger, Mail, Mailer, Pool } from '@wb/platform';
import { DEFAULT_LOCALE, LOCALES, TEAM_LINK_PATHS } from '@wb/proto';
import type { Locale } from '@wb/proto';
import type { Directory } from '../commands/deps';
import { hashJoinToken, newJoinToken } from '../commands/tokens';
import type { TeamsEnv } from '../env';
import type { TeamsMetrics } from '../metrics';
import { findBusiness } from '../repositories/businesses';
import { findDetails } from '../repositories/details';
import { findInvitation, insertToken } from '../repositories/invitations';
import { findMembership } from '../repositories/members';
import type { MailJob } from './mailJobs';
import { invitationMail, memberJoinedMail } from './mailTemplates';
import { MAIL_TEXTS } from './mailTexts';

export interface MailWorkerDeps {
  pool: Pool;
  mailer: Mailer;
  directory: Directory;
  env: Pick<TeamsEnv, 'APP_URL'>;
  log: Logger;
  metrics: TeamsMetrics;
}

const asLocale = (v: string | null | undefined): Locale =>
  v && (LOCALES as readonly string[]).includes(v) ? (v as Locale) : DEFAULT_LOCALE;

async function namesOrRetry(deps: MailWorkerDeps, ids: number[]): Promise<Record<string, string>> {
  const names = await deps.directory.namesOf(ids);
  if (!names) throw new Error('names unavailable (auth did not answer); the job is retried');
  return names;
}

async function invitation(deps: MailWorkerDeps, invitationId: number): Promise<Mail | null> {
  const inv = await findInvitation(deps.pool, invitationId);
  if (!inv || inv.status !== 'pending') return null;
  const business = await findBusiness(deps.pool, inv.business_id);
  if (!business || business.closed_at) return null;
  const locale = asLocale(inv.locale);
  const someone = MAIL_TEXTS[locale].someone;
  const names = await namesOrRetry(deps, [inv.invited_by, business.owner_id]);
  const company = (await findDetails(deps.pool, business.owner_id))?.company;
  const token = newJoinToken();
  await insertToken(deps.pool, hashJoinToken(token), inv.id);
  return invitationMail(
    locale,
    {
      inviter: names[String(inv.invited_by)] ?? someone,
      team: company || names[String(business.owner_id)] || someone,
      email: inv.email,
    },
    `${deps.env.APP_URL}${TEAM_LINK_PATHS.joinTeam}?token=${encodeURIComponent(token)}`,
  );
}

async function memberJoined(deps: MailWorkerDeps, businessId: number, memberId: number): Promise<Mail | null> {
  const business = await findBusiness(deps.pool, businessId);
  if (!business || business.closed_at) return null;
  const member = await findMembership(deps.pool, memberId);
  if (!member || member.business_id !== business.id) return null;
  const owner = await deps.directory.userOf(business.owner_id);
  if (!owner) return null;
  const locale = asLocale(await deps.directory.localeOf(owner.id));
  const someone = MAIL_TEXTS[locale].someone;
  const names = await namesOrRetry(deps, [memberId, owner.id]);
  const company = (await findDetails(deps.pool, business.owner_id))?.company;
  return memberJoinedMail(
    locale,
    owner.email,
    {
      member: names[String(memberId)] ?? someone,
      email: member.email ?? '',
      team: company || owner.name,
    },
    `${deps.env.APP_URL}${TEAM_LINK_PATHS.manageTeam}`,
  );
}

export async function processMailJob(deps: MailWorkerDeps, job: MailJob): Promise<'sent' | 'skipped'> {
  const mail =
    job.kind === 'invitation'
      ? await invitation(deps, job.invitationId)
      : await memberJoined(deps, job.businessId, job.memberId);
  if (!mail) {
    deps.metrics.mails.inc({ kind: job.kind, outcome: 'skipped' });
    deps.log.info({ job }, 'mail job skipped: the team changed since it was queued');
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
