/**
 * Teams service bootstrap only: V8 settings, then tracing (before pg/ioredis/bullmq are loaded, so
 * they get instrumented), then the platform runtime (logger, PostgreSQL + migrations, NATS), the
 * outbox relay, the billing.subscription.changed, billing.customer.changed and auth.user.terminated consumers, the mail queue
 * and worker, and the endpoints.
 */
import { tuneV8 } from '@wb/platform/v8';
tuneV8();
import { startTracing } from '@wb/platform/tracing';
const tracing = startTracing('teams');

import { join } from 'node:path';
import { createMailer, createQueue, createWorker, metricsRegistry, runMain, startServiceRuntime } from '@wb/platform';
import { ThrowawayDomains } from '@wb/proto';
import { SCHEMA } from './commands/deps';
import type { TeamsDeps } from './commands/deps';
import { AuthDirectory } from './commands/directory';
import { loadTeamsEnv } from './env';
import { buildEndpoints } from './handlers';
import { MAIL_QUEUE, queueMailScheduler } from './jobs/mailJobs';
import type { MailJob } from './jobs/mailJobs';
import { processMailJob } from './jobs/mailWorker';
import { createTeamsMetrics } from './metrics';
import { CustomerChangedProcessor } from './processors/customerChanged';
import { SubscriptionChangedProcessor } from './processors/subscriptionChanged';
import { UserTerminatedProcessor } from './processors/userTerminated';

const VERSION = '0.1.0';

runMain('teams', async () => {
  const env = loadTeamsEnv();
  const rt = await startServiceRuntime({
    name: 'teams',
    env,
    tracing,
    schema: SCHEMA,
    migrationsDir: join(__dirname, '..', 'migrations'),
  });
  const { pool, log, lifecycle } = rt;

  const metrics = createTeamsMetrics(metricsRegistry);
  const directory = new AuthDirectory(rt.bus, log, env.AUTH_TIMEOUT_MS);
  const mailQueue = createQueue<MailJob>(MAIL_QUEUE, rt.queueOptions);
  lifecycle.onShutdown('mail queue', () => mailQueue.close());
  const deps: TeamsDeps = {
    pool,
    env,
    log,
    directory,
    mail: queueMailScheduler(mailQueue),
    throwaway: new ThrowawayDomains(env.THROWAWAY_DOMAINS_EXTRA),
    metrics,
    now: () => new Date(),
  };

  rt.startOutboxRelay();
  await rt.consume(new SubscriptionChangedProcessor({ log, metrics, now: () => deps.now() }));
  await rt.consume(new CustomerChangedProcessor({ log, now: () => deps.now() }));
  await rt.consume(new UserTerminatedProcessor({ log, metrics, now: () => deps.now() }));

  const mailer = createMailer({ smtpUrl: env.SMTP_URL, outboxDir: env.MAIL_OUTBOX_DIR, from: env.MAIL_FROM, log });
  lifecycle.onShutdown('mailer', async () => mailer.close());
  const worker = createWorker<MailJob>(
    MAIL_QUEUE,
    (job) => processMailJob({ pool, mailer, directory, env, log, metrics }, job.data),
    { ...rt.queueOptions, concurrency: env.MAIL_CONCURRENCY },
  );
  lifecycle.onShutdown('mail worker', () => worker.close());

  await rt.serve({
    version: VERSION,
    description: 'Business accounts with licences: details, invitations, members, team plans',
    endpoints: buildEndpoints(deps),
  });
});
