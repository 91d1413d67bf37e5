/**
 * Lists the mails the services write to MAIL_OUTBOX_DIR while `make up` runs. The platform's dev
 * mailer writes each mail as `<name>.eml` plus a `<name>.json` summary `{ to, subject, links }`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { c } from './log';
import { ROOT } from './paths';

export interface MailSummary {
  to?: string | string[];
  subject?: string;
  links?: string[];
}

export function describeMail(file: string, summary: MailSummary): string {
  const to = Array.isArray(summary.to) ? summary.to.join(', ') : (summary.to ?? '?');
  const link = summary.links?.[0];
  const eml = file.replace(/\.json$/, '.eml');
  return (
    `${c.bold('✉  mail')} to ${c.bold(to)}: ${summary.subject ?? '(no subject)'}` +
    (link ? `\n   ${c.cyan(link)}` : '') +
    `\n   ${c.gray(relative(ROOT, existsSync(eml) ? eml : file))}`
  );
}

/** Poll `dir` every second and call `onMail` once for every new .json summary. */
export function watchMail(dir: string, onMail: (text: string) => void): () => void {
  mkdirSync(dir, { recursive: true });
  const seen = new Set(readdirSync(dir).filter((f) => f.endsWith('.json')));
  const pending = new Map<string, number>();
  const timer = setInterval(() => {
    let files: string[];
    try {
      files = readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort();
    } catch {
      return;
    }
    for (const f of files) {
      if (seen.has(f)) continue;
      const path = join(dir, f);
      try {
        const summary = JSON.parse(readFileSync(path, 'utf8')) as MailSummary;
        seen.add(f);
        onMail(describeMail(path, summary));
      } catch {
        // probably still being written: retry a few times, then show it as it is
        const tries = (pending.get(f) ?? 0) + 1;
        pending.set(f, tries);
        if (tries >= 5) {
          seen.add(f);
          onMail(describeMail(path, {}));
        }
      }
    }
  }, 1000);
  timer.unref();
  return () => clearInterval(timer);
}
