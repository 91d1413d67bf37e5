/** The realtime node's environment: the one place that reads process.env. */
import { resolve } from 'node:path';
import { z } from 'zod';
import { baseEnvSchema, databaseEnvSchema, loadEnv } from '@wb/platform';
import { REALTIME_DEV_SHARED_SECRET } from '@wb/proto';

/** unset and "" are both "not given" */
function optionalString<T extends z.ZodType<string>>(schema: T) {
  return z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
}

export const realtimeEnvSchema = baseEnvSchema
  .extend(databaseEnvSchema.shape)
  .extend({
    /** websocket port of this node (0 = pick a free one) */
    RT_PORT: z.coerce.number().int().min(0).max(65535).default(4100),
    /** unique per node; the registry and leases use it */
    RT_NODE_ID: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/)
      .default('rt-1'),
    /** how the gateway reaches this node; default ws://127.0.0.1:<RT_PORT> */
    RT_PUBLIC_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    /**
     * HMAC key shared with the gateway for the x-wb-actor header (≥ 32 chars); required in
     * production. Without it (or with the public development value) the node listens on 127.0.0.1
     * only: anyone who can reach it could sign any actor with that public key.
     */
    RT_SHARED_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(32).optional()),
    /** how often connected sessions are re-checked against the session cache / auth (SPEC A5) */
    RT_SESSION_CHECK_MS: z.coerce.number().int().min(200).default(5000),
    /** K1: ping every socket this often; one silent for a whole round is dropped (0: no heartbeat) */
    RT_HEARTBEAT_MS: z.coerce
      .number()
      .int()
      .refine((v) => v === 0 || (v >= 500 && v <= 60_000), '0 (off) or 500–60000 ms')
      .default(4000),
    /** comma-separated browser origins allowed on the upgrade (a missing Origin is a non-browser client) */
    RT_ALLOWED_ORIGINS: z
      .string()
      .default('http://localhost:8080,http://localhost:5173')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    /** where snapshots go (SPEC P5): the filesystem at SNAPSHOT_DIR, or an S3-compatible bucket */
    SNAPSHOT_STORE: z.enum(['fs', 's3']).default('fs'),
    SNAPSHOT_DIR: z
      .string()
      .default('.data/snapshots')
      .transform((p) => resolve(p)),
    /** S3 API of the bucket, http(s)://host[:port] (SNAPSHOT_STORE=s3) */
    S3_ENDPOINT: optionalString(z.url({ protocol: /^https?$/ })),
    S3_BUCKET: optionalString(
      z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name: 3–63 of a-z 0-9 . -'),
    ),
    S3_ACCESS_KEY: optionalString(z.string()),
    S3_SECRET_KEY: optionalString(z.string()),
    S3_REGION: z.string().min(1).default('us-east-1'),
    RT_LEASE_MS: z.coerce.number().int().min(500).default(10_000),
    RT_NODE_TTL_MS: z.coerce.number().int().min(500).default(6000),
    RT_IDLE_MS: z.coerce.number().int().min(100).default(30_000),
    RT_SNAPSHOT_EVERY_MS: z.coerce.number().int().min(100).default(60_000),
    /** an edited board's dashboard preview is made at most this often while it is open (and when it closes) */
    RT_PREVIEW_EVERY_MS: z.coerce.number().int().min(100).default(30_000),
    /** wasm memory reserved at start-up for board documents (doc/automerge.ts warmUpDocEngine); 0: none */
    RT_DOC_MEMORY_MB: z.coerce.number().int().min(0).max(4096).default(128),
    /** lesson (SPEC LS3): how long a board owner's plan is kept (as boards and files do) */
    PLAN_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.RT_SHARED_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['RT_SHARED_SECRET'], message: 'required in production (≥ 32 characters)' });
    }
    if (env.NODE_ENV === 'production' && env.RT_SHARED_SECRET === REALTIME_DEV_SHARED_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['RT_SHARED_SECRET'],
        message: 'is the public development secret: set a secret of your own in production (≥ 32 characters)',
      });
    }
    if (env.SNAPSHOT_STORE === 's3') {
      for (const key of ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required when SNAPSHOT_STORE=s3' });
      }
    }
  })
  .transform((env) => {
    const secret = env.RT_SHARED_SECRET ?? REALTIME_DEV_SHARED_SECRET;
    return {
      ...env,
      RT_SHARED_SECRET: secret,
      /**
       * interface the websocket server listens on: every interface with a real secret; loopback
       * only with the development one (public: anyone reaching the node could sign any actor)
       */
      RT_LISTEN_HOST: secret === REALTIME_DEV_SHARED_SECRET ? '127.0.0.1' : undefined,
    };
  });

export type RealtimeEnv = z.infer<typeof realtimeEnvSchema>;

export function loadRealtimeEnv(source: Record<string, string | undefined> = process.env): RealtimeEnv {
  return loadEnv(realtimeEnvSchema, source);
}
