/** A real SMTP server (smtp-server) on a free loopback port collecting mails for tests. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { extractLinks } from '../mailer';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  /** absolute http(s) links found in the body */
  links: string[];
  /** the HTML body, when the mail has one */
  html?: string;
  /** the message as received (for assertions on encoding) */
  raw?: string;
}
export interface SmtpCatcher {
  /** smtp://127.0.0.1:<port> to pass as SMTP_URL */
  url: string;
  mails: ReceivedMail[];
  /**
   * resolve with the first mail to `to` matching `subject` (substring/regex) arriving within
   * timeoutMs (default 10 s). Mails already received count; a mail returned by one waitFor is
   * not returned again, so waiting twice for the same subject waits for a second mail.
   */
  waitFor(to: string, subject?: string | RegExp, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// A small MIME reader: enough for what nodemailer (and most mailers) produce — headers with
// folding and RFC 2047 encoded words, multipart nesting, quoted-printable/base64/8bit bodies.

interface Part {
  headers: Map<string, string>;
  /** latin1 string holding the raw body bytes */
  body: string;
}

function splitPart(raw: string): Part {
  const m = /\r?\n\r?\n/.exec(raw);
  const head = m ? raw.slice(0, m.index) : raw;
  const body = m ? raw.slice(m.index + m[0].length) : '';
  const headers = new Map<string, string>();
  // Unfold: a line starting with whitespace continues the previous header.
  const lines = head.split(/\r?\n/);
  let current: string | undefined;
  const flush = (): void => {
    if (current === undefined) return;
    const i = current.indexOf(':');
    if (i > 0) {
      const key = current.slice(0, i).trim().toLowerCase();
      // The first occurrence wins (Received: and friends repeat; the ones we need do not).
      if (!headers.has(key)) headers.set(key, current.slice(i + 1).trim());
    }
  };
  for (const line of lines) {
    if (/^[ \t]/.test(line) && current !== undefined) current += ` ${line.trim()}`;
    else {
      flush();
      current = line;
    }
  }
  flush();
  return { headers, body };
}

function headerParams(value: string): { value: string; params: Record<string, string> } {
  const first = value.split(';')[0] ?? '';
  const params: Record<string, string> = {};
  // Scan the whole value: quoted parameter values may contain ';'.
  const re = /;\s*([A-Za-z0-9_*.-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (const m of value.matchAll(re)) {
    let v = m[2]!.trim();
    if (v.startsWith('"')) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
    params[m[1]!.toLowerCase()] = v;
  }
  return { value: first.trim().toLowerCase(), params };
}

function bytesToString(bytes: Buffer, charset = 'utf-8'): string {
  try {
    return new TextDecoder(charset.toLowerCase()).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

export function decodeQuotedPrintable(input: string): Buffer {
  const s = input.replace(/[ \t]+(\r?\n)/g, '$1').replace(/=\r?\n/g, '');
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      out.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else out.push(s.charCodeAt(i) & 0xff);
  }
  return Buffer.from(out);
}

/** RFC 2047 encoded words (=?charset?Q|B?…?=), as nodemailer writes non-ASCII subjects. */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?[^?]+\?[QqBb]\?[^?]*\?=)/g, '$1')
    .replace(/=\?([^?*]+)(?:\*[^?]*)?\?([QqBb])\?([^?]*)\?=/g, (_all, charset: string, enc: string, text: string) => {
      const bytes =
        enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : decodeQuotedPrintable(text.replace(/_/g, ' '));
      return bytesToString(bytes, charset);
    });
}

function decodeBody(part: Part): string {
  const cte = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase().trim();
  const charset = headerParams(part.headers.get('content-type') ?? 'text/plain').params.charset ?? 'utf-8';
  let bytes: Buffer;
  if (cte === 'base64') bytes = Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
  else if (cte === 'quoted-printable') bytes = decodeQuotedPrintable(part.body);
  else bytes = Buffer.from(part.body, 'latin1');
  return bytesToString(bytes, charset);
}

/** Leaves of the MIME tree that are inline text/plain or text/html, in order. */
function textLeaves(part: Part, out: Array<{ type: string; text: string }>, depth = 0): void {
  const ct = headerParams(part.headers.get('content-type') ?? 'text/plain; charset=us-ascii');
  if (ct.value.startsWith('multipart/') && ct.params.boundary && depth < 10) {
    const open = `--${ct.params.boundary}`;
    const close = `${open}--`;
    let current: string[] | null = null; // null: preamble (before the first delimiter)
    for (const line of part.body.split(/\r?\n/)) {
      const l = line.trimEnd();
      if (l === close) break; // what follows is the epilogue
      if (l === open) {
        if (current) textLeaves(splitPart(current.join('\r\n')), out, depth + 1);
        current = [];
      } else current?.push(line);
    }
    if (current) textLeaves(splitPart(current.join('\r\n')), out, depth + 1);
    return;
  }
  if (/^attachment/i.test(part.headers.get('content-disposition') ?? '')) return;
  if (ct.value === 'text/plain' || ct.value === 'text/html') out.push({ type: ct.value, text: decodeBody(part) });
}

function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>/gi, ' $1 ')
    .replace(/<br\s*\/?>|<\/p>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function addressesOf(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((a) => {
      const m = /<([^>]+)>/.exec(a);
      return (m ? m[1]! : a).trim();
    })
    .filter(Boolean);
}

/** Parse one received RFC 822 message (bytes as received). */
export function parseMail(raw: Buffer, envelope?: { from?: string; to?: string[] }): ReceivedMail {
  const latin1 = raw.toString('latin1');
  const top = splitPart(latin1);
  // Header bytes may be raw UTF-8 (SMTPUTF8); re-read them as such before decoding words.
  const header = (k: string): string | undefined => {
    const v = top.headers.get(k);
    return v === undefined ? undefined : decodeEncodedWords(Buffer.from(v, 'latin1').toString('utf8'));
  };
  const leaves: Array<{ type: string; text: string }> = [];
  textLeaves(top, leaves);
  const plain = leaves.find((l) => l.type === 'text/plain');
  const html = leaves.find((l) => l.type === 'text/html');
  const text = plain ? plain.text : html ? htmlToText(html.text) : '';
  const to = envelope?.to?.length ? envelope.to : addressesOf(header('to'));
  return {
    to: to.map((a) => a.toLowerCase()),
    from: addressesOf(header('from'))[0] ?? envelope?.from ?? '',
    subject: header('subject') ?? '',
    text,
    links: extractLinks(text),
    ...(html ? { html: html.text } : {}),
    raw: raw.toString('utf8'),
  };
}

// ---------------------------------------------------------------------------------------------

export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 25 * 1024 * 1024,
    onAuth(_auth, _session, cb) {
      cb(null, { user: 'test' });
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', (err) => cb(err));
      stream.on('end', () => {
        try {
          const mailFrom = session.envelope.mailFrom;
          const mail = parseMail(Buffer.concat(chunks), {
            from: mailFrom ? mailFrom.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
          });
          mails.push(mail);
          for (const w of [...waiters]) w();
          cb();
        } catch (err) {
          cb(err as Error);
        }
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  const matches = (mail: ReceivedMail, to: string, subject?: string | RegExp): boolean =>
    !taken.has(mail) &&
    mail.to.includes(to.toLowerCase()) &&
    (subject === undefined ||
      (typeof subject === 'string' ? mail.subject.includes(subject) : subject.test(mail.subject)));

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor(to, subject, timeoutMs = 10_000) {
      return new Promise<ReceivedMail>((resolve, reject) => {
        const check = (): boolean => {
          const mail = mails.find((m) => matches(m, to, subject));
          if (!mail) return false;
          taken.add(mail);
          resolve(mail);
          return true;
        };
        if (check()) return;
        const waiter = (): void => {
          if (check()) {
            clearTimeout(timer);
            waiters.delete(waiter);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const seen = mails.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none';
          reject(
            new Error(
              `no mail to ${to}${subject ? ` matching ${String(subject)}` : ''} within ${timeoutMs} ms (received: ${seen})`,
            ),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
