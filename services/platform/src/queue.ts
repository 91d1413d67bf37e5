/**
 * BullMQ helpers: queues and workers under the deployment's Redis prefix, jobs carrying the
 * trace context of whoever enqueued them, workers logging and closing gracefully.
 */
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Queue, Worker } from 'bullmq';
import type { Job, JobsOptions } from 'bullmq';
import type { Logger } from './logger';
import { createRedis } from './redis';
import { captureTraceContext, contextFromCarrier } from './trace-context';
import type { TraceCarrier } from './trace-context';

export interface QueueOptions {
  redisUrl: string;
  /** REDIS_PREFIX; BullMQ keys become <prefix>bull:<queue>:… */
  prefix: string;
  log: Logger;
}

/** Field of job data carrying the enqueuer's W3C trace context (removed before the processor sees the data). */
export const JOB_TRACE_FIELD = '_trace';

/** Retries with back-off and bounded history, so Redis does not fill up with finished jobs. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
};

/** BullMQ's own prefix option: it appends ":<queue>:…" itself. */
export function bullPrefix(redisPrefix: string): string {
  return `${redisPrefix}bull`;
}

const tracer = trace.getTracer('@wb/platform/queue');

function withTrace<T>(data: T): T {
  const carrier = captureTraceContext();
  if (!carrier.traceparent || data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  return { ...data, [JOB_TRACE_FIELD]: carrier };
}

export function createQueue<T>(name: string, opts: QueueOptions & { defaultJobOptions?: JobsOptions }): Queue<T> {
  const connection = createRedis(opts.redisUrl, { forBullmq: true, connectionName: `${opts.prefix}queue:${name}` });
  const log = opts.log.child({ component: 'queue', queue: name });
  connection.on('error', (err) => log.warn({ err }, 'queue Redis connection error'));
  const queue = new Queue<T>(name, {
    connection,
    prefix: bullPrefix(opts.prefix),
    defaultJobOptions: { ...DEFAULT_JOB_OPTIONS, ...opts.defaultJobOptions },
  });
  queue.on('error', (err) => log.error({ err }, 'queue error'));

  // Stamp every job with the enqueuer's trace context; instance-level wrappers keep BullMQ's
  // (heavily generic) method types untouched.
  const add = queue.add.bind(queue);
  const addBulk = queue.addBulk.bind(queue);
  queue.add = ((jobName, data, jobOpts) => add(jobName, withTrace(data), jobOpts)) as typeof queue.add;
  queue.addBulk = ((jobs) => addBulk(jobs.map((j) => ({ ...j, data: withTrace(j.data) })))) as typeof queue.addBulk;

  // BullMQ does not close a connection it was handed; this one is ours alone.
  const close = queue.close.bind(queue);
  queue.close = async () => {
    try {
      await close();
    } finally {
      await connection.quit().catch(() => connection.disconnect());
    }
  };
  return queue;
}

export function createWorker<T>(
  name: string,
  handler: (job: Job<T>) => Promise<unknown>,
  opts: QueueOptions & { concurrency?: number },
): Worker<T> {
  const connection = createRedis(opts.redisUrl, { forBullmq: true, connectionName: `${opts.prefix}worker:${name}` });
  const log = opts.log.child({ component: 'worker', queue: name });
  connection.on('error', (err) => log.warn({ err }, 'worker Redis connection error'));

  const processor = async (job: Job<T>): Promise<unknown> => {
    const data = job.data as (T & { [JOB_TRACE_FIELD]?: TraceCarrier }) | undefined;
    let carrier: TraceCarrier | undefined;
    if (data && typeof data === 'object' && JOB_TRACE_FIELD in data) {
      carrier = data[JOB_TRACE_FIELD];
      // The processor sees the data it was given (strict schemas would reject the extra field).
      const { [JOB_TRACE_FIELD]: _trace, ...rest } = data;
      job.data = rest as T;
    }
    const parent = contextFromCarrier(carrier);
    const span = tracer.startSpan(
      `job ${name}.${job.name}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'bullmq',
          'messaging.destination.name': name,
          'messaging.message.id': job.id ?? '',
          'wb.job.attempt': job.attemptsMade + 1,
        },
      },
      parent,
    );
    return context.with(trace.setSpan(parent, span), async () => {
      try {
        return await handler(job);
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw err;
      } finally {
        span.end();
      }
    });
  };

  const worker = new Worker<T>(name, processor, {
    connection,
    prefix: bullPrefix(opts.prefix),
    concurrency: opts.concurrency ?? 1,
  });
  worker.on('failed', (job, err) => {
    const attempts = job?.opts.attempts ?? 1;
    const final = !job || job.attemptsMade >= attempts;
    log[final ? 'error' : 'warn'](
      { err, jobId: job?.id, jobName: job?.name, attemptsMade: job?.attemptsMade, attempts },
      final ? 'job failed for good' : 'job failed; will retry',
    );
  });
  worker.on('error', (err) => log.error({ err }, 'worker error'));

  const close = worker.close.bind(worker);
  worker.close = async (force?: boolean) => {
    try {
      await close(force);
    } finally {
      await connection.quit().catch(() => connection.disconnect());
    }
  };
  return worker;
}
