/**
 * Boards list benchmark: GET /api/boards through the real gateway → NATS → boards service for a
 * user with 5,000 boards in 50 folders, at a fixed 200 requests/s.
 *
 * Stack: services/auth, services/boards and the gateway as child processes (startStack) with
 * NODE_ENV=production (replies are not re-validated against their schema, as in production).
 * The user signs up through the gateway; the folders and boards are seeded straight into the
 * test database (the service's own triggers keep its list version right).
 *
 * Load: scripts/lib/pacedLoad.ts, an open loop at RATE requests/s evenly spread over keep-alive
 * connections, latency from each request's due time (autocannon's `overallRate` fires each
 * connection's per-second quota in a burst, and its client cost ~3 ms CPU per 111 KiB response
 * on the same 2 cores as the servers). Every response time is kept (exact p50/p99/max).
 * Warm-up 3 s at the same rate first.
 * Also: the CPU time the gateway and the boards service spent per request, and one closed-loop
 * run (10 connections, 5 s) for the maximum throughput.
 *
 * Prints the figures, writes artifacts/bench/boards-list.json. Target: p99 ≤ 25 ms at 200 req/s.
 * Requests carry Chromium's Accept-Encoding (BENCH_ACCEPT_ENCODING=identity for uncompressed).
 * BENCH_STRICT=1 → exit 1 when missed. Env: BENCH_RATE (200), BENCH_DURATION (s, 20),
 * BENCH_WARMUP (s, 3), BENCH_BOARDS (5000), BENCH_FOLDERS (50), BENCH_NODE_OPTIONS (passed to the
 * gateway and the boards service, e.g. `--trace-gc`).
 */
import { randomBytes } from 'node:crypto';
import { get as httpGet } from 'node:http';
import type autocannon from 'autocannon';
import pg from 'pg';
import { signUp, startStack, type RunningStack } from '@wb/platform/testing';
import {
  benchNodeOptions,
  productionStackEnv,
  runAutocannon,
  runBench,
  stackInfra,
  writeBenchResult,
} from '../lib/bench';
import { ensureInfra, type Infra } from '../lib/infra';
import { pacedLoad } from '../lib/pacedLoad';
import { cpuMs, machineBusyPctSince, machineTicks } from '../lib/procStats';
import { c, describeError, log, UserFacingError } from '../lib/log';

const RATE = Number(process.env.BENCH_RATE ?? 200);
const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const BOARDS = Number(process.env.BENCH_BOARDS ?? 5000);
const FOLDERS = Number(process.env.BENCH_FOLDERS ?? 50);
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? 'gzip, deflate, br, zstd';
const TARGET_P99_MS = 25;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
const TOPICS = [
  'Fractions',
  'Photosynthesis',
  'Quadratic equations',
  'Spanish verbs',
  'World War II timeline',
  'Cell division',
  'Pythagoras',
  'Essay outline',
  'Chemistry lab notes',
  'Project kickoff',
];

let infra: Infra | undefined;
let stack: RunningStack | undefined;

async function cleanup(): Promise<void> {
  await stack?.stop().catch((err: unknown) => log.warn(`stack stop: ${describeError(err)}`));
  await infra?.stop();
}

function boardId(): string {
  const bytes = randomBytes(21);
  let id = '';
  for (const b of bytes) id += ALPHABET[b & 63];
  return id;
}

/** sign up through the gateway; returns the cookie header and the user id */
/** FOLDERS folders and BOARDS boards (spread evenly over the folders, one a minute apart) */
async function seed(databaseUrl: string, userId: number): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const folders = await db.query<{ id: number }>(
      `INSERT INTO boards.folders (user_id, name) SELECT $1, 'Class ' || g FROM generate_series(1, $2::int) g RETURNING id`,
      [userId, FOLDERS],
    );
    const folderIds = folders.rows.map((r) => r.id);
    const ids: string[] = [];
    const titles: string[] = [];
    const inFolder: number[] = [];
    for (let i = 0; i < BOARDS; i++) {
      ids.push(boardId());
      titles.push(`${TOPICS[i % TOPICS.length]} ${i + 1}`);
      inFolder.push(folderIds[i % folderIds.length]!);
    }
    await db.query(
      `INSERT INTO boards.boards (id, user_id, title, folder_id, created_at, updated_at)
       SELECT id, $1, title, folder_id, now() - n * interval '1 minute', now() - n * interval '1 minute'
         FROM unnest($2::text[], $3::text[], $4::int[]) WITH ORDINALITY AS t(id, title, folder_id, n)`,
      [userId, ids, titles, inFolder],
    );
    await db.query('ANALYZE boards.boards');
  } finally {
    await db.end();
  }
}

/** the reply as it crosses the wire (no decompression): size and Content-Encoding */
function wireBytes(url: string, headers: Record<string, string>): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ bytes, encoding: res.headers['content-encoding'] ?? 'identity' }));
    }).on('error', reject);
  });
}

function closedLoop(url: string, headers: Record<string, string>): Promise<autocannon.Result> {
  return runAutocannon({ url, headers, connections: 10, duration: 5 });
}

async function main(): Promise<number> {
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
  process.on('SIGTERM', () => void cleanup().then(() => process.exit(143)));

  log.step('infrastructure');
  infra = await ensureInfra(process.env);

  log.step('starting services/auth, services/boards and the gateway (startStack, NODE_ENV=production)');
  stack = await startStack({
    deployables: ['services/auth', 'services/boards', 'gateway'],
    env: productionStackEnv(),
    ...benchNodeOptions(['gateway', 'services/boards']),
    ...stackInfra(infra),
  });
  const { browser, id: userId } = await signUp(stack.gatewayUrl, 'Bench Teacher');
  const cookie = browser.cookieHeader();
  log.step(`seeding ${BOARDS} boards in ${FOLDERS} folders for user ${userId}`);
  await seed(stack.databaseUrl, userId);

  // what the dashboard asks for; the default (spec) shape is fetched once below for its size
  const url = `${stack.gatewayUrl}/api/boards?format=columns`;
  // what Chromium sends: the gateway then passes the boards service's pre-compressed list through
  const headers = { cookie, accept: 'application/json', 'accept-encoding': ACCEPT_ENCODING };
  const check = await fetch(url, { headers: { cookie, accept: 'application/json' } });
  const text = await check.text();
  const wire = await wireBytes(url, headers);
  const list = JSON.parse(text) as { owned?: { id: string[]; folder_id: Array<number | null> } };
  if (!check.ok || list.owned?.id.length !== BOARDS) {
    throw new UserFacingError(`GET /api/boards?format=columns answered ${check.status}: ${text.slice(0, 200)}`);
  }
  const inFolders = new Set(list.owned.folder_id).size;
  const specShape = await wireBytes(`${stack.gatewayUrl}/api/boards`, headers);
  log.ok(
    `GET /api/boards (default, one object per board): ${(specShape.bytes / 1024).toFixed(0)} KiB ${specShape.encoding}`,
  );
  log.ok(
    `GET /api/boards: ${list.owned.id.length} boards in ${inFolders} folders, ${(text.length / 1024).toFixed(0)} KiB` +
      ` (${(wire.bytes / 1024).toFixed(0)} KiB on the wire, ${wire.encoding})`,
  );

  if (WARMUP > 0) {
    log.step(`warm-up: ${WARMUP} s at ${RATE} req/s`);
    await pacedLoad(url, headers, RATE, WARMUP);
  }
  log.step(`measuring: ${DURATION} s at ${RATE} req/s (open loop, evenly spread)`);
  const pids = stack.pids;
  const cpuBefore = { gateway: cpuMs(pids.gateway), boards: cpuMs(pids['services/boards']), self: process.cpuUsage() };
  const machineBefore = machineTicks();
  const run = await pacedLoad(url, headers, RATE, DURATION);
  /** share of all cores busy during the measured run (everything on the machine) */
  const machineBusy = machineBusyPctSince(machineBefore);
  const self = process.cpuUsage(cpuBefore.self);
  const perRequest = (ms: number): number => Math.round((ms / run.requests) * 100) / 100;
  const cpuPerRequest = {
    gatewayMs: perRequest(cpuMs(pids.gateway) - cpuBefore.gateway),
    boardsMs: perRequest(cpuMs(pids['services/boards']) - cpuBefore.boards),
    loadGeneratorMs: perRequest((self.user + self.system) / 1000),
  };
  log.step('maximum throughput: closed loop, 10 connections, 5 s');
  const max = await closedLoop(url, headers);

  const met = run.p99 <= TARGET_P99_MS && run.non2xx === 0 && run.errors === 0;
  console.log('');
  console.log(
    c.bold(
      `  GET /api/boards, ${BOARDS} boards in ${FOLDERS} folders, ${(text.length / 1024).toFixed(0)} KiB` +
        ` (${(wire.bytes / 1024).toFixed(0)} KiB ${wire.encoding}; Accept-Encoding: ${ACCEPT_ENCODING})`,
    ),
  );
  console.log(
    `  at ${RATE} req/s for ${DURATION} s: p50 ${run.p50} ms, p90 ${run.p90} ms, p99 ${run.p99} ms, max ${run.max} ms` +
      ` (${run.ok} ok, ${run.non2xx} non-2xx, ${run.errors} errors, ${run.achievedRps} req/s achieved;` +
      ` generator late by p99 ${run.sendLagP99} ms, ${run.connections} connections)`,
  );
  console.log(
    `  CPU per request: gateway ${cpuPerRequest.gatewayMs} ms, boards ${cpuPerRequest.boardsMs} ms, load generator ${cpuPerRequest.loadGeneratorMs} ms; machine ${machineBusy} % busy`,
  );
  console.log(`  closed loop max: ${Math.round(max.requests.average)} req/s (p99 ${max.latency.p99} ms)`);
  console.log(`  target p99 ≤ ${TARGET_P99_MS} ms: ${met ? c.green('met') : c.red('MISSED')}`);

  const result: Record<string, unknown> = {
    scenario: {
      boards: BOARDS,
      folders: FOLDERS,
      replyBytes: text.length,
      acceptEncoding: ACCEPT_ENCODING,
      wire,
      nodeEnv: 'production',
    },
    settings: {
      rate: RATE,
      durationS: DURATION,
      warmupS: WARMUP,
      load: 'scripts/lib/pacedLoad.ts: open loop, evenly spread, latency from the due time',
    },
    result: run,
    cpuPerRequest,
    machineBusyPercent: machineBusy,
    closedLoopMax: {
      connections: 10,
      rps: max.requests.average,
      p50: max.latency.p50,
      p99: max.latency.p99,
      non2xx: max.non2xx,
    },
    target: { p99Ms: TARGET_P99_MS, met },
  };
  log.ok(`wrote ${writeBenchResult('boards-list', result)}`);
  return process.env.BENCH_STRICT === '1' && !met ? 1 : 0;
}

runBench(main, cleanup);
