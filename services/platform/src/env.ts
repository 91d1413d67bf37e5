/**
 * The one place that reads process.env. Each deployable defines its schema (usually
 * `baseEnvSchema.extend({...})`) and calls `loadEnv(schema)` at start; a bad or missing
 * value stops start-up with ONE message naming every offending variable.
 */
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
