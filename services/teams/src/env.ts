/** The teams service's environment: the one place that reads process.env. */
import { z } from 'zod';
import { baseEnvSchema, databaseEnvSchema, loadEnv, mailEnvSchema } from '@wb/platform';

// mailEnvSchema: APP_URL (the invitation link is APP_URL/join-team?token=…), SMTP/outbox, throwaway domains
export const teamsEnvSchema = baseEnvSchema
  .extend(databaseEnvSchema.shape)
  .extend(mailEnvSchema.shape)
  .extend({
    /** how long a request to the auth service (names, addresses, locales) may take */
    AUTH_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
  });

export type TeamsEnv = z.infer<typeof teamsEnvSchema>;

export function loadTeamsEnv(source: Record<string, string | undefined> = process.env): TeamsEnv {
  return loadEnv(teamsEnvSchema, source);
}
