/**
 * Boards service bootstrap only: tracing first (before pg/ioredis/bullmq are loaded, so they get
 * instrumented), then env, logger, PostgreSQL + migrations, NATS, endpoints, outbox relay, the
 * auth.user.terminated consumer, the trash-purge job, health server, and the shutdown steps in
 * start-up order.
 */
import { startTracing } from '@wb/platform/tracing';
const tracing = startTracing('boards');

import { join } from 'node:path';
import {
  connectBus,
  createLifecycle,
  createLogger,
  createPool,
  createQueue,
  createService,
  createWorker,
  metricsRegistry,
  migrate,
  startConsumer,
  startHealthServer,
  startOutboxRelay,
} from '@wb/platform';
import { SCHEMA } from './commands/deps';
import type { BoardsDeps } from './commands/deps';
import { newBoardId } from './commands/ids';
import { ListCache } from './commands/listCache';
import { PlanLookup } from './commands/planLookup';
import { loadBoardsEnv } from './env';
import { buildEndpoints } from './handlers';
import { processTrashPurgeJob, scheduleTrashPurge, TRASH_PURGE_QUEUE } from './jobs/trashPurge';
import type { TrashPurgeJob } from './jobs/trashPurge';
import { createBoardsMetrics } from './metrics';
import { UserTerminatedProcessor } from './processors/userTerminated';

const VERSION = '0.1.0';

async function main(): Promise<void> {
  const env = loadBoardsEnv();
  const log = createLogger({ service: 'boards', level: env.LOG_LEVEL });
  const lifecycle = createLifecycle(log);
  lifecycle.onShutdown('tracing', () => tracing.shutdown());

  const pool = createPool({ url: env.DATABASE_URL, schema: SCHEMA, poolSize: env.DATABASE_POOL_SIZE, log });
  lifecycle.onShutdown('postgres', () => pool.end());
  await migrate(pool, { schema: SCHEMA, dir: join(__dirname, '..', 'migrations'), log });

  const bus = await connectBus({ url: env.NATS_URL, prefix: env.NATS_PREFIX, name: 'boards', log });
  lifecycle.onShutdown('nats', () => bus.drain());

  const metrics = createBoardsMetrics(metricsRegistry);
  const deps: BoardsDeps = {
    pool,
    env,
    log,
    plans: new PlanLookup(bus, env.PLAN_CACHE_TTL_MS),
    metrics,
    lists: new ListCache(env.LIST_CACHE_MAX_BOARDS),
    now: () => new Date(),
    newBoardId: () => newBoardId(),
  };

  const relay = startOutboxRelay({ pool, schema: SCHEMA, bus, log });
  lifecycle.onShutdown('outbox relay', () => relay.stop());

  const consumer = await startConsumer({
    bus,
    pool,
    schema: SCHEMA,
    processor: new UserTerminatedProcessor({ log, metrics }),
    log,
  });
  lifecycle.onShutdown('user-terminated consumer', () => consumer.stop());

  const queueOpts = { redisUrl: env.REDIS_URL, prefix: env.REDIS_PREFIX, log };
  const purgeQueue = createQueue<TrashPurgeJob>(TRASH_PURGE_QUEUE, {
    ...queueOpts,
    defaultJobOptions: { attempts: 1 },
  });
  lifecycle.onShutdown('trash-purge queue', () => purgeQueue.close());
  await scheduleTrashPurge(purgeQueue, env.TRASH_PURGE_EVERY_MS);
  const purgeWorker = createWorker<TrashPurgeJob>(
    TRASH_PURGE_QUEUE,
    () => processTrashPurgeJob({ pool, log, metrics, now: () => deps.now(), batchSize: env.TRASH_PURGE_BATCH }),
    queueOpts,
  );
  lifecycle.onShutdown('trash-purge worker', () => purgeWorker.close());

  const service = await createService(bus, {
    name: 'boards',
    version: VERSION,
    description: 'Board metadata, folders, sharing and board access; trash and its 30-day purge',
    log,
    endpoints: buildEndpoints(deps),
    nodeEnv: env.NODE_ENV,
  });
  lifecycle.onShutdown('service', () => service.stop());

  const health = await startHealthServer({
    port: env.HEALTH_PORT,
    service: 'boards',
    log,
    checks: {
      postgres: async () => {
        await pool.query('SELECT 1');
      },
      nats: async () => {
        if (bus.nc.isClosed()) throw new Error('NATS connection closed');
        await bus.nc.flush();
      },
    },
  });
  lifecycle.onShutdown('health server', () => health.close());
  // registered last, so it runs first: stop receiving traffic before anything closes
  lifecycle.onShutdown('mark not ready', async () => health.setStopping());
  log.info({ healthPort: health.port }, 'boards service ready');
}

main().catch((err: unknown) => {
  // the logger may not exist yet (bad env): one JSON line on stderr, then a non-zero exit
  process.stderr.write(
    `${JSON.stringify({ level: 'fatal', service: 'boards', msg: 'start-up failed', err: err instanceof Error ? err.message : String(err) })}\n`,
  );
  process.exit(1);
});
