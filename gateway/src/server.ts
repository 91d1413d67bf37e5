/**
 * Gateway bootstrap: env → logger → lifecycle → NATS → Redis → sessions (+ revocation
 * broadcasts) → HTTP server → health server. Shutdown runs in reverse: not ready → stop
 * accepting and finish in-flight requests → close the health port → drop the broadcast
 * subscription → Redis → drain NATS → flush traces.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TracingHandle } from '@wb/platform/tracing';
import type { HealthServer, Logger } from '@wb/platform';
import { broadcastSubject, SESSIONS_REVOKED, sessionsRevokedSchema } from '@wb/proto';
import {
  connectBus,
  createLifecycle,
  createLogger,
  metricsRegistry,
  openObjectStore,
  SessionCache,
  startHealthServer,
  subscribeBroadcast,
} from '@wb/platform';
import { Redis } from 'ioredis';
import pino from 'pino';
import { createApp } from './app';
import { createAppServer, DEFAULT_SERVER_LIMITS } from './http/appServer';
import { realtimeUpgradeHandler } from './realtime/upgrade';
import proxyaddr from 'proxy-addr';
import { isJanusPath, janusUpgradeHandler } from './calls/janusProxy';
import { configFromEnv } from './config';
import { loadFilesStoreOptions, loadSnapshotStoreOptions, loadGatewayEnv } from './env';
import { SessionResolver } from './sessions';

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    // close() stops accepting and waits for in-flight requests; idle keep-alive sockets are
    // closed at once (Node ≥ 19), busy ones when their response is done.
    server.close((err) => (err ? reject(err) : resolve()));
    server.closeIdleConnections();
  });
}

/** Without an offline queue, commands fail until the connection is up: wait for it (bounded). */
async function waitForRedis(redis: Redis, log: Logger): Promise<void> {
  if (redis.status === 'ready') return;
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 5000);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!ready) log.warn('redis not ready after 5 s; starting anyway (sessions fall back to auth)');
}

export async function runGateway(tracing: TracingHandle): Promise<void> {
  const env = loadGatewayEnv();
  // Asynchronous stdout: under load, lines queue while a write is in flight and leave together
  // (one request line each would otherwise cost a write syscall per request). pino flushes it on exit.
  const log = createLogger({
    service: 'gateway',
    level: env.LOG_LEVEL,
    destination: pino.destination({ dest: 1, sync: false }),
  });
  const lifecycle = createLifecycle(log);
  lifecycle.onShutdown('tracing', () => tracing.shutdown());
  try {
    const config = configFromEnv(env);
    const bus = await connectBus({
      url: env.NATS_URL,
      prefix: env.NATS_PREFIX,
      name: 'gateway',
      log,
      ensureStream: false,
    });
    lifecycle.onShutdown('nats', () => bus.drain());

    // Fail fast instead of queueing: during a Redis outage sessions fall back to auth and the
    // login throttle fails open, rather than every request hanging on ioredis's retries.
    const redis = new Redis(env.REDIS_URL, {
      connectionName: 'gateway',
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 500,
    });
    let redisErrorLogged = 0;
    redis.on('error', (err: unknown) => {
      if (Date.now() - redisErrorLogged < 10_000) return;
      redisErrorLogged = Date.now();
      log.warn({ err }, 'redis error');
    });
    await waitForRedis(redis, log);
    lifecycle.onShutdown('redis', async () => {
      await redis.quit();
    });

    const sessions = new SessionResolver({
      store: new SessionCache(redis, env.REDIS_PREFIX),
      bus,
      log: log.child({ component: 'sessions' }),
    });
    const revoked = subscribeBroadcast(bus, broadcastSubject(env.NATS_PREFIX, 'auth', SESSIONS_REVOKED), (data) => {
      const parsed = sessionsRevokedSchema.safeParse(data);
      if (parsed.success) sessions.forget(parsed.data.sessionIds);
      else log.warn('ignored malformed sessions.revoked broadcast');
    });
    lifecycle.onShutdown('revocations', async () => revoked.unsubscribe());

    // Registered before the HTTP server so that it closes after it (steps run in reverse).
    const probes: { server?: HealthServer } = {};
    lifecycle.onShutdown('health', async () => probes.server?.close());

    const checks = {
      nats: async () => {
        if (bus.nc.isClosed()) throw new Error('NATS connection closed');
      },
      redis: async () => {
        await redis.ping();
      },
    };
    // uploads are streamed into it and the derived images served from it (FILES_STORE, FILES_DIR, S3_*)
    const files = await openObjectStore(loadFilesStoreOptions());
    log.info(`file storage: ${files.description}`);
    // the boards' dashboard previews, written by the realtime nodes (SNAPSHOT_STORE, SNAPSHOT_DIR, S3_BUCKET)
    const snapshots = await openObjectStore(loadSnapshotStoreOptions());
    log.info(`preview storage: ${snapshots.description}`);

    const app = createApp({
      config,
      log,
      bus,
      redis,
      sessions,
      metrics: metricsRegistry,
      checks,
      publicUrl: env.PUBLIC_URL,
      store: files.store,
      previews: snapshots.store,
      imageCacheBytes: env.IMAGE_CACHE_MB * 1024 * 1024,
    });
    const server = createAppServer(app, {
      ...DEFAULT_SERVER_LIMITS,
      // behind a proxy every client arrives from the proxy's address: the proxy caps instead
      maxConnectionsPerAddress: config.trustProxy === false ? env.MAX_CONNECTIONS_PER_ADDRESS : 0,
    }).listen(env.HTTP_PORT);
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    // Longer than common load balancers' idle timeout (60 s), so they close first, not us.
    server.keepAliveTimeout = 65_000;
    // websockets of the boards go to their owner realtime node, /janus to the call server
    const realtimeUpgrade = realtimeUpgradeHandler({
      redis,
      redisPrefix: env.REDIS_PREFIX,
      sessionCookie: config.cookies.session,
      resolveSession: (token) => sessions.resolve(token),
      bus,
      secret: env.RT_SHARED_SECRET,
      nodeTtlMs: env.RT_NODE_TTL_MS,
      // the address HTTP requests see (TRUST_PROXY): realtime caps guests per address with it
      clientAddress: (req) => proxyaddr(req, app.get('trust proxy fn') as (addr: string, i: number) => boolean),
      log: log.child({ component: 'realtime-proxy' }),
    });
    const janusUpgrade = janusUpgradeHandler({
      upstream: env.JANUS_WS_URL,
      sessionCookie: config.cookies.session,
      anonCookie: config.cookies.anon,
      resolveSession: (token) => sessions.resolve(token),
      allowedOrigins: [...env.RT_ALLOWED_ORIGINS, ...(env.PUBLIC_URL ? [new URL(env.PUBLIC_URL).origin] : [])],
      log: log.child({ component: 'janus-proxy' }),
    });
    server.on('upgrade', (req, socket, head) =>
      isJanusPath(req.url) ? janusUpgrade(req, socket, head) : realtimeUpgrade(req, socket, head),
    );
    const port = (server.address() as AddressInfo).port;
    log.info({ port }, `gateway listening on port ${port}`);
    lifecycle.onShutdown('http', () => closeServer(server));

    const health = await startHealthServer({ port: env.HEALTH_PORT, service: 'gateway', checks, log });
    probes.server = health;
    lifecycle.onShutdown('not ready', async () => health.setStopping());
  } catch (err) {
    log.fatal({ err }, 'gateway failed to start');
    await lifecycle.shutdown('start-up failed', 1);
  }
}
