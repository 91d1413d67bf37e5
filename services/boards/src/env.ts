/** The boards service's environment: the one place that reads process.env. */
import { z } from 'zod';
import { baseEnvSchema, databaseEnvSchema, loadEnv } from '@wb/platform';

export const boardsEnvSchema = baseEnvSchema.extend(databaseEnvSchema.shape).extend({
  /** public origin of the web app: share links are APP_URL/boards/<id> */
  APP_URL: z
    .url()
    .default('http://localhost:8080')
    .transform((u) => u.replace(/\/+$/, '')),
  /** how long an owner's plan (asked of the auth service) is reused; 0 = ask every time */
  PLAN_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  /** boards (summed over users) the board-list cache may hold; 0 disables it */
  LIST_CACHE_MAX_BOARDS: z.coerce.number().int().min(0).default(200_000),
  /** how often the repeatable BullMQ job purges boards trashed more than 30 days ago */
  TRASH_PURGE_EVERY_MS: z.coerce.number().int().min(1000).default(3_600_000),
  /** boards deleted per purge transaction */
  TRASH_PURGE_BATCH: z.coerce.number().int().min(1).max(5000).default(500),
  /** how long a realtime node may take to copy a board's content (board.duplicate; below courses' COURSES_COPY_TIMEOUT_MS) */
  CONTENT_COPY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8000),
});

export type BoardsEnv = z.infer<typeof boardsEnvSchema>;

export function loadBoardsEnv(source: Record<string, string | undefined> = process.env): BoardsEnv {
  return loadEnv(boardsEnvSchema, source);
}
