/** The teams service's environment: the one place that reads process.env. */
import { resolve } from 'node:path';
import { z } from 'zod';
import { baseEnvSchema, databaseEnvSchema, loadEnv } from '@wb/platform';

/** empty strings (as compose files and shells often pass them) mean "not set" */
const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

export const teamsEnvSchema = baseEnvSchema.extend(databaseEnvSchema.shape).extend({
  /** public origin of the web app: the invitation link is APP_URL/join-team?token=… */
  APP_URL: z
    .url()
    .default('http://localhost:8080')
    .transform((u) => u.replace(/\/+$/, '')),
  /** smtp(s)://user:pass@host:port; unset → mails are written to MAIL_OUTBOX_DIR */
  SMTP_URL: optionalString,
  MAIL_OUTBOX_DIR: z
    .string()
    .default('.data/mail')
    .transform((p) => resolve(p)),
  MAIL_FROM: z.string().default('Whiteboard <no-reply@whiteboard.local>'),
  /** BullMQ mail worker concurrency */
  MAIL_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(4),
  /** comma-separated extra disposable domains to refuse (on top of proto's list; auth reads the same variable) */
  THROWAWAY_DOMAINS_EXTRA: optionalString.transform((v) =>
    v
      ? v
          .split(',')
          .map((d) => d.trim())
          .filter(Boolean)
      : [],
  ),
  /** how long a request to the auth service (names, addresses, locales) may take */
  AUTH_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
});

export type TeamsEnv = z.infer<typeof teamsEnvSchema>;

export function loadTeamsEnv(source: Record<string, string | undefined> = process.env): TeamsEnv {
  return loadEnv(teamsEnvSchema, source);
}
