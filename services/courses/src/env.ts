/** The courses service's environment: the one place that reads process.env. */
import { z } from 'zod';
import { baseEnvSchema, databaseEnvSchema, loadEnv, mailEnvSchema } from '@wb/platform';

// mailEnvSchema: APP_URL (the invitation link is APP_URL/join-course?token=…), SMTP/outbox, mail concurrency
export const coursesEnvSchema = baseEnvSchema
  .extend(databaseEnvSchema.shape)
  .extend(mailEnvSchema.shape)
  .extend({
    /** how long an owner's plan (asked of the auth service) is reused; 0 = ask every time */
    PLAN_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
    /** how long a request to another service (auth, boards, files) may take */
    AUTH_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
    /** how long making a participant's board copy (boards' board.duplicate) may take */
    COURSES_COPY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** courses (summed over users) the GET /api/courses cache may hold; 0 disables it */
    COURSES_LIST_CACHE_MAX: z.coerce.number().int().min(0).max(10_000_000).default(100_000),
  });

export type CoursesEnv = z.infer<typeof coursesEnvSchema>;

export function loadCoursesEnv(source: Record<string, string | undefined> = process.env): CoursesEnv {
  return loadEnv(coursesEnvSchema, source);
}
