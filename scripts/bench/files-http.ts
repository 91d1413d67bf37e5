/**
 * Files over HTTP benchmark (issue 15 "Speed"): through a real gateway, files service and auth
 * (startStack, NODE_ENV=production) with the filesystem object store in a temporary folder.
 *
 *  1. upload: one BENCH_UPLOAD_MB (200) MB multipart POST /docs on loopback, generated on the fly
 *     (a PDF header, then random bytes: the files service sniffs it as a PDF and stores it; its
 *     conversion is not part of this). Throughput = bytes / (first byte sent → answer), and the
 *     gateway's RSS growth (sampled every 20 ms, peak − before). Targets ≥ 100 MB/s, < 50 MB.
 *  2. thumbnail GET: `/docs/<hash>-0-thumb.webp` (a 12 KB object written into the store) at
 *     BENCH_RATE (500) req/s for BENCH_DURATION (10) s, open loop (scripts/lib/pacedLoad.ts in a
 *     child process, latency from the due time), after a 2 s warm-up. Target p99 ≤ 5 ms. The
 *     gateway keeps small images in memory (IMAGE_CACHE_MB), so this is its hot path.
 *  3. dedupe hit: a second person asks `GET /api/docs/{hash}` (already stored) and then
 *     `POST /api/docs/add`, the browser's path when the bytes are already there; BENCH_DEDUPE
 *     (300) sequential pairs on one keep-alive connection after 30 warm-up pairs; p50/p99 of the
 *     pair. Target p99 ≤ 20 ms.
 *
 * Prints the figures, writes artifacts/bench/files-http.json. BENCH_STRICT=1 → exit 1 when a
 * target is missed. Env: BENCH_UPLOAD_MB, BENCH_RATE, BENCH_DURATION, BENCH_DEDUPE, BENCH_NODE_OPTIONS.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { docPageKey } from '@wb/proto';
import { signUp, startStack, type RunningStack } from '@wb/platform/testing';
import type { Browser } from '@wb/platform/testing';
import { benchNodeOptions, productionStackEnv, runBench, stackInfra, writeBenchResult } from '../lib/bench';
import { ensureInfra, type Infra } from '../lib/infra';
import { pacedLoadInChild } from '../lib/pacedLoad';
import { cpuMs, rssBytes } from '../lib/procStats';
import { c, describeError, log, UserFacingError } from '../lib/log';

const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 200);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const DEDUPE = Number(process.env.BENCH_DEDUPE ?? 300);
const MB = 1024 * 1024;
const TARGETS = { uploadMBps: 100, rssGrowthMB: 50, thumbP99Ms: 5, dedupeP99Ms: 20 };

let infra: Infra | undefined;
let stack: RunningStack | undefined;
let filesDir: string | undefined;

async function cleanup(): Promise<void> {
  await stack?.stop().catch((err: unknown) => log.warn(`stack stop: ${describeError(err)}`));
  if (filesDir) await rm(filesDir, { recursive: true, force: true });
  await infra?.stop();
}

const round = (n: number, d = 1): number => Math.round(n * 10 ** d) / 10 ** d;

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
}

async function ultimate(databaseUrl: string, ids: number[]): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    // 30 GB of storage and every feature: the upload must not meet a plan limit
    await db.query("UPDATE auth.users SET plan = 'ultimate' WHERE id = ANY($1::int[])", [ids]);
  } finally {
    await db.end();
  }
}

interface UploadRun {
  status: number;
  body: string;
  seconds: number;
  sha256: string;
  bytes: number;
}

/**
 * One multipart POST /docs of `size` bytes generated while sending (never held in memory): a PDF
 * header, then a random 1 MiB block repeated with its first bytes varied (the content stays unique).
 */
function upload(base: string, who: Browser, size: number, name: string): Promise<UploadRun> {
  const boundary = 'wbBench' + randomBytes(8).toString('hex');
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const block = randomBytes(MB);
  const pdfHead = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
  const hash = createHash('sha256');
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = httpRequest(`${base}/docs`, {
      method: 'POST',
      headers: {
        cookie: who.cookieHeader(),
        'x-csrf-token': who.cookie('csrf-token') ?? '',
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (s: string) => (body += s));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body,
          seconds: Number(process.hrtime.bigint() - t0) / 1e9,
          sha256: hash.digest('hex'),
          bytes: size,
        }),
      );
    });
    req.on('error', reject);
    req.write(head);
    let sent = 0;
    let n = 0;
    const pump = (): void => {
      while (sent < size) {
        let chunk: Buffer;
        if (sent === 0) chunk = Buffer.concat([pdfHead, block.subarray(pdfHead.length)]);
        else {
          chunk = Buffer.from(block);
          chunk.writeUInt32BE(n++, 0);
        }
        chunk = chunk.subarray(0, Math.min(chunk.length, size - sent));
        hash.update(chunk);
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

/** one request on a keep-alive agent; resolves with status and body */
function call(
  agent: Agent,
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (s: string) => (text += s));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function main(): Promise<number> {
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
  process.on('SIGTERM', () => void cleanup().then(() => process.exit(143)));

  log.step('infrastructure');
  infra = await ensureInfra(process.env);
  filesDir = await mkdtemp(join(tmpdir(), 'wb-bench-files-'));
  const filesEnv = { FILES_STORE: 'fs', FILES_DIR: filesDir };

  log.step('starting services/auth, services/files and the gateway (startStack, NODE_ENV=production, fs store)');
  const nodeOptions = benchNodeOptions(['gateway', 'services/files']).envFor;
  stack = await startStack({
    deployables: ['services/auth', 'services/files', 'gateway'],
    env: { ...productionStackEnv(), ...filesEnv },
    envFor: {
      gateway: nodeOptions.gateway!,
      // production's plan cache: the plans are set below, before the first request asks for them
      'services/files': nodeOptions['services/files']!,
    },
    ...stackInfra(infra),
  });
  const base = stack.gatewayUrl;
  const ada = await signUp(base, 'Bench Uploader');
  const bob = await signUp(base, 'Bench Deduper');
  await ultimate(stack.databaseUrl, [ada.id, bob.id]);
  await ada.browser.get('/api/user'); // hands out the CSRF token

  // --- 1. upload ------------------------------------------------------------------------------
  log.step(`upload: ${UPLOAD_MB} MB multipart POST /docs`);
  const warm = await upload(base, ada.browser, 4 * MB, 'warm-up.pdf');
  if (warm.status !== 200) throw new UserFacingError(`warm-up upload answered ${warm.status}: ${warm.body}`);
  const gw = stack.pids.gateway;
  const rssBefore = rssBytes(gw);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssBytes(gw))), 20);
  const cpuBefore = cpuMs(gw);
  const big = await upload(base, ada.browser, UPLOAD_MB * MB, 'big.pdf');
  clearInterval(sampler);
  const gatewayCpuMs = cpuMs(gw) - cpuBefore;
  if (big.status !== 200) throw new UserFacingError(`upload answered ${big.status}: ${big.body}`);
  const stored = JSON.parse(big.body) as { id: string; size: number };
  if (stored.id !== big.sha256 || stored.size !== big.bytes)
    throw new UserFacingError(`the stored document is not what was sent: ${big.body.slice(0, 200)}`);
  const uploadResult = {
    bytes: big.bytes,
    seconds: round(big.seconds, 3),
    MBps: round(big.bytes / MB / big.seconds),
    gatewayRssBeforeMB: round(rssBefore / MB),
    gatewayRssGrowthMB: round((rssPeak - rssBefore) / MB),
    gatewayCpuMs: Math.round(gatewayCpuMs),
  };
  log.ok(
    `upload: ${uploadResult.MBps} MB/s (${UPLOAD_MB} MB in ${uploadResult.seconds} s), gateway RSS +${uploadResult.gatewayRssGrowthMB} MB`,
  );

  // --- 2. thumbnail GET -----------------------------------------------------------------------
  const thumbKey = docPageKey(stored.id, 0, 'thumb');
  await mkdir(dirname(join(filesDir, thumbKey)), { recursive: true });
  await writeFile(join(filesDir, thumbKey), randomBytes(12 * 1024));
  const thumbUrl = `${base}/${thumbKey}`;
  const probe = await fetch(thumbUrl);
  await probe.arrayBuffer();
  if (probe.status !== 200) throw new UserFacingError(`GET ${thumbKey} answered ${probe.status}`);
  log.step(`thumbnail GET: ${RATE} req/s for ${DURATION} s (2 s warm-up)`);
  // the generator in a process of its own: the stack's output readers share this one's event loop
  const thumbs = await pacedLoadInChild({
    url: thumbUrl,
    headers: { accept: 'image/avif,image/webp,*/*' },
    rate: RATE,
    durationS: DURATION,
    warmupS: 2,
  });
  const machineBusy = thumbs.machineBusyPct;
  log.ok(
    `thumbnail GET p50 ${thumbs.p50} ms, p99 ${thumbs.p99} ms (${thumbs.non2xx} non-2xx, ${thumbs.errors} errors)`,
  );

  // --- 3. dedupe hit --------------------------------------------------------------------------
  log.step(`dedupe hit: ${DEDUPE} × (GET /api/docs/{hash} + POST /api/docs/add) by a second person`);
  const small = await upload(base, ada.browser, 64 * 1024, 'worksheet.pdf');
  if (small.status !== 200) throw new UserFacingError(`small upload answered ${small.status}: ${small.body}`);
  await bob.browser.get('/api/user');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { cookie: bob.browser.cookieHeader(), accept: 'application/json' };
  const post = {
    ...headers,
    'content-type': 'application/json',
    'x-csrf-token': bob.browser.cookie('csrf-token') ?? '',
  };
  const pairMs: number[] = [];
  const getMs: number[] = [];
  const addMs: number[] = [];
  for (let i = 0; i < DEDUPE + 30; i++) {
    const t0 = process.hrtime.bigint();
    const got = await call(agent, base, 'GET', `/api/docs/${small.sha256}`, headers);
    const known = JSON.parse(got.body) as { id?: string } | null;
    if (got.status !== 200 || known?.id !== small.sha256)
      throw new UserFacingError(`GET /api/docs/{hash} answered ${got.status}: ${got.body.slice(0, 200)}`);
    const t1 = process.hrtime.bigint();
    const added = await call(
      agent,
      base,
      'POST',
      '/api/docs/add',
      post,
      JSON.stringify({ docId: small.sha256, name: `worksheet ${i}.pdf` }),
    );
    if (added.status !== 200)
      throw new UserFacingError(`POST /api/docs/add answered ${added.status}: ${added.body.slice(0, 200)}`);
    if (i >= 30) {
      const t2 = process.hrtime.bigint();
      pairMs.push(Number(t2 - t0) / 1e6);
      getMs.push(Number(t1 - t0) / 1e6);
      addMs.push(Number(t2 - t1) / 1e6);
    }
  }
  agent.destroy();
  for (const list of [pairMs, getMs, addMs]) list.sort((a, b) => a - b);
  const dedupe = {
    pairs: pairMs.length,
    p50: round(percentile(pairMs, 50), 2),
    p99: round(percentile(pairMs, 99), 2),
    max: round(pairMs.at(-1) ?? NaN, 2),
    get: { p50: round(percentile(getMs, 50), 2), p99: round(percentile(getMs, 99), 2) },
    add: { p50: round(percentile(addMs, 50), 2), p99: round(percentile(addMs, 99), 2) },
  };
  log.ok(`dedupe hit p50 ${dedupe.p50} ms, p99 ${dedupe.p99} ms`);

  const met = {
    uploadMBps: uploadResult.MBps >= TARGETS.uploadMBps,
    rssGrowthMB: uploadResult.gatewayRssGrowthMB < TARGETS.rssGrowthMB,
    thumbP99Ms: thumbs.p99 <= TARGETS.thumbP99Ms && thumbs.non2xx === 0 && thumbs.errors === 0,
    dedupeP99Ms: dedupe.p99 <= TARGETS.dedupeP99Ms,
  };
  const mark = (ok: boolean): string => (ok ? c.green('met') : c.red('MISSED'));
  console.log('');
  console.log(c.bold('  Files over HTTP (gateway → fs object store on loopback)'));
  console.log(
    `  upload ${UPLOAD_MB} MB: ${uploadResult.MBps} MB/s (target ≥ ${TARGETS.uploadMBps}: ${mark(met.uploadMBps)}),` +
      ` gateway RSS +${uploadResult.gatewayRssGrowthMB} MB (target < ${TARGETS.rssGrowthMB}: ${mark(met.rssGrowthMB)}),` +
      ` gateway CPU ${uploadResult.gatewayCpuMs} ms`,
  );
  console.log(
    `  thumbnail GET at ${RATE} req/s: p50 ${thumbs.p50} ms, p99 ${thumbs.p99} ms, max ${thumbs.max} ms` +
      ` (${thumbs.achievedRps} req/s achieved; target p99 ≤ ${TARGETS.thumbP99Ms}: ${mark(met.thumbP99Ms)})`,
  );
  console.log(`  machine busy during the thumbnail run: ${machineBusy} % of all cores (everything running on it)`);
  console.log(
    `  dedupe hit (GET + add): p50 ${dedupe.p50} ms, p99 ${dedupe.p99} ms (target ≤ ${TARGETS.dedupeP99Ms}: ${mark(met.dedupeP99Ms)})`,
  );
  console.log(
    `    of which GET /api/docs/{hash}: p50 ${dedupe.get.p50} ms, p99 ${dedupe.get.p99} ms; POST /api/docs/add: p50 ${dedupe.add.p50} ms, p99 ${dedupe.add.p99} ms`,
  );

  const result: Record<string, unknown> = {
    scenario: { store: 'fs (temporary folder)', nodeEnv: 'production', deployables: ['auth', 'files', 'gateway'] },
    upload: uploadResult,
    thumbnail: { rate: RATE, durationS: DURATION, objectBytes: 12 * 1024, result: thumbs },
    machineBusyPercentDuringThumbnails: machineBusy,
    loadAverage: loadavg(),
    dedupe,
    targets: TARGETS,
    met,
  };
  log.ok(`wrote ${writeBenchResult('files-http', result)}`);
  return process.env.BENCH_STRICT === '1' && Object.values(met).includes(false) ? 1 : 0;
}

runBench(main, cleanup);
