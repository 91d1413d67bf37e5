/** The mailer: files in the outbox folder without SMTP; real SMTP into the test catcher. */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { createMailer, extractLinks } from '../src/mailer';
import { parseMail, startSmtpCatcher } from '../src/testing/smtp';
import type { SmtpCatcher } from '../src/testing/smtp';
import { captureLog } from './fixtures';

const { log, lines } = captureLog('info');
// Longer than a 76-character quoted-printable line, with '=' and '&' that QP must escape.
const LONG_LINK = `http://127.0.0.1:5173/verify-email?token=${'a1B2c3D4'.repeat(12)}&next=%2Fboards%2Fabc&sig=x=y`;

describe('without SMTP', () => {
  it('writes an .eml and a .json summary per mail into the outbox folder (created on demand)', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'wb-mail-')), 'nested', 'outbox');
    const mailer = createMailer({ outboxDir: dir, from: 'Whiteboard <no-reply@wb.test>', log });
    await mailer.send({
      to: 'ana@example.com',
      subject: 'Verify your email',
      text: `Hello Ana,\nopen ${LONG_LINK}.\n`,
    });
    await mailer.send({ to: 'bo@example.com', subject: 'Second', text: 'no links here' });
    mailer.close();
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(4);
    const jsons = files.filter((f) => f.endsWith('.json'));
    const summaries = jsons.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>);
    const first = summaries.find((s) => s.to === 'ana@example.com')!;
    expect(first).toMatchObject({
      subject: 'Verify your email',
      links: [LONG_LINK],
      text: `Hello Ana,\nopen ${LONG_LINK}.\n`,
    });
    expect(new Date(first.sentAt as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(jsons[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z-[0-9a-f]{8}\.json$/);
    // The .eml is the real RFC 822 message: parsing it back gives the same text and link.
    const eml = readFileSync(first.eml as string);
    const parsed = parseMail(eml);
    expect(parsed).toMatchObject({
      subject: 'Verify your email',
      from: 'no-reply@wb.test',
      to: ['ana@example.com'],
      links: [LONG_LINK],
    });
    expect(lines.some((l) => l.msg === 'mail written to outbox folder' && l.path === first.eml)).toBe(true);
  });
});

describe('over SMTP into the catcher', () => {
  let catcher: SmtpCatcher;
  beforeAll(async () => {
    catcher = await startSmtpCatcher();
  });
  afterAll(async () => {
    await catcher.close();
  });

  it('delivers a quoted-printable mail whose long link arrives intact', async () => {
    const mailer = createMailer({
      smtpUrl: catcher.url,
      outboxDir: '/nonexistent',
      from: 'Whiteboard <no-reply@wb.test>',
      log,
    });
    const pending = catcher.waitFor('Ana@Example.com', /Bestätige/);
    await mailer.send({
      to: 'ana@example.com',
      subject: 'Bestätige deine E-Mail-Adresse — Whiteboard',
      text: `Hallo Ana, grüß dich!\n\nBitte öffne diesen Link:\n${LONG_LINK}\n\nDanke.`,
      html: `<p>Hallo Ana</p><p><a href="${LONG_LINK.replace(/&/g, '&amp;')}">Bestätigen</a></p>`,
    });
    mailer.close();
    const mail = await pending;
    expect(mail.raw).toMatch(/quoted-printable/i);
    expect(mail.raw).toMatch(/=\r?\n/); // soft line breaks really were used
    expect(mail.subject).toBe('Bestätige deine E-Mail-Adresse — Whiteboard');
    expect(mail.from).toBe('no-reply@wb.test');
    expect(mail.to).toEqual(['ana@example.com']);
    expect(mail.text).toContain('grüß dich');
    expect(mail.links).toEqual([LONG_LINK]);
    expect(mail.html).toContain('Bestätigen');
  });

  it('waitFor returns each mail once and times out with what it saw', async () => {
    const t = nodemailer.createTransport(catcher.url);
    await t.sendMail({ from: 'a@wb.test', to: 'cy@example.com', subject: 'Reset 1', text: 'one https://x.test/1' });
    await t.sendMail({ from: 'a@wb.test', to: 'cy@example.com', subject: 'Reset 2', text: 'two https://x.test/2' });
    t.close();
    expect((await catcher.waitFor('cy@example.com', 'Reset')).links).toEqual(['https://x.test/1']);
    expect((await catcher.waitFor('cy@example.com', 'Reset')).links).toEqual(['https://x.test/2']);
    await expect(catcher.waitFor('cy@example.com', 'Reset', 200)).rejects.toThrow(
      /no mail to cy@example.com .*received: .*Reset 1/,
    );
  });
});

describe('parseMail', () => {
  it('reads base64 parts of nested multiparts and encoded-word headers', () => {
    const raw = [
      'From: "B" <b@wb.test>',
      'To: x@example.com',
      'Subject: =?UTF-8?B?SGVsbG8gV8O2cmxk?=',
      '  =?UTF-8?Q?_again?=',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="outer"',
      '',
      'preamble',
      '--outer',
      'Content-Type: multipart/alternative; boundary=inner',
      '',
      '--inner',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('Grüße: https://wb.test/a?b=c, and (https://wb.test/d).')
        .toString('base64')
        .replace(/(.{20})/g, '$1\r\n'),
      '--inner',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<p>html</p>',
      '--inner--',
      '--outer',
      'Content-Type: text/plain',
      'Content-Disposition: attachment; filename="x.txt"',
      '',
      'not the body',
      '--outer--',
      'epilogue',
    ].join('\r\n');
    const mail = parseMail(Buffer.from(raw, 'utf8'));
    expect(mail.subject).toBe('Hello Wörld again');
    expect(mail.from).toBe('b@wb.test');
    expect(mail.to).toEqual(['x@example.com']);
    expect(mail.text).toBe('Grüße: https://wb.test/a?b=c, and (https://wb.test/d).');
    expect(mail.links).toEqual(['https://wb.test/a?b=c', 'https://wb.test/d']);
    expect(mail.html).toBe('<p>html</p>');
  });

  it('extracts links without trailing punctuation, once each', () => {
    expect(extractLinks('see https://a.test/x. Or http://b.test/y?z=1; again https://a.test/x')).toEqual([
      'https://a.test/x',
      'http://b.test/y?z=1',
    ]);
  });
});
