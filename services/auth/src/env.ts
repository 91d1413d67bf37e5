/** The auth service's environment: the one place that reads process.env. */
import { resolve } from 'node:path';
import { z } from 'zod';
import { baseEnvSchema, databaseEnvSchema, loadEnv } from '@wb/platform';

/** empty strings (as compose files and shells often pass them) mean "not set" */
const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Development-only secret; production refuses to start without AUTH_TOKEN_SECRET. */
const DEV_TOKEN_SECRET = 'dev-only-insecure-auth-token-secret-change-me';

export const authEnvSchema = baseEnvSchema
  .extend(databaseEnvSchema.shape)
  .extend({
    /** public origin of the web app and gateway: every link in a mail starts with it */
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
    /** comma-separated extra disposable domains to refuse */
    THROWAWAY_DOMAINS_EXTRA: optionalString.transform((v) =>
      v
        ? v
            .split(',')
            .map((d) => d.trim())
            .filter(Boolean)
        : [],
    ),
    /** HMAC key of the unsubscribe links (≥ 32 chars); required in production */
    AUTH_TOKEN_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(32).optional()),
    /** config flag: new accounts may be created */
    SIGNUP_ENABLED: bool.default(true),
    /** scrypt runs at once (each holds 128 MiB) */
    HASH_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
    /** BullMQ mail worker concurrency */
    MAIL_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(4),
    /** user rows kept in memory for page-load reads (invalidated by NOTIFY); 0 disables the cache */
    USER_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
    USER_CACHE_MAX: z.coerce.number().int().min(1).default(100_000),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.AUTH_TOKEN_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['AUTH_TOKEN_SECRET'],
        message: 'required in production (≥ 32 characters)',
      });
    }
  })
  .transform((env) => ({ ...env, AUTH_TOKEN_SECRET: env.AUTH_TOKEN_SECRET ?? DEV_TOKEN_SECRET }));

export type AuthEnv = z.infer<typeof authEnvSchema>;

export function loadAuthEnv(source: Record<string, string | undefined> = process.env): AuthEnv {
  return loadEnv(authEnvSchema, source);
}
