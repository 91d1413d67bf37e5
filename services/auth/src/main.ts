/**
 * Auth service bootstrap only: V8 settings, then tracing (before pg/ioredis/bullmq are loaded, so they get
 * instrumented), then the platform runtime (logger, PostgreSQL + migrations, NATS), Redis for the
 * session cache, the outbox relay, the mail queue and worker, housekeeping and the endpoints.
 */
import { tuneV8 } from '@wb/platform/v8';
tuneV8();
import { startTracing } from '@wb/platform/tracing';
const tracing = startTracing('auth');

import { join } from 'node:path';
import {
  createMailer,
  createQueue,
  createRedis,
  createWorker,
  listenToChannel,
  metricsRegistry,
  runMain,
  SessionCache,
  startServiceRuntime,
} from '@wb/platform';
import { ThrowawayDomains } from '@wb/proto';
import { SCHEMA } from './commands/deps';
import type { AuthDeps } from './commands/deps';
import { SessionKeeper } from './commands/sessions';
import { TeamsOwnerCheck } from './commands/teamOwnership';
import { UserCache } from './commands/userCache';
import { PasswordHasher } from './domain/password';
import { loadAuthEnv } from './env';
import { buildEndpoints } from './handlers';
import { startHousekeeping } from './jobs/housekeeping';
import { MAIL_QUEUE, queueMailScheduler } from './jobs/mailJobs';
import type { MailJob } from './jobs/mailJobs';
import { processMailJob } from './jobs/mailWorker';
import { createAuthMetrics } from './metrics';
import { PlanSourcesProcessor } from './processors/planSources';

const VERSION = '0.1.0';

runMain('auth', async () => {
  const env = loadAuthEnv();
  const rt = await startServiceRuntime({
    name: 'auth',
    env,
    tracing,
    schema: SCHEMA,
    migrationsDir: join(__dirname, '..', 'migrations'),
  });
  const { pool, log, lifecycle } = rt;

  const redis = createRedis(env.REDIS_URL, { connectionName: `${env.REDIS_PREFIX}auth` });
  redis.on('error', (err) => log.warn({ err }, 'Redis connection error'));
  lifecycle.onShutdown('redis', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });

  const metrics = createAuthMetrics(metricsRegistry);
  const hasher = new PasswordHasher({ maxConcurrent: env.HASH_CONCURRENCY });
  void hasher.warmUp();
  const mailQueue = createQueue<MailJob>(MAIL_QUEUE, rt.queueOptions);
  lifecycle.onShutdown('mail queue', () => mailQueue.close());

  const users = new UserCache(env.USER_CACHE_TTL_MS, env.USER_CACHE_MAX);
  const userChanges = listenToChannel({
    pool,
    channel: 'auth_user_changed', // migrations/0002_user_change_notify.sql
    log,
    onNotify: (id) => users.invalidate(Number(id)),
    onListening: (listening) => users.setListening(listening),
  });
  lifecycle.onShutdown('user change listener', () => userChanges.stop());

  const deps: AuthDeps = {
    pool,
    env,
    log,
    hasher,
    throwaway: new ThrowawayDomains(env.THROWAWAY_DOMAINS_EXTRA),
    sessions: new SessionKeeper(new SessionCache(redis, env.REDIS_PREFIX), rt.bus, log),
    mail: queueMailScheduler(mailQueue),
    metrics,
    users,
    teams: new TeamsOwnerCheck(rt.bus, log),
    now: () => new Date(),
  };

  rt.startOutboxRelay();
  await rt.consume(new PlanSourcesProcessor({ log }));
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, outboxDir: env.MAIL_OUTBOX_DIR, from: env.MAIL_FROM, log });
  lifecycle.onShutdown('mailer', async () => mailer.close());
  const worker = createWorker<MailJob>(
    MAIL_QUEUE,
    (job) => processMailJob({ pool, mailer, env, log, metrics, now: () => deps.now() }, job.data),
    { ...rt.queueOptions, concurrency: env.MAIL_CONCURRENCY },
  );
  lifecycle.onShutdown('mail worker', () => worker.close());
  const housekeeping = startHousekeeping({ pool, log });
  lifecycle.onShutdown('housekeeping', async () => housekeeping.stop());

  await rt.serve({
    version: VERSION,
    description: 'Users, sessions, settings, plans lookup, verification and recovery mails',
    endpoints: buildEndpoints(deps),
    checks: {
      redis: async () => {
        await redis.ping();
      },
    },
  });
});
