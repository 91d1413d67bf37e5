/** The auth service's environment: the one place that reads process.env. */
import { z } from 'zod';
import { baseEnvSchema, databaseEnvSchema, loadEnv, mailEnvSchema } from '@wb/platform';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Development-only secret; production refuses to start without AUTH_TOKEN_SECRET. */
const DEV_TOKEN_SECRET = 'dev-only-insecure-auth-token-secret-change-me';

export const authEnvSchema = baseEnvSchema
  .extend(databaseEnvSchema.shape)
  .extend(mailEnvSchema.shape)
  .extend({
    /** HMAC key of the unsubscribe links (≥ 32 chars); required in production */
    AUTH_TOKEN_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(32).optional()),
    /** config flag: new accounts may be created */
    SIGNUP_ENABLED: bool.default(true),
    /** scrypt runs at once (each holds 128 MiB) */
    HASH_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
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
