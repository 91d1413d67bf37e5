/**
 * Auth service bootstrap only: tracing first (before pg/ioredis/bullmq are loaded, so they get
 * instrumented), then env, logger, PostgreSQL + migrations, NATS, endpoints, outbox relay, mail
 * worker, health server, and the shutdown steps in start-up order.
 */
import { startTracing } from '@wb/platform/tracing';
const tracing = startTracing('auth');

import { join } from 'node:path';
import {
  connectBus,
  createLifecycle,
  createLogger,
  createMailer,
  createPool,
  createQueue,
  createRedis,
  createService,
  createWorker,
  metricsRegistry,
  migrate,
  SessionCache,
  startHealthServer,
  startOutboxRelay,
} from '@wb/platform';
import { SCHEMA } from './commands/deps';
import type { AuthDeps } from './commands/deps';
import { SessionKeeper } from './commands/sessions';
import { PasswordHasher } from './domain/password';
import { ThrowawayDomains } from './domain/throwaway';
import { loadAuthEnv } from './env';
import { buildEndpoints } from './handlers';
import { startHousekeeping } from './jobs/housekeeping';
import { MAIL_QUEUE, queueMailScheduler } from './jobs/mailJobs';
import type { MailJob } from './jobs/mailJobs';
import { processMailJob } from './jobs/mailWorker';
import { createAuthMetrics } from './metrics';

const VERSION = '0.1.0';

async function main(): Promise<void> {
  const env = loadAuthEnv();
  const log = createLogger({ service: 'auth', level: env.LOG_LEVEL });
  const lifecycle = createLifecycle(log);
  lifecycle.onShutdown('tracing', () => tracing.shutdown());

  const pool = createPool({ url: env.DATABASE_URL, schema: SCHEMA, poolSize: env.DATABASE_POOL_SIZE, log });
  lifecycle.onShutdown('postgres', () => pool.end());
  await migrate(pool, { schema: SCHEMA, dir: join(__dirname, '..', 'migrations'), log });

  const redis = createRedis(env.REDIS_URL, { connectionName: `${env.REDIS_PREFIX}auth` });
  redis.on('error', (err) => log.warn({ err }, 'Redis connection error'));
  lifecycle.onShutdown('redis', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });

  const bus = await connectBus({ url: env.NATS_URL, prefix: env.NATS_PREFIX, name: 'auth', log });
  lifecycle.onShutdown('nats', () => bus.drain());

  const metrics = createAuthMetrics(metricsRegistry);
  const hasher = new PasswordHasher({ maxConcurrent: env.HASH_CONCURRENCY });
  void hasher.warmUp();
  const queueOpts = { redisUrl: env.REDIS_URL, prefix: env.REDIS_PREFIX, log };
  const mailQueue = createQueue<MailJob>(MAIL_QUEUE, queueOpts);
  lifecycle.onShutdown('mail queue', () => mailQueue.close());

  const deps: AuthDeps = {
    pool,
    env,
    log,
    hasher,
    throwaway: new ThrowawayDomains(env.THROWAWAY_DOMAINS_EXTRA),
    sessions: new SessionKeeper(new SessionCache(redis, env.REDIS_PREFIX), bus, log),
    mail: queueMailScheduler(mailQueue),
    metrics,
    now: () => new Date(),
  };

  const relay = startOutboxRelay({ pool, schema: SCHEMA, bus, log });
  lifecycle.onShutdown('outbox relay', () => relay.stop());

  const mailer = createMailer({ smtpUrl: env.SMTP_URL, outboxDir: env.MAIL_OUTBOX_DIR, from: env.MAIL_FROM, log });
  lifecycle.onShutdown('mailer', async () => mailer.close());
  const worker = createWorker<MailJob>(
    MAIL_QUEUE,
    (job) => processMailJob({ pool, mailer, env, log, metrics, now: () => deps.now() }, job.data),
    {
      ...queueOpts,
      concurrency: env.MAIL_CONCURRENCY,
    },
  );
  lifecycle.onShutdown('mail worker', () => worker.close());
  const housekeeping = startHousekeeping({ pool, log });
  lifecycle.onShutdown('housekeeping', async () => housekeeping.stop());

  const service = await createService(bus, {
    name: 'auth',
    version: VERSION,
    description: 'Users, sessions, settings, plans lookup, verification and recovery mails',
    log,
    endpoints: buildEndpoints(deps),
    nodeEnv: env.NODE_ENV,
  });
  lifecycle.onShutdown('service', () => service.stop());

  const health = await startHealthServer({
    port: env.HEALTH_PORT,
    service: 'auth',
    log,
    checks: {
      postgres: async () => {
        await pool.query('SELECT 1');
      },
      nats: async () => {
        if (bus.nc.isClosed()) throw new Error('NATS connection closed');
        await bus.nc.flush();
      },
      redis: async () => {
        await redis.ping();
      },
    },
  });
  lifecycle.onShutdown('health server', () => health.close());
  // registered last, so it runs first: stop receiving traffic before anything closes
  lifecycle.onShutdown('mark not ready', async () => health.setStopping());
  log.info({ healthPort: health.port }, 'auth service ready');
}

main().catch((err: unknown) => {
  // the logger may not exist yet (bad env): one JSON line on stderr, then a non-zero exit
  process.stderr.write(
    `${JSON.stringify({ level: 'fatal', service: 'auth', msg: 'start-up failed', err: err instanceof Error ? err.message : String(err) })}\n`,
  );
  process.exit(1);
});
