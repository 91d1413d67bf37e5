/**
 * Object store options from environment variables. The files service and the conversion worker
 * use FILES_STORE / FILES_DIR / FILES_BUCKET; realtime passes its own names (SNAPSHOT_STORE,
 * SNAPSHOT_DIR, S3_BUCKET) so its deployments keep working. The S3 connection (S3_ENDPOINT,
 * S3_ACCESS_KEY, S3_SECRET_KEY, S3_REGION) is shared: one MinIO, one bucket per use.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { loadEnv } from '../env';
import type { ObjectStoreOptions } from './types';

export interface ObjectStoreEnvNames {
  /** variable choosing the driver: "fs" or "s3" (default fs) */
  store: string;
  /** variable naming the folder of the fs driver */
  dir: string;
  /** variable naming the bucket of the s3 driver */
  bucket: string;
  /** folder when `dir` is unset (resolved against the working directory) */
  defaultDir: string;
  /** bucket when `bucket` is unset; without one the bucket variable is required for s3 */
  defaultBucket?: string;
}

export const FILES_STORE_ENV_NAMES: ObjectStoreEnvNames = {
  store: 'FILES_STORE',
  dir: 'FILES_DIR',
  bucket: 'FILES_BUCKET',
  defaultDir: './data/files',
  defaultBucket: 'wb-files',
};

/** unset and "" are both "not given" (compose files pass empty strings) */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const bucketName = z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name: 3–63 of a-z 0-9 . -');

/**
 * Options for `openObjectStore`; throws EnvError naming every bad or missing variable (an s3
 * driver without endpoint or keys refuses to start). `env` may be process.env or a service's
 * already-parsed environment (only the variables named here are read).
 */
export function objectStoreOptionsFromEnv(
  env: Readonly<Record<string, unknown>> = process.env,
  names: ObjectStoreEnvNames = FILES_STORE_ENV_NAMES,
): ObjectStoreOptions {
  const schema = z
    .object({
      [names.store]: optional(z.enum(['fs', 's3'])),
      [names.dir]: optional(z.string()),
      [names.bucket]: optional(bucketName),
      S3_ENDPOINT: optional(z.url({ protocol: /^https?$/, error: 'must be http(s)://host[:port]' })),
      S3_ACCESS_KEY: optional(z.string()),
      S3_SECRET_KEY: optional(z.string()),
      S3_REGION: optional(z.string().min(1)),
    })
    .superRefine((v, ctx) => {
      if (v[names.store] !== 's3') return;
      const required: [string, boolean][] = [
        ['S3_ENDPOINT', !v.S3_ENDPOINT],
        [names.bucket, !v[names.bucket] && !names.defaultBucket],
        ['S3_ACCESS_KEY', !v.S3_ACCESS_KEY],
        ['S3_SECRET_KEY', !v.S3_SECRET_KEY],
      ];
      for (const [key, missing] of required) {
        if (missing) ctx.addIssue({ code: 'custom', path: [key], message: `required when ${names.store}=s3` });
      }
    });
  const source = Object.fromEntries(
    [names.store, names.dir, names.bucket, 'S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_REGION'].map((k) => [
      k,
      env[k],
    ]),
  );
  // zod checks the values: a parsed environment holds the same strings process.env did
  const v = loadEnv(schema, source as Record<string, string | undefined>) as Record<string, string | undefined>;
  if (v[names.store] === 's3') {
    return {
      driver: 's3',
      endpoint: v.S3_ENDPOINT!,
      bucket: v[names.bucket] ?? names.defaultBucket!,
      accessKey: v.S3_ACCESS_KEY!,
      secretKey: v.S3_SECRET_KEY!,
      region: v.S3_REGION ?? 'us-east-1',
    };
  }
  return { driver: 'fs', dir: resolve(v[names.dir] ?? names.defaultDir) };
}
