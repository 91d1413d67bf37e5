/** The conversion worker's environment: the one place that reads process.env. */
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { baseEnvSchema, loadEnv } from '@wb/platform';

const flag = z.enum(['0', '1']).transform((v) => v === '1');

export const converterEnvSchema = baseEnvSchema.extend({
  /** scratch folder for originals being converted and the office profile */
  CONVERT_WORK_DIR: z
    .string()
    .default(join(tmpdir(), 'wb-converter'))
    .transform((p) => resolve(p)),
  /** hard limit of one LibreOffice conversion; past it the office is killed and restarted */
  OFFICE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /** documents an office converts before it is restarted */
  OFFICE_RESTART_EVERY: z.coerce.number().int().min(1).max(1000).default(10),
  /** address-space cap of the office (prlimit --as), MiB */
  OFFICE_MAX_MEMORY_MB: z.coerce.number().int().min(256).max(65_536).default(1536),
  /** start LibreOffice at start-up (1) or on the first office document (0); default 1 in production */
  OFFICE_WARM: flag.optional(),
  /** timeout of one pdfinfo/pdftoppm/mutool call */
  TOOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** largest image accepted, in megapixels */
  MAX_IMAGE_MEGAPIXELS: z.coerce.number().int().min(1).max(268).default(50),
  /** the whole job (every tool): past it everything is killed and the document fails as too slow */
  JOB_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
  /** auto: bubblewrap, else unshare + chroot (root), else none with a loud error log; or force one */
  SANDBOX: z.enum(['auto', 'bwrap', 'unshare', 'none']).default('auto'),
  /** uid/gid the tools run as when the worker runs as root */
  SANDBOX_UID: z.coerce.number().int().min(1).max(4_294_967_294).default(65534),
  /** image jobs (and profile pictures) converted at once; their own lane, never behind documents */
  IMAGE_SLOTS: z.coerce.number().int().min(1).max(32).default(2),
  /** documents converted at once (the office still takes one at a time; PDFs draw in parallel) */
  DOCUMENT_SLOTS: z.coerce.number().int().min(1).max(32).default(2),
  /** processing reports per second at most */
  REPORTS_PER_SECOND: z.coerce.number().min(0.1).max(50).default(4),
});

export type ConverterEnv = z.infer<typeof converterEnvSchema> & { OFFICE_WARM: boolean };

export function loadConverterEnv(source: Record<string, string | undefined> = process.env): ConverterEnv {
  const env = loadEnv(converterEnvSchema, source);
  return { ...env, OFFICE_WARM: env.OFFICE_WARM ?? env.NODE_ENV === 'production' };
}

/** FILES_STORE, FILES_DIR, FILES_BUCKET and S3_*: read by the platform's objectStoreOptionsFromEnv */
export function objectStoreEnv(
  source: Record<string, string | undefined> = process.env,
): Record<string, string | undefined> {
  return source;
}
