/**
 * Outgoing mail through nodemailer. SMTP_URL set → SMTP; otherwise each mail is written as an
 * .eml file (plus a .json summary with subject, recipient and links) to MAIL_OUTBOX_DIR, which
 * `make up` lists. Links in mails must be absolute (APP_URL).
 */
import type { Logger } from './logger';
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}
export function createMailer(_opts: { smtpUrl?: string; outboxDir: string; from: string; log: Logger }): Mailer {
  throw new Error('not implemented');
}
