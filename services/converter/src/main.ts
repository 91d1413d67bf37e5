/**
 * Conversion worker bootstrap only: tracing (before ioredis/bullmq load), env, logger, object
 * store, NATS (to report to the files service), the converter (its LibreOffice warm when
 * OFFICE_WARM=1, every tool in the sandbox), the BullMQ worker on files-convert with its lanes
 * (images apart from documents, one job per owner per lane: jobs/lanes.ts) and the health server. No database: the files service keeps the state, this process only converts.
 */
import { startTracing } from '@wb/platform/tracing';
const tracing = startTracing('converter');

import { mkdirSync } from 'node:fs';
import {
  connectBus,
  createLifecycle,
  createLogger,
  createRedis,
  createWorker,
  metricsRegistry,
  objectStoreOptionsFromEnv,
  openObjectStore,
  runMain,
  startHealthServer,
} from '@wb/platform';
import { DelayedError } from 'bullmq';
import { FILES_CONVERT_QUEUE } from '@wb/proto';
import type { FilesConvertJob } from '@wb/proto';
import { Converter } from './conversion';
import { loadConverterEnv, objectStoreEnv } from './env';
import { processConvertJob } from './jobs/convert';
import { laneOf, Lanes } from './jobs/lanes';
import { createConverterMetrics } from './metrics';

/** the worker reports as the system, not as a person */
const SYSTEM_ACTOR = { userId: 0 };

runMain('converter', async () => {
  const env = loadConverterEnv();
  const log = createLogger({ service: 'converter', level: env.LOG_LEVEL });
  const lifecycle = createLifecycle(log, { stepTimeoutMs: 20_000 });
  lifecycle.onShutdown('tracing', () => tracing.shutdown());
  mkdirSync(env.CONVERT_WORK_DIR, { recursive: true });

  const { store, description } = await openObjectStore(objectStoreOptionsFromEnv(objectStoreEnv()));
  log.info({ store: description }, 'object store opened');

  const bus = await connectBus({
    url: env.NATS_URL,
    prefix: env.NATS_PREFIX,
    name: 'converter',
    log,
    ensureStream: false,
  });
  lifecycle.onShutdown('nats', () => bus.drain());

  const converter = new Converter({
    workDir: env.CONVERT_WORK_DIR,
    log,
    office: {
      timeoutMs: env.OFFICE_TIMEOUT_MS,
      restartEvery: env.OFFICE_RESTART_EVERY,
      maxMemoryMb: env.OFFICE_MAX_MEMORY_MB,
      warm: env.OFFICE_WARM,
    },
    maxImagePixels: env.MAX_IMAGE_MEGAPIXELS * 1_000_000,
    toolTimeoutMs: env.TOOL_TIMEOUT_MS,
    jobTimeoutMs: env.JOB_TIMEOUT_MS,
    sandbox: env.SANDBOX,
    sandboxUid: env.SANDBOX_UID,
    imageSlots: env.IMAGE_SLOTS,
  });
  lifecycle.onShutdown('converter', () => converter.close());
  await converter.whenReady();

  const metrics = createConverterMetrics(metricsRegistry);
  const queueOptions = { redisUrl: env.REDIS_URL, prefix: env.REDIS_PREFIX, log };
  const lanes = new Lanes({ image: env.IMAGE_SLOTS, document: env.DOCUMENT_SLOTS });
  const worker = createWorker<FilesConvertJob>(
    FILES_CONVERT_QUEUE,
    async (job) => {
      const data = (job.data ?? {}) as Partial<FilesConvertJob> & { ownerId?: unknown };
      const lane = laneOf(data);
      const owner =
        typeof data.ownerId === 'number' || typeof data.ownerId === 'string' ? String(data.ownerId) : undefined;
      const release = lanes.tryEnter(lane, owner);
      if (!release) {
        // lane full or this person already converting in it: back to the queue, the slot goes to someone else
        metrics.sentBack.inc({ lane });
        await job.moveToDelayed(Date.now() + 150, job.token);
        throw new DelayedError();
      }
      try {
        return await processConvertJob(job, {
          store,
          converter,
          log,
          metrics,
          workDir: env.CONVERT_WORK_DIR,
          reportIntervalMs: 1000 / env.REPORTS_PER_SECOND,
          report: async (input) => {
            await bus.request('files', 'conversion.report', input, SYSTEM_ACTOR, { timeoutMs: 10_000 });
          },
        });
      } finally {
        release();
      }
    },
    { ...queueOptions, concurrency: lanes.concurrency },
  );
  // registered after the converter: it runs first, so the job in hand finishes before the office goes
  lifecycle.onShutdown('worker', () => worker.close());

  const redis = createRedis(env.REDIS_URL, { connectionName: `${env.REDIS_PREFIX}converter-health` });
  redis.on('error', (err) => log.warn({ err }, 'Redis connection error'));
  lifecycle.onShutdown('redis', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  const health = await startHealthServer({
    port: env.HEALTH_PORT,
    service: 'converter',
    log,
    checks: {
      nats: async () => {
        if (bus.nc.isClosed()) throw new Error('NATS connection closed');
        await bus.nc.flush();
      },
      redis: async () => {
        await redis.ping();
      },
      worker: async () => {
        if (!worker.isRunning()) throw new Error('worker not running');
      },
    },
  });
  lifecycle.onShutdown('health server', () => health.close());
  lifecycle.onShutdown('mark not ready', async () => health.setStopping());
  log.info(
    { healthPort: health.port, warm: env.OFFICE_WARM, sandbox: converter.sandbox.mode, lanes: lanes.slots },
    'converter ready',
  );
});
