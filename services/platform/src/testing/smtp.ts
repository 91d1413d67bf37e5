/** A real SMTP server (smtp-server) on a free loopback port collecting mails for tests. */
export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  /** absolute http(s) links found in the body */
  links: string[];
}
export interface SmtpCatcher {
  /** smtp://127.0.0.1:<port> to pass as SMTP_URL */
  url: string;
  mails: ReceivedMail[];
  /** resolve with the first mail to `to` matching `subject` (substring/regex) arriving within timeoutMs */
  waitFor(to: string, subject?: string | RegExp, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}
export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  throw new Error('not implemented');
}
