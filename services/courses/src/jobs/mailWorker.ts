/**
 * Processes 'courses-mail' jobs: an invitation mail gets a fresh join token (only its hash is
 * stored; every token of one invitation works, so a retried job never breaks a delivered link).
 * A job for an invitation no longer pending, or a course since deleted, is skipped. When auth does
 * not answer (names) the job fails and BullMQ retries it.
 */
import type { Logger, Mailer, Pool } from '@wb/platform';
import { COURSE_LINK_PATHS, DEFAULT_LOCALE, LOCALES } from '@wb/proto';
import type { Locale } from '@wb/proto';
import type { Directory } from '../commands/deps';
import { hashJoinToken, newJoinToken } from '../commands/tokens';
import type { CoursesEnv } from '../env';
import type { CoursesMetrics } from '../metrics';
import { findCourse } from '../repositories/courses';
import { findInvitation, insertToken } from '../repositories/invitations';
import type { MailJob } from './mailJobs';
import { MAIL_TEXTS } from './mailTexts';

export interface MailWorkerDeps {
  pool: Pool;
  mailer: Mailer;
  directory: Directory;
  env: Pick<CoursesEnv, 'APP_URL'>;
  log: Logger;
  metrics: CoursesMetrics;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function processMailJob(deps: MailWorkerDeps, job: MailJob): Promise<'sent' | 'skipped'> {
  const inv = await findInvitation(deps.pool, job.invitationId);
  const course = inv && inv.status === 'pending' ? await findCourse(deps.pool, inv.course_id) : null;
  if (!inv || !course) {
    deps.metrics.mails.inc({ kind: job.kind, outcome: 'skipped' });
    return 'skipped';
  }
  const locale: Locale = (LOCALES as readonly string[]).includes(inv.locale) ? (inv.locale as Locale) : DEFAULT_LOCALE;
  const t = MAIL_TEXTS[locale];
  const names = await deps.directory.namesOf([inv.invited_by]);
  if (!names) throw new Error('names unavailable (auth did not answer); the job is retried');
  const token = newJoinToken();
  await insertToken(deps.pool, hashJoinToken(token), inv.id);
  const url = `${deps.env.APP_URL}${COURSE_LINK_PATHS.joinCourse}?token=${encodeURIComponent(token)}`;
  const p = { teacher: names[String(inv.invited_by)] ?? t.someone, course: course.name, email: inv.email };
  const paragraphs = [t.hello, t.intro(p), t.howTo(p)];
  try {
    await deps.mailer.send({
      to: inv.email,
      subject: t.subject(p),
      text: [...paragraphs, '', `${t.action}: ${url}`, '', t.ignore, '', '--', t.footer, ''].join('\n'),
      html: [
        ...paragraphs.map((s) => `<p>${escapeHtml(s)}</p>`),
        `<p><a href="${escapeHtml(url)}">${escapeHtml(t.action)}</a></p>`,
        `<p>${escapeHtml(t.ignore)}</p>`,
        `<hr><p style="font-size:12px;color:#666">${escapeHtml(t.footer)}</p>`,
      ].join('\n'),
    });
  } catch (err) {
    deps.metrics.mails.inc({ kind: job.kind, outcome: 'failed' });
    throw err;
  }
  deps.metrics.mails.inc({ kind: job.kind, outcome: 'sent' });
  return 'sent';
}
