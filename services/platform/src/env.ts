/**
 * The one place that reads process.env. Each deployable defines its schema (usually
 * `baseEnvSchema.extend({...})`) and calls `loadEnv(schema)` at start; a bad or missing
 * value stops start-up with ONE message naming every offending variable.
 */
import { resolve } from 'node:path';
import { z } from 'zod';

/** Variables every deployable understands. OTEL_* are read by the OpenTelemetry SDK itself. */
export const baseEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** Prefix for every subject and the event stream name; isolates test runs ("t123.") */
  NATS_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-]+\.)?$/, 'must be empty or like "abc."')
    .default(''),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  /** Prefix for every Redis key and BullMQ queue of this deployment */
  REDIS_PREFIX: z.string().default('wb:'),
  /** Port of the health/readiness/metrics HTTP endpoint (0 = pick a free one) */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(0),
});
export type BaseEnv = z.infer<typeof baseEnvSchema>;

/** `DATABASE_URL` for services that own a schema. */
export const databaseEnvSchema = z.object({
  DATABASE_URL: z.string().default('postgres://postgres@127.0.0.1:5432/whiteboard'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
});

/** empty strings (as compose files and shells often pass them) mean "not set" */
export const optionalEnvString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

/**
 * What a service that sends mail with links needs (auth, teams): where links point, how mail
 * leaves (the platform mailer), and the extra disposable domains both refuse on top of proto's list.
 */
export const mailEnvSchema = z.object({
  /** public origin of the web app and gateway: every link in a mail starts with it */
  APP_URL: z
    .url()
    .default('http://localhost:8080')
    .transform((u) => u.replace(/\/+$/, '')),
  /** smtp(s)://user:pass@host:port; unset → mails are written to MAIL_OUTBOX_DIR */
  SMTP_URL: optionalEnvString,
  MAIL_OUTBOX_DIR: z
    .string()
    .default('.data/mail')
    .transform((p) => resolve(p)),
  MAIL_FROM: z.string().default('Whiteboard <no-reply@whiteboard.local>'),
  /** BullMQ mail worker concurrency */
  MAIL_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(4),
  /** comma-separated extra disposable domains to refuse */
  THROWAWAY_DOMAINS_EXTRA: optionalEnvString.transform((v) =>
    v
      ? v
          .split(',')
          .map((d) => d.trim())
          .filter(Boolean)
      : [],
  ),
});

export class EnvError extends Error {}

/** Parse `source` with `schema`; throw EnvError listing every bad variable (name: problem). */
export function loadEnv<S extends z.ZodType>(
  schema: S,
  source: Record<string, string | undefined> = process.env,
): z.infer<S> {
  const result = schema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new EnvError(`Invalid environment:\n${lines.join('\n')}`);
}
