/**
 * The text and HTML of every auth mail. Links are absolute (APP_URL). Every mail ends with the
 * product-updates unsubscribe link; account mails themselves cannot be turned off (spec §3).
 */
import type { Mail } from '@wb/platform';

export interface MailLinks {
  /** the action link of this mail */
  action: string;
  unsubscribe: string;
}

const PRODUCT = 'Whiteboard';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function render(
  to: string,
  subject: string,
  name: string,
  paragraphs: string[],
  actionLabel: string,
  links: MailLinks,
  after: string[] = [],
): Mail {
  const footer = `You receive this mail because of your ${PRODUCT} account. To stop product update mails: ${links.unsubscribe}`;
  const text = [
    `Hello ${name},`,
    '',
    ...paragraphs,
    '',
    `${actionLabel}: ${links.action}`,
    '',
    ...after,
    ...(after.length ? [''] : []),
    '--',
    footer,
    '',
  ].join('\n');
  const p = (s: string): string => `<p>${escapeHtml(s)}</p>`;
  const html = [
    `<p>Hello ${escapeHtml(name)},</p>`,
    ...paragraphs.map(p),
    `<p><a href="${escapeHtml(links.action)}">${escapeHtml(actionLabel)}</a></p>`,
    ...after.map(p),
    `<hr><p style="font-size:12px;color:#666">You receive this mail because of your ${PRODUCT} account. <a href="${escapeHtml(links.unsubscribe)}">Unsubscribe from product updates</a></p>`,
  ].join('\n');
  return { to, subject, text, html };
}

export function verificationMail(to: string, name: string, links: MailLinks): Mail {
  return render(
    to,
    `Verify your email address for ${PRODUCT}`,
    name,
    ['Please confirm that this is your email address.'],
    'Verify email address',
    links,
    ['If you did not create an account, you can ignore this mail.'],
  );
}

export function recoveryMail(to: string, name: string, links: MailLinks): Mail {
  return render(
    to,
    `Reset your ${PRODUCT} password`,
    name,
    ['Somebody asked to reset the password of your account. The link works once, for 1 hour.'],
    'Choose a new password',
    links,
    ['If it was not you, ignore this mail: your password stays as it is.'],
  );
}

export function changeEmailConfirmMail(to: string, name: string, links: MailLinks): Mail {
  return render(
    to,
    `Confirm your new email address for ${PRODUCT}`,
    name,
    [`Please confirm that ${to} should become the email address of your account.`],
    'Confirm new email address',
    links,
  );
}

export function changeEmailRevertMail(to: string, name: string, newEmail: string, links: MailLinks): Mail {
  return render(
    to,
    `The email address of your ${PRODUCT} account is being changed`,
    name,
    [
      `Somebody asked to change the email address of your account from ${to} to ${newEmail}.`,
      'If that was not you, undo it: this also logs out every device.',
    ],
    'Undo the change',
    links,
  );
}
