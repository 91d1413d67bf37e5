/**
 * `make bench`: what the gateway costs on its hottest authenticated call.
 *
 *   (i)  a bare Express app (child process) answering GET /api/user with a fixed body
 *   (ii) GET /api/user through the real gateway → NATS → auth (startStack: child processes)
 *        with a signed-up user's session cookie
 *   (iii) the floor: node:http → NATS → a trivial responder (nats-floor-server.ts), the same hops
 *        with nothing of the gateway: paced at the gateway's half rate, then its own maximum and
 *        half of that (the p99 target applied to the path itself)
 *
 * Each: 3 s warm-up, then 10 s at 50 connections (autocannon) for the maximum throughput; then
 * both at a fixed rate of half the gateway's maximum for p50/p99 latency (the gateway also at a
 * quarter, to tell CPU contention from a fixed cost). All gateway runs come first, then the bare
 * server's (started only then). The fixed-rate phase
 * uses scripts/lib/pacedLoad.ts (requests evenly spread over up to 50 keep-alive sockets, latency
 * from each request's due time, a few µs of client CPU each) rather than autocannon's
 * `overallRate`, which fires each connection's per-second quota back to back. Each paced run's
 * load generator is a fresh process of its own, separate from every server and from this one, and
 * sends BENCH_WARMUP s at the same rate on the same connections before its measured window.
 * Prints a table, writes artifacts/bench/gateway-user.json.
 * Targets: gateway/bare ≥ 30 %, gateway p99 < 10 ms at half rate. BENCH_STRICT=1 → exit 1 when missed.
 * The services run as in production (NODE_ENV=production: replies are not re-validated).
 * Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 50), BENCH_WARMUP (s, default 3),
 * BENCH_NODE_OPTIONS (given to the gateway and auth, e.g. `--trace-gc`), BENCH_PROFILE=1 (V8 CPU
 * profiles of the gateway and auth during the paced runs, written to
 * artifacts/bench/gateway-profiles/ and summarised at the end).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
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
import { c, describeError, log } from '../lib/log';
import { printProfiles, startProfiling } from '../lib/cpuProfile';
import { ARTIFACTS_DIR, ROOT } from '../lib/paths';
import { pacedLoadInChild } from '../lib/pacedLoad';
import { cpuMs } from '../lib/procStats';
import { ManagedProcess, waitFor } from '../lib/proc';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const PROFILE = process.env.BENCH_PROFILE === '1';
const PROFILE_DIR = join(ARTIFACTS_DIR, 'bench', 'gateway-profiles');
const TARGET_RATIO = 0.3;
const TARGET_P99_MS = 10;

interface Measure {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  rate?: number;
  /** paced runs: how late the load generator sent, p99 ms */
  sendLagP99?: number;
  /** paced gateway runs: where the time and the CPU go */
  inside?: Inside;
}

/** What the servers saw during a paced gateway run. */
interface Inside {
  /** share of requests the gateway itself finished within 10 ms (its http_request_duration_seconds) */
  gatewayWithin10msPct: number;
  /** CPU ms per request */
  cpuPerRequestMs: { gateway: number; auth: number; loadGenerator: number };
  /** share of both cores busy (everything on the machine, nats-server included) */
  machineBusyPct: number;
}

let infra: Infra | undefined;
let stack: RunningStack | undefined;
const baselines: ManagedProcess[] = [];

async function cleanup(): Promise<void> {
  await Promise.all(baselines.map((p) => p.stop(5000)));
  await stack?.stop().catch((err: unknown) => log.warn(`stack stop: ${describeError(err)}`));
  await infra?.stop();
}

/** a signed-up user's session, as the Cookie header a browser would send */
async function signUpCookie(gatewayUrl: string): Promise<string> {
  const { browser, id } = await signUp(gatewayUrl, 'Bench User');
  log.ok(`signed up user ${id}`);
  return browser.cookieHeader();
}

/** Closed loop at full speed (autocannon): the maximum throughput. */
async function measure(name: string, url: string, headers: Record<string, string>): Promise<Measure> {
  if (WARMUP > 0) await runAutocannon({ url, headers, connections: CONNECTIONS, duration: WARMUP });
  const r = await runAutocannon({ url, headers, connections: CONNECTIONS, duration: DURATION });
  const m: Measure = {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
  const failures = m.non2xx || m.errors ? c.red(` (${m.non2xx} non-2xx, ${m.errors} errors)`) : '';
  log.info(`${name}: ${Math.round(m.rps)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms${failures}`);
  return m;
}

/** Cumulative counts of the gateway's GET /api/user duration histogram: le (seconds) → count. */
async function gatewayHistogram(): Promise<Map<number, number>> {
  const res = await fetch(`http://127.0.0.1:${stack!.envOf('gateway').HEALTH_PORT}/metrics`);
  const out = new Map<number, number>();
  for (const line of (await res.text()).split('\n')) {
    if (!line.startsWith('http_request_duration_seconds_bucket{') || !line.includes('route="/api/user"')) continue;
    const le = /le="([^"]+)"/.exec(line)?.[1];
    if (!le || !line.includes('status="200"')) continue;
    out.set(le === '+Inf' ? Infinity : Number(le), Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return out;
}

/**
 * Open-loop load: `rate` requests per second, evenly spread: WARMUP s on the same connections,
 * then DURATION s measured; latency from each request's due time to its last byte.
 */
async function paced(name: string, url: string, headers: Record<string, string>, rate: number): Promise<Measure> {
  const throughGateway = url.startsWith(stack!.gatewayUrl);
  const pids = stack!.pids;
  // readings from the start of the measured window (after the generator's warm-up)
  let before: { histogram: Promise<Map<number, number>>; gateway: number; auth: number } | undefined;
  const r = await pacedLoadInChild(
    { url, headers, rate, durationS: DURATION, warmupS: WARMUP, maxConnections: CONNECTIONS },
    () => {
      if (!throughGateway) return;
      const histogram = gatewayHistogram();
      histogram.catch(() => undefined); // awaited below
      before = { histogram, gateway: cpuMs(pids.gateway), auth: cpuMs(pids['services/auth']) };
    },
  );
  let inside: Inside | undefined;
  if (before) {
    const [start, after] = [await before.histogram, await gatewayHistogram()];
    const delta = (le: number): number => (after.get(le) ?? 0) - (start.get(le) ?? 0);
    const per = (ms: number): number => Math.round((ms / r.requests) * 1000) / 1000;
    inside = {
      gatewayWithin10msPct: Math.round((delta(0.01) / Math.max(1, delta(Infinity))) * 10_000) / 100,
      cpuPerRequestMs: {
        gateway: per(cpuMs(pids.gateway) - before.gateway),
        auth: per(cpuMs(pids['services/auth']) - before.auth),
        loadGenerator: per(r.cpuMs),
      },
      machineBusyPct: r.machineBusyPct,
    };
  }
  const m: Measure = {
    name,
    rps: r.achievedRps,
    p50: r.p50,
    p99: r.p99,
    requests: r.requests,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: 0,
    rate,
    sendLagP99: r.sendLagP99,
    ...(inside ? { inside } : {}),
  };
  log.info(
    `${name}: ${Math.round(m.rps)} req/s, p50 ${m.p50.toFixed(2)} ms, p99 ${m.p99.toFixed(2)} ms (generator late by p99 ${r.sendLagP99} ms)`,
  );
  if (inside) {
    const cpu = inside.cpuPerRequestMs;
    log.info(
      `  inside: the gateway finished ${inside.gatewayWithin10msPct} % within 10 ms by its own clock; CPU per request: gateway ${cpu.gateway} ms, auth ${cpu.auth} ms, load generator ${cpu.loadGenerator} ms; both cores ${inside.machineBusyPct} % busy`,
    );
  }
  return m;
}

/** a baseline server script of this folder (prints `PORT <n>`), tracked for cleanup; its /api/user URL */
async function startBaseline(script: string, env: Record<string, string> = {}): Promise<string> {
  let port = 0;
  const proc = new ManagedProcess(script, process.execPath, ['--import', 'tsx', join(__dirname, script)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    onLine: (line) => {
      const m = /^PORT (\d+)$/.exec(line);
      if (m) port = Number(m[1]);
    },
  });
  baselines.push(proc);
  await waitFor(script, async () => port > 0, {
    timeoutMs: 20_000,
    abort: () => (proc.alive ? undefined : 'exited'),
  });
  return `http://127.0.0.1:${port}/api/user`;
}

async function main(): Promise<number> {
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
  process.on('SIGTERM', () => void cleanup().then(() => process.exit(143)));

  log.step('infrastructure');
  infra = await ensureInfra(process.env);

  log.step('starting services/auth and the gateway (startStack)');
  if (PROFILE) rmSync(PROFILE_DIR, { recursive: true, force: true });
  stack = await startStack({
    deployables: ['services/auth', 'gateway'],
    env: productionStackEnv(),
    ...benchNodeOptions(['gateway', 'services/auth'], PROFILE ? PROFILE_DIR : undefined),
    ...stackInfra(infra),
  });
  const cookie = await signUpCookie(stack.gatewayUrl);

  log.step(`measuring: ${WARMUP} s warm-up + ${DURATION} s, ${CONNECTIONS} connections`);
  const gw = await measure('gateway GET /api/user, max', `${stack.gatewayUrl}/api/user`, { cookie });
  const rate = Math.max(1, Math.floor(gw.rps / 2));
  if (PROFILE) startProfiling([stack.pids.gateway, stack.pids['services/auth']]);
  const half = await paced(`gateway at ${rate} req/s (half)`, `${stack.gatewayUrl}/api/user`, { cookie }, rate);
  // where the tail comes from: the same path at a quarter of the maximum (less CPU contention)
  const quarterRate = Math.max(1, Math.floor(gw.rps / 4));
  const quarter = await paced(
    `gateway at ${quarterRate} req/s (quarter)`,
    `${stack.gatewayUrl}/api/user`,
    { cookie },
    quarterRate,
  );
  // The bare server starts only now: idle after its own max run, a stock Express app collects the
  // garbage of that run for seconds (Mark-Compacts on both cores), which landed in the gateway runs.
  const helloUrl = await startBaseline('hello-server.ts');
  const bare = await measure('bare express, max', helloUrl, {});
  const bareHalf = await paced(`bare express at ${rate} req/s`, helloUrl, {}, rate);
  // the same hops as the gateway's path with nothing of the gateway in them (nats-floor-server.ts)
  const floorUrl = await startBaseline('nats-floor-server.ts', { NATS_URL: infra.natsUrl });
  const floor = await paced(`floor: http → NATS → echo at ${rate} req/s`, floorUrl, {}, rate);
  // and the target applied to the floor itself: p99 at half of its own maximum
  const floorMax = await measure('floor, max', floorUrl, {});
  const floorRate = Math.max(1, Math.floor(floorMax.rps / 2));
  const floorHalf = await paced(`floor at ${floorRate} req/s (its half)`, floorUrl, {}, floorRate);

  const ratio = gw.rps / bare.rps;
  const ratioOk = ratio >= TARGET_RATIO;
  const p99Ok = half.p99 < TARGET_P99_MS;
  const runs = [gw, half, quarter, bare, bareHalf, floor, floorMax, floorHalf];
  const clean = runs.every((m) => m.non2xx === 0 && m.errors === 0);

  console.log('');
  console.log(c.bold('  run                                            req/s    p50 ms   p99 ms   non-2xx  errors'));
  for (const m of runs) {
    console.log(
      `  ${m.name.padEnd(44)} ${Math.round(m.rps).toString().padStart(7)}  ${m.p50.toFixed(2).padStart(7)}  ${m.p99.toFixed(2).padStart(7)}  ${String(m.non2xx).padStart(7)}  ${String(m.errors).padStart(6)}`,
    );
  }
  console.log('');
  const mark = (ok: boolean) => (ok ? c.green('met') : c.red('MISSED'));
  console.log(
    `  gateway / bare      ${(ratio * 100).toFixed(1)} %   (target ≥ ${TARGET_RATIO * 100} %: ${mark(ratioOk)})`,
  );
  console.log(`  p99 at half rate    ${half.p99.toFixed(2)} ms  (target < ${TARGET_P99_MS} ms: ${mark(p99Ok)})`);
  console.log(
    `  floor at that rate  ${floor.p99.toFixed(2)} ms  (http → NATS → echo: the path's p99 on this machine at best)`,
  );
  console.log(`  floor at its half   ${floorHalf.p99.toFixed(2)} ms  (the same target, applied to the floor itself)`);
  if (!clean) log.warn('some requests failed (non-2xx or errors): the numbers are not trustworthy');

  const result: Record<string, unknown> = {
    settings: {
      durationS: DURATION,
      warmupS: WARMUP,
      connections: CONNECTIONS,
      max: 'autocannon, closed loop',
      fixedRate: 'scripts/lib/pacedLoad.ts: open loop, evenly spread, latency from the due time to the last byte',
    },
    runs: {
      bare,
      gateway: gw,
      gatewayHalfRate: half,
      gatewayQuarterRate: quarter,
      bareHalfRate: bareHalf,
      floorAtGatewayHalfRate: floor,
      floor: floorMax,
      floorHalfRate: floorHalf,
    },
    ratio,
    targets: { ratio: TARGET_RATIO, p99Ms: TARGET_P99_MS, ratioMet: ratioOk, p99Met: p99Ok },
    clean,
  };
  log.ok(`wrote ${writeBenchResult('gateway-user', result)}`);
  return process.env.BENCH_STRICT === '1' && !(ratioOk && p99Ok && clean) ? 1 : 0;
}

// the profiles are written when the servers exit (after cleanup)
runBench(main, cleanup, () => {
  if (PROFILE) printProfiles(PROFILE_DIR, 'gateway/dist');
});
