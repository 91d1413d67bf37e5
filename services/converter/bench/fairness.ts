/**
 * Fairness under attack (issue 25 §2): the real worker (src/main.ts, its lanes, sandbox and
 * warm office) takes an attacker's SVG bomb (346 bytes: 2100×2100, feTurbulence numOctaves=10,
 * feGaussianBlur 200, feMorphology 300) and a few-KB PDF of nested Form XObjects, several of each,
 * then a victim's 32×32 PNG and 1-page DOCX. Prints each victim's time from queued to ready
 * (targets: PNG ≤ 2 s, DOCX ≤ 5 s) and what became of the bombs.
 *
 *   node --import tsx services/converter/bench/fairness.ts [--bombs 3]
 *
 * Needs Redis and NATS (the defaults of the tests); everything it makes is under its own prefix.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { connectBus, createLogger, createQueue, createService, endpoint, FsObjectStore } from '@wb/platform';
import type { ConversionReportInput } from '../src/jobs/convert';
import {
  DEFAULT_TEST_NATS_URL,
  DEFAULT_TEST_REDIS_URL,
  deleteRedisKeys,
  findRepoRoot,
  freePort,
  randomId,
} from '@wb/platform/testing';
import { FILES_CONVERT_QUEUE, filesOperations, originalKey } from '@wb/proto';
import type { FileFormat, FilesConvertJob } from '@wb/proto';
import { makeDocx, nestedXObjectPdf, SVG_BOMB } from '../test/fixtures';

const { values } = parseArgs({ options: { bombs: { type: 'string', default: '3' } } });
const bombs = Math.max(1, Number(values.bombs));
const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const id = randomId();
  const natsPrefix = `bcv${id}.`;
  const redisPrefix = `bcv${id}:`;
  const log = createLogger({ service: 'converter-bench', level: 'silent' });
  const repo = findRepoRoot(__dirname);
  const dir = mkdtempSync(join(tmpdir(), 'wb-converter-fairness-'));
  chmodSync(dir, 0o755);
  const store = new FsObjectStore(join(dir, 'files'));
  const reports: (ConversionReportInput & { at: number })[] = [];
  const bus = await connectBus({
    url: DEFAULT_TEST_NATS_URL,
    prefix: natsPrefix,
    name: 'bench-files',
    log,
    ensureStream: false,
  });
  const files = await createService(bus, {
    name: 'files',
    version: '0.0.0',
    description: 'bench: records conversion reports',
    log,
    endpoints: [
      endpoint({
        operation: 'conversion.report',
        ...filesOperations['conversion.report'],
        handler: async (input) => {
          reports.push({ ...input, at: performance.now() });
          return { ok: true as const };
        },
      }),
    ],
  });
  const queue = createQueue<FilesConvertJob>(FILES_CONVERT_QUEUE, {
    redisUrl: DEFAULT_TEST_REDIS_URL,
    prefix: redisPrefix,
    log,
  });
  let workerLog = '';
  const worker = spawn(process.execPath, ['--import', 'tsx', join(repo, 'services/converter/src/main.ts')], {
    cwd: repo,
    env: {
      // eslint-disable-next-line no-restricted-properties -- the worker it starts needs PATH and the like
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      NATS_URL: DEFAULT_TEST_NATS_URL,
      NATS_PREFIX: natsPrefix,
      REDIS_URL: DEFAULT_TEST_REDIS_URL,
      REDIS_PREFIX: redisPrefix,
      HEALTH_PORT: String(await freePort()),
      FILES_STORE: 'fs',
      FILES_DIR: join(dir, 'files'),
      CONVERT_WORK_DIR: join(dir, 'work'),
      OFFICE_WARM: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout.on('data', (c: Buffer) => (workerLog += c.toString()));
  worker.stderr.on('data', (c: Buffer) => (workerLog += c.toString()));
  const until = async <T>(what: string, probe: () => T | undefined, ms = 180_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = probe();
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error(`timed out: ${what}\n${workerLog.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  let n = 0;
  const enqueue = async (bytes: Buffer | string, format: FileFormat, ownerId: number) => {
    const docId = (++n).toString(16).padStart(64, 'b');
    await store.put(originalKey(docId), Buffer.from(bytes));
    const at = performance.now();
    await queue.add('convert', { docId, format, purpose: 'doc', ownerId }, { jobId: docId });
    return { docId, at };
  };
  const final = (docId: string) => () => reports.find((r) => r.docId === docId && r.status !== 'processing');

  try {
    await until('worker ready', () => (/converter ready/.test(workerLog) ? true : undefined));
    const sandbox = /"sandbox":"(\w+)"/.exec(workerLog)?.[1];
    // warm-up: the office has converted once
    const warm = await enqueue(makeDocx(['warm-up']), 'docx', 3);
    await until('warm-up', final(warm.docId));

    const pdfBomb = nestedXObjectPdf();
    const attack: { docId: string; at: number; kind: string }[] = [];
    for (let i = 0; i < bombs; i++) {
      attack.push({ ...(await enqueue(SVG_BOMB, 'svg', 1)), kind: 'SVG bomb' });
      attack.push({ ...(await enqueue(pdfBomb, 'pdf', 1)), kind: 'PDF bomb' });
    }
    await new Promise((r) => setTimeout(r, 300));
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#3a6' } })
      .png()
      .toBuffer();
    const victimPng = await enqueue(png, 'png', 2);
    const victimDocx = await enqueue(makeDocx(['The victim’s one-page document']), 'docx', 2);
    const pngReport = await until('victim PNG', final(victimPng.docId));
    const docxReport = await until('victim DOCX', final(victimDocx.docId));
    say(
      `sandbox: ${sandbox}; SVG bomb ${Buffer.byteLength(SVG_BOMB)} bytes, PDF bomb ${pdfBomb.length} bytes, ${bombs} of each queued first by one person`,
    );
    say(`victim 32×32 PNG: ${pngReport.status} in ${Math.round(pngReport.at - victimPng.at)} ms (target ≤ 2000 ms)`);
    say(
      `victim 1-page DOCX: ${docxReport.status} in ${Math.round(docxReport.at - victimDocx.at)} ms (target ≤ 5000 ms)`,
    );
    for (const b of attack) {
      const r = await until(b.kind, final(b.docId), 600_000);
      say(`  ${b.kind}: ${r.status}${r.error ? ` (“${r.error}”)` : ''} after ${Math.round(r.at - b.at)} ms`);
    }
  } finally {
    const exited = new Promise((r) => worker.once('exit', r));
    worker.kill('SIGTERM');
    await exited;
    await queue.close();
    await files.stop();
    await bus.drain();
    await deleteRedisKeys(redisPrefix);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
