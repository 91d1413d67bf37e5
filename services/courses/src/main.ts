/**
 * Courses service bootstrap only: V8 settings, then tracing (before pg/ioredis/bullmq are loaded,
 * so they get instrumented), then the platform runtime (logger, PostgreSQL + migrations, NATS),
 * the outbox relay, the auth.user.terminated consumer, the invitation mail queue and worker, and
 * the endpoints.
 */
import { tuneV8 } from '@wb/platform/v8';
tuneV8();
import { startTracing } from '@wb/platform/tracing';
const tracing = startTracing('courses');

import { join } from 'node:path';
import {
  createMailer,
  createQueue,
  createWorker,
  metricsRegistry,
  PlanLookup,
  runMain,
  startServiceRuntime,
  VersionedReplyCache,
} from '@wb/platform';
import { SCHEMA } from './commands/deps';
import type { CoursesDeps } from './commands/deps';
import { AuthDirectory, RemoteLibrary } from './commands/remote';
import { loadCoursesEnv } from './env';
import { buildEndpoints } from './handlers';
import { MAIL_QUEUE, queueMailScheduler } from './jobs/mailJobs';
import type { MailJob } from './jobs/mailJobs';
import { processMailJob } from './jobs/mailWorker';
import { createCoursesMetrics } from './metrics';
import { UserTerminatedProcessor } from './processors/userTerminated';

const VERSION = '0.1.0';

runMain('courses', async () => {
  const env = loadCoursesEnv();
  const rt = await startServiceRuntime({
    name: 'courses',
    env,
    tracing,
    schema: SCHEMA,
    migrationsDir: join(__dirname, '..', 'migrations'),
  });
  const { pool, log, lifecycle } = rt;

  const metrics = createCoursesMetrics(metricsRegistry);
  const plans = new PlanLookup(rt.bus, env.PLAN_CACHE_TTL_MS);
  const planChanges = plans.listenForChanges(rt.bus);
  lifecycle.onShutdown('plan changes', async () => planChanges.unsubscribe());
  const directory = new AuthDirectory(rt.bus, log, env.AUTH_TIMEOUT_MS);
  const mailQueue = createQueue<MailJob>(MAIL_QUEUE, rt.queueOptions);
  lifecycle.onShutdown('mail queue', () => mailQueue.close());
  const deps: CoursesDeps = {
    pool,
    env,
    log,
    plans,
    directory,
    lists: new VersionedReplyCache(env.COURSES_LIST_CACHE_MAX),
    library: new RemoteLibrary(rt.bus, log, env.AUTH_TIMEOUT_MS, env.COURSES_COPY_TIMEOUT_MS),
    mail: queueMailScheduler(mailQueue),
    metrics,
    now: () => new Date(),
  };

  rt.startOutboxRelay();
  await rt.consume(new UserTerminatedProcessor({ log }));

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
    description: 'Courses: lessons, content items, participants, invitations, board copies, progress',
    endpoints: buildEndpoints(deps),
  });
});
