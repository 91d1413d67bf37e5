/**
 * The worker end to end: the real process (src/main.ts) on a real BullMQ queue under its own
 * Redis key prefix, a filesystem object store in a temp folder, and a fake files service on
 * NATS under its own subject prefix that records every conversion.report.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueueEvents } from 'bullmq';
import sharp from 'sharp';
import {
  bullPrefix,
  connectBus,
  createLogger,
  createQueue,
  createRedis,
  createService,
  endpoint,
  FsObjectStore,
} from '@wb/platform';
import type { Bus, ObjectStore, RunningService } from '@wb/platform';
import {
  DEFAULT_TEST_NATS_URL,
  DEFAULT_TEST_REDIS_URL,
  deleteRedisKeys,
  eventually,
  findRepoRoot,
  freePort,
  randomId,
} from '@wb/platform/testing';
import { displayImageKey, docPageKey, FILES_CONVERT_QUEUE, filesOperations, imageKey, originalKey } from '@wb/proto';
import type { FilesConvertJob } from '@wb/proto';
import type { Queue } from 'bullmq';
import type { ConversionReportInput } from '../src/jobs/convert';
import { makePdf, makeZipBombDocx } from './fixtures';

jest.setTimeout(120_000);

const id = randomId();
const natsPrefix = `tcv${id}.`;
const redisPrefix = `tcv${id}:`;
const log = createLogger({ service: 'converter', level: 'silent' });
const repo = findRepoRoot(__dirname);

let dir: string;
let store: ObjectStore;
let bus: Bus;
let files: RunningService;
let queue: Queue<FilesConvertJob>;
let events: QueueEvents;
let eventsRedis: ReturnType<typeof createRedis>;
let worker: ChildProcess;
let healthPort: number;
let workerLog = '';
const reports: ConversionReportInput[] = [];

const docId = (n: number) => n.toString(16).padStart(64, 'a');

/** a failed wait shows the worker's last output */
const withWorkerLog = <T>(wait: Promise<T>): Promise<T> =>
  wait.catch((err: Error) => Promise.reject(new Error(`${err.message}\n${workerLog.slice(-3000)}`)));
const finalReport = (doc: string) =>
  withWorkerLog(
    eventually(
      () => reports.find((r) => r.docId === doc && r.status !== 'processing'),
      60_000,
      50,
      `final report of ${doc}`,
    ),
  );

async function keysOf(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  return keys.sort();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-converter-worker-'));
  chmodSync(dir, 0o755); // the sandbox user walks through it to its job folders
  store = new FsObjectStore(join(dir, 'files'));
  bus = await connectBus({
    url: DEFAULT_TEST_NATS_URL,
    prefix: natsPrefix,
    name: 'fake-files',
    log,
    ensureStream: false,
  });
  files = await createService(bus, {
    name: 'files',
    version: '0.0.0',
    description: 'fake files service recording conversion reports',
    log,
    endpoints: [
      endpoint({
        operation: 'conversion.report',
        ...filesOperations['conversion.report'],
        handler: async (input) => {
          reports.push(input);
          return { ok: true as const };
        },
      }),
    ],
  });
  queue = createQueue<FilesConvertJob>(FILES_CONVERT_QUEUE, {
    redisUrl: DEFAULT_TEST_REDIS_URL,
    prefix: redisPrefix,
    log,
  });
  eventsRedis = createRedis(DEFAULT_TEST_REDIS_URL, { forBullmq: true });
  events = new QueueEvents(FILES_CONVERT_QUEUE, { connection: eventsRedis, prefix: bullPrefix(redisPrefix) });
  await events.waitUntilReady();

  healthPort = await freePort();
  worker = spawn(process.execPath, ['--import', 'tsx', join(repo, 'services/converter/src/main.ts')], {
    cwd: repo,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      NATS_URL: DEFAULT_TEST_NATS_URL,
      NATS_PREFIX: natsPrefix,
      REDIS_URL: DEFAULT_TEST_REDIS_URL,
      REDIS_PREFIX: redisPrefix,
      HEALTH_PORT: String(healthPort),
      FILES_STORE: 'fs',
      FILES_DIR: join(dir, 'files'),
      CONVERT_WORK_DIR: join(dir, 'work'),
      OFFICE_WARM: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout!.on('data', (c: Buffer) => (workerLog += c.toString()));
  worker.stderr!.on('data', (c: Buffer) => (workerLog += c.toString()));
  await withWorkerLog(eventually(() => /converter ready/.test(workerLog), 60_000, 50, 'the worker to be ready'));
});

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((r) => worker.once('exit', r));
    worker.kill('SIGTERM');
    await exited;
  }
  await events?.close();
  await eventsRedis?.quit();
  await queue?.close();
  await files?.stop();
  await bus?.drain();
  await deleteRedisKeys(redisPrefix);
  rmSync(dir, { recursive: true, force: true });
});

it('reports ready for a good document and failed for a bomb, leaving nothing half-stored', async () => {
  const good = docId(1);
  const bomb = docId(2);
  await store.put(originalKey(good), makePdf(5));
  await store.put(originalKey(bomb), makeZipBombDocx(50));
  await queue.add('convert', { docId: good, format: 'pdf', purpose: 'doc' }, { jobId: good });
  await queue.add('convert', { docId: bomb, format: 'docx', purpose: 'doc' }, { jobId: bomb });

  expect(await finalReport(good)).toEqual({ docId: good, status: 'ready', pages: 5, pagesDone: 5, error: null });
  const progress = reports.filter((r) => r.docId === good && r.status === 'processing');
  expect(progress.length).toBeGreaterThanOrEqual(1);
  expect(progress.every((r) => r.pages === 5 && r.pagesDone <= 5)).toBe(true);
  const keys = await keysOf('docs/');
  expect(keys.filter((k) => k.includes(good))).toHaveLength(10);
  expect(keys).toContain(docPageKey(good, 4, 'thumb'));
  expect((await sharp(Buffer.from((await store.get(docPageKey(good, 0, 'thumb')))!)).metadata()).width).toBe(320);

  expect(await finalReport(bomb)).toEqual({
    docId: bomb,
    status: 'failed',
    pages: 0,
    pagesDone: 0,
    error: 'The document is too large once unpacked',
  });
  expect((await keysOf('docs/')).filter((k) => k.includes(bomb))).toEqual([]);
});

it('reports a missing original as failed', async () => {
  const doc = docId(4);
  await queue.add('convert', { docId: doc, format: 'pdf', purpose: 'doc' }, { jobId: doc });
  expect(await finalReport(doc)).toMatchObject({ status: 'failed', error: 'The uploaded file is no longer stored' });
});

it('makes a square profile picture for a displayImage job, and fails a damaged one with the reason', async () => {
  const doc = docId(5);
  await store.put(
    originalKey(doc),
    await sharp({ create: { width: 640, height: 480, channels: 3, background: '#a0c' } })
      .jpeg()
      .toBuffer(),
  );
  const job = await queue.add('displayImage', { docId: doc, format: 'jpeg', purpose: 'displayImage' }, { attempts: 1 });
  await job.waitUntilFinished(events, 60_000);
  const meta = await sharp(Buffer.from((await store.get(displayImageKey(doc)))!)).metadata();
  expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
  // a picture has its own key: the document images of the same bytes are not overwritten
  expect(await store.stat(imageKey(doc, 'full'))).toBeNull();
  expect(reports.some((r) => r.docId === doc)).toBe(false);

  const bad = docId(6);
  await store.put(originalKey(bad), Buffer.from('\x89PNG\r\n\x1a\n truncated', 'latin1'));
  const badJob = await queue.add(
    'displayImage',
    { docId: bad, format: 'png', purpose: 'displayImage' },
    { attempts: 1 },
  );
  await expect(badJob.waitUntilFinished(events, 60_000)).rejects.toThrow(
    'The image is damaged or is not a valid image',
  );
  expect(await store.stat(displayImageKey(bad))).toBeNull();
});

it('answers health and metrics', async () => {
  const ready = await fetch(`http://127.0.0.1:${healthPort}/readyz`);
  expect(ready.status).toBe(200);
  const metrics = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
  expect(metrics).toMatch(/converter_jobs_total\{purpose="doc",outcome="ready"\} 1/);
  expect(metrics).toMatch(/converter_pages_total \d+/);
  expect(metrics).toContain('converter_job_seconds_bucket');
});
