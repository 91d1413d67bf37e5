/**
 * Outgoing mail through nodemailer. SMTP_URL set → SMTP; otherwise each mail is written as an
 * .eml file (plus a .json summary with subject, recipient and links) to MAIL_OUTBOX_DIR, which
 * `make up` lists. Links in mails must be absolute (APP_URL).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
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

/** What the outbox folder's .json files hold, one per mail. */
export interface OutboxMailSummary {
  to: string;
  subject: string;
  text: string;
  links: string[];
  sentAt: string;
  /** the .eml beside it */
  eml: string;
}

/** Absolute http(s) URLs in a text body, in order, without duplicates or trailing punctuation. */
export function extractLinks(text: string): string[] {
  const found = text.match(/https?:\/\/[^\s<>"'()[\]{}]+/g) ?? [];
  const links = found.map((l) => l.replace(/[.,;:!?]+$/, ''));
  return [...new Set(links)];
}

export function createMailer(opts: { smtpUrl?: string; outboxDir: string; from: string; log: Logger }): Mailer {
  const log = opts.log.child({ component: 'mailer' });
  if (opts.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        const info = (await transport.sendMail({
          from: opts.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
        })) as {
          messageId?: string;
        };
        log.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent');
      },
      close() {
        transport.close();
      },
    };
  }

  // No SMTP server: render the exact RFC 822 message nodemailer would send and keep it on disk.
  const dir = resolve(opts.outboxDir);
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = (await transport.sendMail({
        from: opts.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
      })) as {
        message: Buffer;
      };
      await mkdir(dir, { recursive: true });
      const sentAt = new Date();
      // Sortable by time; the random part keeps two mails of the same millisecond apart.
      const base = `${sentAt.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
      const eml = join(dir, `${base}.eml`);
      const summary: OutboxMailSummary = {
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        links: extractLinks(mail.text),
        sentAt: sentAt.toISOString(),
        eml,
      };
      await writeFile(eml, info.message);
      await writeFile(join(dir, `${base}.json`), `${JSON.stringify(summary, null, 2)}\n`);
      log.info(
        { to: mail.to, subject: mail.subject, path: eml, links: summary.links },
        'mail written to outbox folder',
      );
    },
    close() {
      transport.close();
    },
  };
}
