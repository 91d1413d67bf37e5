/** The text and HTML of the teams mails, from the texts of mailTexts.ts. Links are absolute (APP_URL). */
import type { Mail } from '@wb/platform';
import type { Locale } from '@wb/proto';
import { MAIL_TEXTS } from './mailTexts';
import type { InvitationParams, JoinedParams } from './mailTexts';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function render(
  locale: Locale,
  to: string,
  subject: string,
  paragraphs: string[],
  action: { label: string; url: string },
  after: string[] = [],
): Mail {
  const t = MAIL_TEXTS[locale];
  const text = [
    t.hello,
    '',
    ...paragraphs,
    '',
    `${action.label}: ${action.url}`,
    '',
    ...after,
    ...(after.length ? [''] : []),
    '--',
    t.footer,
    '',
  ].join('\n');
  const p = (s: string): string => `<p>${escapeHtml(s)}</p>`;
  const html = [
    p(t.hello),
    ...paragraphs.map(p),
    `<p><a href="${escapeHtml(action.url)}">${escapeHtml(action.label)}</a></p>`,
    ...after.map(p),
    `<hr><p style="font-size:12px;color:#666">${escapeHtml(t.footer)}</p>`,
  ].join('\n');
  return { to, subject, text, html };
}

export function invitationMail(locale: Locale, params: InvitationParams, joinUrl: string): Mail {
  const t = MAIL_TEXTS[locale];
  return render(
    locale,
    params.email,
    t.invitationSubject(params),
    [t.invitationIntro(params), t.invitationHowTo(params)],
    { label: t.invitationAction, url: joinUrl },
    [t.invitationIgnore],
  );
}

export function memberJoinedMail(locale: Locale, to: string, params: JoinedParams, teamUrl: string): Mail {
  const t = MAIL_TEXTS[locale];
  return render(locale, to, t.joinedSubject(params), [t.joinedBody(params)], { label: t.joinedAction, url: teamUrl });
}
