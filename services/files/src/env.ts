/** The files service's environment: the one place that reads process.env. */
import { z } from 'zod';
import { baseEnvSchema, databaseEnvSchema, loadEnv } from '@wb/platform';

const GIB = 1024 * 1024 * 1024;

/** Development-only key; production refuses to start without FILES_IMAGE_ID_SECRET. */
const DEV_IMAGE_ID_SECRET = 'dev-only-insecure-files-image-id-secret';

export const filesEnvSchema = baseEnvSchema.extend(databaseEnvSchema.shape).extend({
  /** the largest single upload accepted, in bytes (also capped by the person's quota left) */
  MAX_FILE_BYTES: z.coerce.number().int().min(1).default(GIB),
  /** how long an owner's plan (asked of the auth service) is reused; 0 = ask every time */
  PLAN_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  /** how long a failed conversion's row stays, so the uploader's poll sees "Upload failed: …" */
  TOMBSTONE_TTL_MS: z.coerce.number().int().min(1000).default(3_600_000),
  /** how often the repeatable BullMQ job removes expired tombstones */
  TOMBSTONE_CLEANUP_EVERY_MS: z.coerce.number().int().min(1000).default(600_000),
  /** how long POST /display-image waits for its picture to be made */
  DISPLAY_IMAGE_WAIT_MS: z.coerce.number().int().min(100).max(60_000).default(20_000),
  /**
   * Key of the HMAC that names a document's images (issue 25 §4: page-image URLs do not reveal
   * the content hash). Production refuses to start without it; changing it orphans served URLs.
   */
  FILES_IMAGE_ID_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(32).optional()),
  /** stored objects no record points at are removed once they are this old (orphan sweep) */
  ORPHAN_GRACE_MS: z.coerce.number().int().min(60_000).default(3_600_000),
  // FILES_STORE, FILES_DIR, FILES_BUCKET, S3_* are read by the platform's objectStoreOptionsFromEnv
});

export type FilesEnv = Omit<z.infer<typeof filesEnvSchema>, 'FILES_IMAGE_ID_SECRET'> & {
  FILES_IMAGE_ID_SECRET: string;
};

export function loadFilesEnv(source: Record<string, string | undefined> = process.env): FilesEnv {
  const env = loadEnv(filesEnvSchema, source);
  if (env.NODE_ENV === 'production' && !env.FILES_IMAGE_ID_SECRET)
    throw new Error('FILES_IMAGE_ID_SECRET is required in production (at least 32 characters)');
  return { ...env, FILES_IMAGE_ID_SECRET: env.FILES_IMAGE_ID_SECRET ?? DEV_IMAGE_ID_SECRET };
}

/** the object-storage variables, for the platform's objectStoreOptionsFromEnv (it validates them) */
const OBJECT_STORE_VARS = [
  'FILES_STORE',
  'FILES_DIR',
  'FILES_BUCKET',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY',
  'S3_SECRET_KEY',
  'S3_REGION',
] as const;
export function objectStoreEnv(
  source: Record<string, string | undefined> = process.env,
): Record<string, string | undefined> {
  return Object.fromEntries(OBJECT_STORE_VARS.map((k) => [k, source[k]]));
}
