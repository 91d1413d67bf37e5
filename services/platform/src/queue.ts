/**
 * BullMQ helpers: queues and workers under the deployment's Redis prefix, jobs carrying the
 * trace context of whoever enqueued them, workers logging and closing gracefully.
 */
import type { Queue, Worker, Job, JobsOptions } from 'bullmq';
import type { Logger } from './logger';
export interface QueueOptions {
  redisUrl: string;
  /** REDIS_PREFIX; BullMQ keys become <prefix>bull:<queue>:… */
  prefix: string;
  log: Logger;
}
export function createQueue<T>(_name: string, _opts: QueueOptions & { defaultJobOptions?: JobsOptions }): Queue<T> {
  throw new Error('not implemented');
}
export function createWorker<T>(_name: string, _process: (job: Job<T>) => Promise<unknown>, _opts: QueueOptions & { concurrency?: number }): Worker<T> {
  throw new Error('not implemented');
}
