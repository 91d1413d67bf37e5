/**
 * The gateway's environment: the one place that reads process.env. A bad or missing value stops
 * start-up with one message naming every offending variable (platform `loadEnv`).
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { baseEnvSchema, loadEnv, objectStoreOptionsFromEnv, optionalEnvString } from '@wb/platform';
import type { ObjectStoreOptions } from '@wb/platform';
import { REALTIME_DEV_SHARED_SECRET } from '@wb/proto';

/** gateway/src or gateway/dist → the repository root */
const REPO_ROOT = path.resolve(__dirname, '..', '..');

/**
 * Development/test default for a secret: stable across restarts on one machine and checkout (so
 * CSRF tokens and device cookies survive a restart in dev), different between machines, and
 * never used in production, where the variable is required.
 */
function devSecret(name: string): string {
  return createHash('sha256').update(`wb-gateway-dev:${name}:${hostname()}:${REPO_ROOT}`).digest('base64url');
}

/** Express's `trust proxy`: false | true | hop count | comma-separated addresses/subnets/names. */
const trustProxySchema = z
  .string()
  .default('false')
  .transform((v): boolean | number | string => {
    const s = v.trim();
    if (s === '' || s === 'false' || s === '0') return false;
    if (s === 'true') return true;
    if (/^\d+$/.test(s)) return Number(s);
    return s;
  });

const secret = z.string().min(32, 'must be at least 32 characters').optional();

export const gatewayEnvSchema = baseEnvSchema
  .extend({
    HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    /** Public origin, e.g. https://boards.example.com; https → Secure + __Host- cookies */
    PUBLIC_URL: z.url().optional(),
    /** signs anonymous/device cookies; required in production */
    SESSION_SECRET: secret,
    /** signs CSRF tokens; required in production */
    CSRF_SECRET: secret,
    WEB_DIST_DIR: z.string().default(path.join(REPO_ROOT, 'web', 'dist')),
    /** the billing service's payment gateway: sandbox/production widen the CSP for Braintree's Drop-in */
    BRAINTREE_ENVIRONMENT: z.enum(['fake', 'sandbox', 'production']).default('fake'),
    TRUST_PROXY: trustProxySchema,
    BODY_LIMIT: z
      .string()
      .regex(/^\d+\s*(b|kb|mb)?$/i, 'must be a size like 100kb')
      .default('100kb'),
    /** HMAC key shared with the realtime nodes (signed x-wb-actor on /rt upgrades); required in production */
    RT_SHARED_SECRET: secret,
    /** open connections one client address may hold; 0 = no cap. Not applied behind a trusted proxy */
    MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(512),
    /** a realtime node without a heartbeat this long is dead (same value as the nodes) */
    RT_NODE_TTL_MS: z.coerce.number().int().min(500).default(6000),
    /** memory kept for the most recently served small images (/docs/…, /images/…); 0 = none */
    IMAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(32),
    /**
     * browser origins allowed to open /janus besides PUBLIC_URL's (the realtime nodes' variable and
     * rule, realtime SPEC A2: a foreign Origin is refused whether or not PUBLIC_URL is set)
     */
    RT_ALLOWED_ORIGINS: z
      .string()
      .default('http://localhost:8080,http://localhost:5173')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    /** Janus's WebSocket transport (private address) behind /janus; unset: /janus answers 503 */
    JANUS_WS_URL: optionalEnvString.refine((v) => v === undefined || /^wss?:\/\//.test(v), 'a ws:// URL'),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    // the development RT secret is public: in production the nodes refuse it, and so does the gateway
    for (const key of ['SESSION_SECRET', 'CSRF_SECRET', 'RT_SHARED_SECRET'] as const) {
      if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required in production' });
    }
  })
  .transform((env) => ({
    ...env,
    SESSION_SECRET: env.SESSION_SECRET ?? devSecret('session'),
    CSRF_SECRET: env.CSRF_SECRET ?? devSecret('csrf'),
    RT_SHARED_SECRET: env.RT_SHARED_SECRET ?? REALTIME_DEV_SHARED_SECRET,
  }));
export type GatewayEnv = z.infer<typeof gatewayEnvSchema>;

export function loadGatewayEnv(source: Record<string, string | undefined> = process.env): GatewayEnv {
  return loadEnv(gatewayEnvSchema, source);
}

/**
 * Where uploads go and derived images are served from: FILES_STORE (fs|s3), FILES_DIR,
 * FILES_BUCKET, S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_REGION — the same variables as the
 * files service and the conversion worker (they must name the same store).
 */
export function loadFilesStoreOptions(source: Record<string, string | undefined> = process.env): ObjectStoreOptions {
  // unset: the checkout's .data/files (what `make up` gives all three, ignored by git), not a
  // folder relative to whichever directory the gateway was started from
  return objectStoreOptionsFromEnv({
    ...source,
    FILES_DIR: source.FILES_DIR || path.join(REPO_ROOT, '.data', 'files'),
  });
}

/**
 * The realtime nodes' snapshot store, where they keep the boards' dashboard previews:
 * SNAPSHOT_STORE (fs|s3), SNAPSHOT_DIR, S3_BUCKET, S3_* — the realtime nodes' own variables (they
 * must name the same store). Unset: the checkout's .data/snapshots, as `make up` gives the nodes.
 */
export function loadSnapshotStoreOptions(source: Record<string, string | undefined> = process.env): ObjectStoreOptions {
  return objectStoreOptionsFromEnv(
    { ...source, SNAPSHOT_DIR: source.SNAPSHOT_DIR || path.join(REPO_ROOT, '.data', 'snapshots') },
    { store: 'SNAPSHOT_STORE', dir: 'SNAPSHOT_DIR', bucket: 'S3_BUCKET', defaultDir: '.data/snapshots' },
  );
}
