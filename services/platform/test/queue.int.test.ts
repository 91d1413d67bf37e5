/** BullMQ queues and workers against the real Redis, under a unique key prefix. */
import { Redis } from 'ioredis';
import { createQueue, createWorker } from '../src/queue';
import { DEFAULT_TEST_REDIS_URL, deleteRedisKeys, randomId } from '../src/testing/stack';
import { captureLog, eventually } from './fixtures';

const redisPrefix = `wbt${randomId()}:`;
const opts = { redisUrl: DEFAULT_TEST_REDIS_URL, prefix: redisPrefix };
const { log, lines } = captureLog('debug');
const redis = new Redis(DEFAULT_TEST_REDIS_URL);

afterAll(async () => {
  expect(await deleteRedisKeys(redisPrefix)).toBeGreaterThan(0);
  const [, left] = await redis.scan('0', 'MATCH', `${redisPrefix}*`, 'COUNT', 1000);
  expect(left).toEqual([]);
  await redis.quit();
});

it('runs jobs under <REDIS_PREFIX>bull:<queue> with default retries, logging failures', async () => {
  const queue = createQueue<{ n: number }>('thumbs', { ...opts, log });
  const attempts = new Map<number, number>();
  const done: number[] = [];
  const worker = createWorker<{ n: number }>(
    'thumbs',
    async (job) => {
      const a = (attempts.get(job.data.n) ?? 0) + 1;
      attempts.set(job.data.n, a);
      // The trace field never reaches the processor (there is no active trace here anyway).
      expect(Object.keys(job.data)).toEqual(['n']);
      if (job.data.n === 2 && a < 2) throw new Error('flaky once');
      if (job.data.n === 3) throw new Error('always broken');
      done.push(job.data.n);
      return { ok: true };
    },
    { ...opts, log, concurrency: 2 },
  );
  try {
    const job1 = await queue.add('render', { n: 1 });
    expect(job1.opts).toMatchObject({ attempts: 3, backoff: { type: 'exponential', delay: 1000 } });
    // Short back-off for the retries in this test.
    await queue.add('render', { n: 2 }, { backoff: { type: 'fixed', delay: 50 } });
    await queue.add('render', { n: 3 }, { backoff: { type: 'fixed', delay: 50 } });
    await eventually(async () => done.length === 2 && (await queue.getFailedCount()) === 1);
    expect(done.sort()).toEqual([1, 2]);
    expect(attempts.get(3)).toBe(3);

    const keys = await redis.keys(`${redisPrefix}bull:thumbs:*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(await redis.keys('bull:thumbs:*')).toEqual([]);

    expect(lines.filter((l) => l.msg === 'job failed; will retry').length).toBe(3);
    expect(lines.find((l) => l.msg === 'job failed for good')).toMatchObject({
      level: 'error',
      queue: 'thumbs',
      jobName: 'render',
      attemptsMade: 3,
    });
    // Completed jobs are removed (removeOnComplete keeps a bounded history, not every job forever).
    expect(queue.defaultJobOptions.removeOnComplete).toBeTruthy();
  } finally {
    await worker.close();
    await queue.close();
  }
});

it('closes the Redis connections it created', async () => {
  // Our connections are named after the prefix; the server is shared, so count only those.
  const ours = async (): Promise<number> =>
    ((await redis.call('CLIENT', 'LIST')) as string).split('\n').filter((l) => l.includes(`name=${redisPrefix}`))
      .length;
  const queue = createQueue(`q${randomId()}`, { ...opts, log });
  const worker = createWorker(`q${randomId()}`, async () => undefined, { ...opts, log });
  await queue.waitUntilReady();
  await worker.waitUntilReady();
  expect(await ours()).toBeGreaterThanOrEqual(2);
  await worker.close();
  await queue.close();
  await eventually(async () => (await ours()) === 0, 5000);
});
