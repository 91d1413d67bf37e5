/**
 * Boards service bootstrap only: V8 settings, then tracing (before pg/ioredis/bullmq are loaded, so they get
 * instrumented), then the platform runtime (logger, PostgreSQL + migrations, NATS), the outbox
 * relay, the auth.user.terminated and collaboration-span consumers, the trash-purge job and the endpoints.
 */
import { tuneV8 } from '@wb/platform/v8';
tuneV8();
import { startTracing } from '@wb/platform/tracing';
const tracing = startTracing('boards');

import { join } from 'node:path';
import {
  createQueue,
  createWorker,
  metricsRegistry,
  PlanLookup,
  runMain,
  startServiceRuntime,
  VersionedReplyCache,
} from '@wb/platform';
import { SCHEMA } from './commands/deps';
import type { BoardsDeps } from './commands/deps';
import { newBoardId } from './commands/ids';
import { NameLookup } from './commands/nameLookup';
import { loadBoardsEnv } from './env';
import { RealtimeContent } from './commands/boardContent';
import { buildEndpoints } from './handlers';
import { processTrashPurgeJob, scheduleTrashPurge, TRASH_PURGE_QUEUE } from './jobs/trashPurge';
import type { TrashPurgeJob } from './jobs/trashPurge';
import { createBoardsMetrics } from './metrics';
import { BoardPreviewsProcessor } from './processors/boardPreviews';
import { CollaborationSpansProcessor } from './processors/collaborationSpans';
import { UserTerminatedProcessor } from './processors/userTerminated';

const VERSION = '0.1.0';
runMain('boards', async () => {
  const env = loadBoardsEnv();
  const rt = await startServiceRuntime({
    name: 'boards',
    env,
    tracing,
    schema: SCHEMA,
    migrationsDir: join(__dirname, '..', 'migrations'),
  });
  const { pool, log, lifecycle } = rt;

  const metrics = createBoardsMetrics(metricsRegistry);
  const plans = new PlanLookup(rt.bus, env.PLAN_CACHE_TTL_MS);
  const deps: BoardsDeps = {
    pool,
    env,
    log,
    plans,
    names: new NameLookup(rt.bus, log),
    content: new RealtimeContent(rt.bus, log, env.CONTENT_COPY_TIMEOUT_MS),
    metrics,
    lists: new VersionedReplyCache(env.LIST_CACHE_MAX_BOARDS),
    now: () => new Date(),
    newBoardId: () => newBoardId(),
  };

  // a plan change reaches the limits at once on every replica (the cache TTL bounds a lost message)
  const planChanges = plans.listenForChanges(rt.bus);
  lifecycle.onShutdown('plan changes', async () => planChanges.unsubscribe());

  rt.startOutboxRelay();
  await rt.consume(new UserTerminatedProcessor({ log, metrics }));
  await rt.consume(new CollaborationSpansProcessor());
  await rt.consume(new BoardPreviewsProcessor());

  const purgeQueue = createQueue<TrashPurgeJob>(TRASH_PURGE_QUEUE, {
    ...rt.queueOptions,
    defaultJobOptions: { attempts: 1 },
  });
  lifecycle.onShutdown('trash-purge queue', () => purgeQueue.close());
  await scheduleTrashPurge(purgeQueue, env.TRASH_PURGE_EVERY_MS);
  const purgeWorker = createWorker<TrashPurgeJob>(
    TRASH_PURGE_QUEUE,
    () => processTrashPurgeJob({ pool, log, metrics, now: () => deps.now(), batchSize: env.TRASH_PURGE_BATCH }),
    rt.queueOptions,
  );
  lifecycle.onShutdown('trash-purge worker', () => purgeWorker.close());

  await rt.serve({
    version: VERSION,
    description: 'Board metadata, folders, sharing and board access; trash and its 30-day purge',
    endpoints: buildEndpoints(deps),
  });
});
