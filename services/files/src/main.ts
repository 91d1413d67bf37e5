/**
 * Files service bootstrap only: V8 settings, then tracing (before pg/ioredis/bullmq are loaded, so
 * they get instrumented), then the platform runtime (logger, PostgreSQL + migrations, NATS), object
 * storage, the conversion queue, the terminated-user and purged-board consumers, the tombstone
 * cleanup job and the endpoints.
 */
import { tuneV8 } from '@wb/platform/v8';
tuneV8();
import { startTracing } from '@wb/platform/tracing';
const tracing = startTracing('files');

import { join } from 'node:path';
import { QueueEvents } from 'bullmq';
import {
  bullPrefix,
  createQueue,
  createRedis,
  createWorker,
  metricsRegistry,
  objectStoreOptionsFromEnv,
  openObjectStore,
  PlanLookup,
  runMain,
  startServiceRuntime,
} from '@wb/platform';
import { FILES_CONVERT_QUEUE, sniffHead } from '@wb/proto';
import type { FilesConvertJob } from '@wb/proto';
import { BoardAccessLookup } from './commands/boardAccess';
import { removeExpiredTombstones } from './commands/conversion';
import { BullConversionQueue } from './commands/convertQueue';
import { sweepOrphans } from './commands/orphanSweep';
import { SCHEMA } from './commands/deps';
import type { FilesDeps } from './commands/deps';
import { loadFilesEnv, objectStoreEnv } from './env';
import { buildEndpoints } from './handlers';
import { scheduleTombstoneCleanup, TOMBSTONE_QUEUE } from './jobs/tombstoneCleanup';
import type { TombstoneJob } from './jobs/tombstoneCleanup';
import { createFilesMetrics } from './metrics';
import { BoardPurgedProcessor } from './processors/boardPurged';
import { UserTerminatedProcessor } from './processors/userTerminated';

const VERSION = '0.1.0';
runMain('files', async () => {
  const env = loadFilesEnv();
  const rt = await startServiceRuntime({
    name: 'files',
    env,
    tracing,
    schema: SCHEMA,
    migrationsDir: join(__dirname, '..', 'migrations'),
  });
  const { pool, log, lifecycle } = rt;
  const { store, description: storeDescription } = await openObjectStore(objectStoreOptionsFromEnv(objectStoreEnv()));
  log.info({ store: storeDescription }, 'object store opened');

  const convertQueue = createQueue<FilesConvertJob>(FILES_CONVERT_QUEUE, rt.queueOptions);
  lifecycle.onShutdown('convert queue', () => convertQueue.close());
  const eventsConnection = createRedis(env.REDIS_URL, {
    forBullmq: true,
    connectionName: `${env.REDIS_PREFIX}events:${FILES_CONVERT_QUEUE}`,
  });
  const convertEvents = new QueueEvents(FILES_CONVERT_QUEUE, {
    connection: eventsConnection,
    prefix: bullPrefix(env.REDIS_PREFIX),
  });
  convertEvents.on('error', (err) => log.warn({ err }, 'conversion queue events error'));
  // listening before the first profile picture is queued, so its completion is not missed
  await convertEvents.waitUntilReady();
  lifecycle.onShutdown('convert queue events', async () => {
    await convertEvents.close();
    await eventsConnection.quit().catch(() => eventsConnection.disconnect());
  });

  const metrics = createFilesMetrics(metricsRegistry);
  const plans = new PlanLookup(rt.bus, env.PLAN_CACHE_TTL_MS);
  const deps: FilesDeps = {
    pool,
    env,
    log,
    plans,
    boards: new BoardAccessLookup(rt.bus),
    store,
    converter: new BullConversionQueue(convertQueue, convertEvents),
    sniff: sniffHead,
    metrics,
    now: () => new Date(),
  };

  // a plan change reaches the limits at once on every replica (the cache TTL bounds a lost message)
  const planChanges = plans.listenForChanges(rt.bus);
  lifecycle.onShutdown('plan changes', async () => planChanges.unsubscribe());

  await rt.consume(new UserTerminatedProcessor({ log, metrics, store, env }));
  await rt.consume(new BoardPurgedProcessor({ log, metrics, store, env }));

  const tombstoneQueue = createQueue<TombstoneJob>(TOMBSTONE_QUEUE, {
    ...rt.queueOptions,
    defaultJobOptions: { attempts: 1 },
  });
  lifecycle.onShutdown('tombstone queue', () => tombstoneQueue.close());
  await scheduleTombstoneCleanup(tombstoneQueue, env.TOMBSTONE_CLEANUP_EVERY_MS);
  const tombstoneWorker = createWorker<TombstoneJob>(
    TOMBSTONE_QUEUE,
    async () => ({ removed: await removeExpiredTombstones(deps), orphans: await sweepOrphans({ ...deps, env }) }),
    rt.queueOptions,
  );
  lifecycle.onShutdown('tombstone worker', () => tombstoneWorker.close());

  await rt.serve({
    version: VERSION,
    description: 'File library, uploads with content-hash dedupe, conversion state, profile pictures',
    endpoints: buildEndpoints(deps),
  });
});
