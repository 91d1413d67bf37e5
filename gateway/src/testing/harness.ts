/**
 * Component-test harness: the real app (createApp) over a FakeBus and the real Redis under a
 * unique key prefix, plus cookie helpers. `close()` deletes every key under that prefix.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import type { Express } from 'express';
import { newSessionToken, SessionCache, sessionIdOf } from '@wb/platform';
import type { Logger } from '@wb/platform';
import { createApp } from '../app';
import type { AppDeps } from '../app';
import { configFromEnv } from '../config';
import type { GatewayConfig } from '../config';
import { loadGatewayEnv } from '../env';
import type { RouteDef } from '../routes/types';
import { SessionResolver } from '../sessions';
import { FakeBus, memoryLogger } from './fakes';

export interface Harness {
  app: Express;
  bus: FakeBus;
  redis: Redis;
  store: SessionCache;
  sessions: SessionResolver;
  config: GatewayConfig;
  metrics: Registry;
  log: Logger;
  logText: () => string;
  prefix: string;
  /** put a session straight into the Redis cache (as auth would) and return its token */
  createSession(userId: number, ttlMs?: number): Promise<{ token: string; sessionId: string }>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  routes: RouteDef[];
  env?: Record<string, string>;
  deps?: Partial<AppDeps>;
}

export async function startHarness(opts: HarnessOptions): Promise<Harness> {
  const prefix = `gwtest:${process.pid}:${randomBytes(4).toString('hex')}:`;
  const env = loadGatewayEnv({
    NODE_ENV: 'test',
    REDIS_PREFIX: prefix,
    WEB_DIST_DIR: '/nonexistent/web/dist',
    ...opts.env,
  });
  const config = configFromEnv(env);
  const redis = new Redis(env.REDIS_URL, { lazyConnect: false });
  const bus = new FakeBus();
  const { log, text } = memoryLogger();
  const store = new SessionCache(redis, prefix);
  // Like auth: a Redis miss is answered from "the record", here empty unless a test adds to it.
  const sessions = new SessionResolver({ store, bus, log });
  bus.on('auth', 'session.resolve', () => null);
  const metrics = new Registry();
  const app = createApp({ config, log, bus, redis, sessions, metrics, routes: opts.routes, ...opts.deps });
  return {
    app,
    bus,
    redis,
    store,
    sessions,
    config,
    metrics,
    log,
    logText: text,
    prefix,
    async createSession(userId, ttlMs = 3600_000) {
      const token = newSessionToken();
      const sessionId = sessionIdOf(token);
      await store.put({ sessionId, userId, expiresAt: Date.now() + ttlMs });
      return { token, sessionId };
    },
    async close() {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      await redis.quit();
    },
  };
}

/** name → value of every Set-Cookie in a response (deleted cookies map to ''). */
export function setCookies(headers: Record<string, unknown>): Record<string, { value: string; attrs: string }> {
  const raw = headers['set-cookie'];
  const list = Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
  const out: Record<string, { value: string; attrs: string }> = {};
  for (const line of list) {
    const [pair, ...attrs] = line.split(';');
    const eq = pair!.indexOf('=');
    out[pair!.slice(0, eq)] = { value: pair!.slice(eq + 1), attrs: attrs.map((a) => a.trim()).join('; ') };
  }
  return out;
}

export function cookieHeader(cookies: Record<string, string | undefined>): string {
  return Object.entries(cookies)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
}
