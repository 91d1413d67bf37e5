/**
 * Realtime benchmark (`make bench-realtime`): our realtime nodes under classroom loads, with a
 * stock Hocuspocus server under the same classroom load in the same run.
 *
 * Stack (startStack, NODE_ENV=production): services/auth, services/boards and two realtime
 * nodes (rt-1, rt-2) as child processes with their own database / NATS / Redis prefix; a stock
 * `@hocuspocus/server` (realtime-hocuspocus.ts, no extensions: in-memory, no persistence) in its
 * own process. All clients run in one separate process (realtime-clients.ts, forked, IPC), so
 * client CPU is not billed to any server; it reports its own CPU and event-loop delay. Clients
 * connect straight to the board's owner node (owner from `resolveRealtimeOwner` — what the
 * gateway does — with a signed x-wb-actor header), not through the gateway. Loopback only.
 *
 * Scenarios (BENCH_SCENARIOS, comma-separated, default all, in this order):
 * - memory: RSS / JS heap of a fresh rt-2 (which reserves no wasm memory: RT_DOC_MEMORY_MB=0)
 *   before and after opening BENCH_MEM_BOARDS boards (one client each) and BENCH_MEM_CONNECTIONS
 *   more connections → per open board, per connection;
 * - big: a BENCH_BIG_STROKES-stroke board (50–100 points each; realtime-board.ts) stored as
 *   snapshot + journal tail through the service's own storage code, cold-joined
 *   BENCH_BIG_LOADS times on rt-1 (distinct copies; production settings) in each of two cases:
 *   stored as eviction and hand-over leave it (snapshot only) and as a crashed owner leaves it
 *   (snapshot + BENCH_BIG_TAIL-change journal tail): join → WELCOME (the node claims and loads
 *   the board; the node's own load time from its "room opened" log line), → SYNCED; a warm join
 *   of the open board gives the part that is not loading; one more copy on rt-2 gives the memory
 *   of an open big board;
 * - classroom: 1 board, BENCH_CLIENTS clients; the teacher commits BENCH_STROKE_RATE strokes/s,
 *   everyone sends cursors at BENCH_CURSOR_HZ; stroke → visible, cursor, commit → SAVED (upper
 *   bound of "in PostgreSQL"; the journal row's created_at gives the lower bound), owner-node CPU;
 * - hocuspocus: the same classroom against the stock Hocuspocus server (Yjs updates with the
 *   same stroke record, awareness cursors at the same rate). Ours and Hocuspocus run
 *   alternately, BENCH_ROUNDS rounds each (the machine is shared: noise hits both), samples pooled;
 * - curve: 2…30 clients (BENCH_CURVE): owner-node CPU per committed edit with cursors off at
 *   BENCH_CURVE_STROKE_RATE strokes/s (enough edits to measure), then the classroom shape
 *   (cursors on): its CPU, per edit, and per incoming cursor; the node's idle CPU is subtracted;
 * - school: BENCH_SCHOOL_STEPS classroom boards spread over both nodes (added step by step)
 *   until a target breaks twice in a row or BENCH_SCHOOL_BUDGET seconds are used: the last
 *   passing count.
 *
 * Targets: stroke → visible p99 ≤ 50 ms; cursor p99 ≤ 30 ms; 99 % of edits durable (SAVED)
 * within 200 ms; CPU per edit flat from 2 to 30 clients (here: cursors off, 30 clients ≤ 2× 2
 * clients); the big board WELCOMEs (loaded on the node) within 300 ms (median of the cold joins).
 * BENCH_STRICT=1 → exit 1 when one is missed. Prints tables, writes artifacts/bench/realtime.json.
 * Other env: BENCH_DURATION (classroom window, s, 15), BENCH_WARMUP (s, 3), BENCH_CURVE_DURATION
 * (s, 6), BENCH_SCHOOL_DURATION (s, 8), BENCH_IDLE_MS (RT_IDLE_MS of the nodes, 2000: rooms of a
 * finished run are evicted before the next one is measured), BENCH_NODE_OPTIONS (NODE_OPTIONS of
 * both realtime nodes and the Hocuspocus server), BENCH_PROFILE=1 (V8 CPU profiles of the servers
 * from the first scenario on, written to artifacts/bench/realtime-profiles/ and summarised at
 * the end: top self time, inclusive time of services/realtime functions).
 */
import { fork, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { WebSocket } from 'ws';
import pg from 'pg';
import { freePort, randomId, startStack, type RunningStack } from '@wb/platform/testing';
import { rendezvousOwner, resolveRealtimeOwner } from '@wb/proto';
import { SNAPSHOT_EVERY_CHANGES } from '@wb/realtime/dist/commands/boardStore';
import { productionStackEnv, runBench, serverNodeEnv, stackInfra, writeBenchResult } from '../lib/bench';
import { ensureInfra, type Infra } from '../lib/infra';
import { c, describeError, log, UserFacingError } from '../lib/log';
import { ARTIFACTS_DIR, ROOT } from '../lib/paths';
import { printProfiles, startProfiling } from '../lib/cpuProfile';
import { buildBigBoard, seedBigBoard } from './realtime-board';
import { cpuMs, machineBusyPctSince, machineTicks, rssBytes } from '../lib/procStats';
import {
  round1,
  round2,
  type BigLoadResult,
  type ClassroomLoad,
  type ClientReply,
  type ClientRequest,
  type JoinResult,
  type LoadReport,
  type PooledReport,
  type Summary,
  type WbBoardSpec,
} from './realtime-common';

const num = (name: string, dflt: number): number => {
  const v = process.env[name];
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UserFacingError(`${name}=${v} is not a number`);
  return n;
};
const list = (name: string, dflt: number[]): number[] =>
  (process.env[name] ? process.env[name].split(',').map(Number) : dflt).filter((n) => Number.isFinite(n) && n > 0);

const DURATION = num('BENCH_DURATION', 15);
const ROUNDS = num('BENCH_ROUNDS', 2);
const WARMUP = num('BENCH_WARMUP', 3);
const CLIENTS = num('BENCH_CLIENTS', 31);
const STROKE_RATE = num('BENCH_STROKE_RATE', 2);
const CURSOR_HZ = num('BENCH_CURSOR_HZ', 20);
const CURVE = list('BENCH_CURVE', [2, 5, 10, 20, 30]);
const CURVE_DURATION = num('BENCH_CURVE_DURATION', 6);
const CURVE_STROKE_RATE = num('BENCH_CURVE_STROKE_RATE', 10);
const SCHOOL_STEPS = list('BENCH_SCHOOL_STEPS', [2, 4, 6, 8, 10, 12, 16, 20, 24]);
const SCHOOL_DURATION = num('BENCH_SCHOOL_DURATION', 8);
const SCHOOL_BUDGET = num('BENCH_SCHOOL_BUDGET', 150);
const BIG_STROKES = num('BENCH_BIG_STROKES', 20_000);
// the longest tail a crashed owner leaves (it snapshots every SNAPSHOT_EVERY_CHANGES)
const BIG_TAIL = num('BENCH_BIG_TAIL', SNAPSHOT_EVERY_CHANGES);
const BIG_LOADS = num('BENCH_BIG_LOADS', 3);
const MEM_BOARDS = num('BENCH_MEM_BOARDS', 200);
const MEM_CONNECTIONS = num('BENCH_MEM_CONNECTIONS', 500);
const IDLE_MS = num('BENCH_IDLE_MS', 2000);
const PROFILE = process.env.BENCH_PROFILE === '1';
const PROFILE_DIR = join(ARTIFACTS_DIR, 'bench', 'realtime-profiles');
const ALL_SCENARIOS = ['memory', 'big', 'classroom', 'hocuspocus', 'curve', 'school'] as const;
type Scenario = (typeof ALL_SCENARIOS)[number];
const SCENARIOS = new Set<Scenario>(
  process.env.BENCH_SCENARIOS
    ? (process.env.BENCH_SCENARIOS.split(',').map((s) => s.trim()) as Scenario[])
    : ALL_SCENARIOS,
);
for (const s of SCENARIOS) {
  if (!ALL_SCENARIOS.includes(s))
    throw new UserFacingError(`BENCH_SCENARIOS: unknown "${s}" (${ALL_SCENARIOS.join(', ')})`);
}

const TARGET = { strokeP99Ms: 50, cursorP99Ms: 30, savedP99Ms: 200, bigLoadMs: 300, cpuFlatRatio: 2 };
const SECRET = randomBytes(24).toString('hex');
const NODE_A = 'services/realtime';
const NODE_B = './services/realtime'; // the harness keys deployables by directory: the second node
const NODE_IDS = ['rt-1', 'rt-2'] as const;
const NODE_TTL_MS = 6000;
const TEACHER = 1;

const classroomLoad = (clients: number, cursors = true, strokeRate = STROKE_RATE): ClassroomLoad => ({
  clients,
  strokeRate,
  cursorHz: cursors ? CURSOR_HZ : 0,
  pointsMin: 50,
  pointsMax: 100,
});

// ---------------------------------------------------------------------------------------------
// processes

let infra: Infra | undefined;
let stack: RunningStack | undefined;
let redis: Redis | undefined;
let db: pg.Client | undefined;
let snapshotDir: string | undefined;
let clientProc: ChildProcess | undefined;
let hpProc: ChildProcess | undefined;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function stopChild(p: ChildProcess | undefined): Promise<void> {
  if (!p || p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  const timer = setTimeout(() => p.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

async function cleanup(): Promise<void> {
  await stopChild(clientProc);
  await stopChild(hpProc);
  await redis?.quit().catch(() => redis?.disconnect());
  await db?.end().catch(() => undefined);
  await stack?.stop().catch((err: unknown) => log.warn(`stack stop: ${describeError(err)}`));
  if (snapshotDir) await rm(snapshotDir, { recursive: true, force: true });
  await infra?.stop();
}

/** the client process: requests over IPC, one at a time */
class Clients {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly ready: Promise<void>;
  constructor(readonly proc: ChildProcess) {
    let ready: () => void = () => undefined;
    this.ready = new Promise((r) => (ready = r));
    proc.on('message', (msg: ClientReply) => {
      if (msg.id === 0) return ready();
      const w = this.waiting.get(msg.id);
      this.waiting.delete(msg.id);
      if (!w) return;
      if (msg.ok) w.resolve(msg.result);
      else w.reject(new Error(`client process: ${msg.error}`));
    });
    proc.on('exit', (code, signal) => {
      for (const w of this.waiting.values()) w.reject(new Error(`client process exited (${code ?? signal})`));
      this.waiting.clear();
    });
  }
  call<T>(req: ClientRequest, timeoutMs = 120_000): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`client process: ${req.cmd} timed out`));
      }, timeoutMs);
      this.waiting.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.proc.send({ id, req });
    });
  }
  get pid(): number | undefined {
    return this.proc.pid;
  }
}

/** BENCH_NODE_OPTIONS, plus the CPU-profile preload under BENCH_PROFILE=1 */
function nodeOptions(name: string, extra?: string): Record<string, string> {
  return serverNodeEnv(name, PROFILE ? PROFILE_DIR : undefined, extra);
}

async function startHocuspocus(): Promise<{ url: string; pid: number; version: string }> {
  const port = await freePort();
  const script = join(__dirname, 'realtime-hocuspocus.ts');
  const proc = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      BENCH_HP_PORT: String(port),
      NODE_OPTIONS: '',
      ...nodeOptions('hocuspocus'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  hpProc = proc;
  const lines: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => lines.push(l));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('hocuspocus did not start within 20 s')), 20_000);
    createInterface({ input: proc.stdout! }).on('line', (l) => {
      if (l.startsWith('listening ')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`hocuspocus exited with ${code}: ${lines.slice(-20).join('\n')}`));
    });
  });
  // its package.json is not in its "exports": read it next to the resolved entry (dist/)
  const pkg = join(dirname(require.resolve('@hocuspocus/server')), '..', 'package.json');
  const version = (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version ?? '?';
  return { url: `ws://127.0.0.1:${port}`, pid: proc.pid!, version };
}

// ---------------------------------------------------------------------------------------------
// boards and nodes

function pidOf(nodeId: string): number | undefined {
  return stack?.pids[nodeId === 'rt-1' ? NODE_A : NODE_B];
}

/** a new board row owned by the teacher, whose id the rendezvous puts on `nodeId` */
async function createBoard(nodeId: string, title: string): Promise<WbBoardSpec> {
  let id: string;
  do id = `bench${randomId()}${randomId()}`;
  while (rendezvousOwner(id, NODE_IDS) !== nodeId);
  await db!.query(`INSERT INTO boards.boards (id, user_id, title) VALUES ($1, $2, $3)`, [id, TEACHER, title]);
  // what the gateway does: the lease holder if live, else the rendezvous choice over live nodes
  const owner = await resolveRealtimeOwner(redis!, stack!.redisPrefix, id, Date.now(), NODE_TTL_MS);
  if (!owner) throw new Error('no live realtime node');
  if (owner.nodeId !== nodeId) throw new Error(`board ${id}: owner ${owner.nodeId}, expected ${nodeId}`);
  return { boardId: id, url: owner.url, nodeId, ownerUserId: TEACHER };
}

interface NodeMemory {
  rssMiB: number;
  heapUsedMiB: number;
  externalMiB: number;
}
function metricsText(port: string): Promise<string> {
  return new Promise((resolve, reject) => {
    httpGet(`http://127.0.0.1:${port}/metrics`, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}
async function nodeMetrics(nodeId: string): Promise<(name: string) => number> {
  const dir = nodeId === 'rt-1' ? NODE_A : NODE_B;
  const text = await metricsText(stack!.envOf(dir).HEALTH_PORT!);
  return (name: string): number => {
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text);
    return m ? Number(m[1]) : NaN;
  };
}
/** until the node has no open room (idle eviction, with its final snapshot, is done) */
async function roomsClosed(nodeId: string, maxMs = 30_000): Promise<void> {
  const end = Date.now() + maxMs;
  while (Date.now() < end) {
    if ((await nodeMetrics(nodeId))('realtime_rooms') === 0) return;
    await sleep(250);
  }
  log.warn(`${nodeId} still has open rooms after ${maxMs} ms`);
}
/**
 * A full GC in a node, through its inspector (`HeapProfiler.collectGarbage`): the node runs with
 * --inspect-port=0, SIGUSR1 opens the inspector on a free loopback port, which the node logs.
 * Returns false when that did not work (the memory figures are then taken without a GC).
 */
const inspectorUrls = new Map<string, string>();
async function collectGarbage(nodeId: string): Promise<boolean> {
  const dir = nodeId === 'rt-1' ? NODE_A : NODE_B;
  let url = inspectorUrls.get(nodeId);
  if (!url) {
    const pid = pidOf(nodeId);
    if (!pid) return false;
    process.kill(pid, 'SIGUSR1');
    const end = Date.now() + 3000;
    while (!url && Date.now() < end) {
      await sleep(100);
      for (const line of stack!.logs(dir)) {
        const m = /Debugger listening on (ws:\/\/\S+)/.exec(line);
        if (m) url = m[1];
      }
    }
    if (!url) return false;
    inspectorUrls.set(nodeId, url);
  }
  const ws = new WebSocket(url);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('inspector: no answer')), 10_000);
      ws.on('error', reject);
      ws.on('open', () => ws.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' })));
      ws.on('message', (data: Buffer) => {
        if ((JSON.parse(data.toString()) as { id?: number }).id === 1) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    return true;
  } catch (err) {
    log.warn(`GC through the inspector of ${nodeId} failed: ${describeError(err)}`);
    return false;
  } finally {
    ws.close();
  }
}

/** RSS (includes Automerge's wasm memory) and the JS heap of a node, after a full GC */
async function nodeMemory(nodeId: string): Promise<NodeMemory & { gc: boolean }> {
  const gc = await collectGarbage(nodeId);
  await sleep(300);
  const metric = await nodeMetrics(nodeId);
  const mib = (b: number): number => round1(b / 2 ** 20);
  return {
    rssMiB: mib(rssBytes(pidOf(nodeId))),
    heapUsedMiB: mib(metric('nodejs_heap_size_used_bytes')),
    externalMiB: mib(metric('nodejs_external_memory_bytes')),
    gc,
  };
}

const load1 = (): number => round2(loadavg()[0]!);

/** CPU ms of the servers and the client process so far */
function cpuNow(hpPid?: number): Record<string, number> {
  return {
    'rt-1': cpuMs(pidOf('rt-1')),
    'rt-2': cpuMs(pidOf('rt-2')),
    boards: cpuMs(stack?.pids['services/boards']),
    auth: cpuMs(stack?.pids['services/auth']),
    hocuspocus: cpuMs(hpPid),
  };
}
function cpuDelta(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of Object.keys(a)) out[k] = b[k]! - a[k]!;
  return out;
}

/** one measured window of whatever load is running */
/** event-loop delay of both nodes over a window (prom-client resets its histogram on every scrape) */
async function nodeLoopDelay(): Promise<Record<string, { p99Ms: number; maxMs: number }>> {
  const out: Record<string, { p99Ms: number; maxMs: number }> = {};
  for (const id of NODE_IDS) {
    const m = await nodeMetrics(id).catch(() => null);
    out[id] = {
      p99Ms: m ? round1(m('nodejs_eventloop_lag_p99_seconds') * 1000) : NaN,
      maxMs: m ? round1(m('nodejs_eventloop_lag_max_seconds') * 1000) : NaN,
    };
  }
  return out;
}

interface Measured {
  report: LoadReport;
  cpuMs: Record<string, number>;
  machineBusy: number;
  seconds: number;
  /** event-loop delay of each realtime node during the window */
  nodeLoopDelay: Record<string, { p99Ms: number; maxMs: number }>;
}

/** one measured window of whatever load is running */
async function measure(clients: Clients, seconds: number, hpPid?: number, pool?: string): Promise<Measured> {
  await clients.call({ cmd: 'mark' });
  await nodeLoopDelay(); // resets the nodes' histograms
  const cpu0 = cpuNow(hpPid);
  const m0 = machineTicks();
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const report = await clients.call<LoadReport>({ cmd: 'report', ...(pool ? { pool } : {}) });
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = cpuDelta(cpu0, cpuNow(hpPid));
  const machineBusy = machineBusyPctSince(m0);
  return {
    report,
    cpuMs: cpu,
    machineBusy,
    seconds: elapsed,
    nodeLoopDelay: await nodeLoopDelay(),
  };
}

/** strokes committed inside the window (for CPU per edit): the window's own rate count */
const editsIn = (r: LoadReport, seconds: number): number =>
  r.strokes.sent > 0 ? (r.strokes.sent * seconds) / Math.max(0.001, seconds - 1) : 0;

// ---------------------------------------------------------------------------------------------
// scenarios

interface LatencyView {
  strokeVisible: Summary;
  strokeVisibleAll: Summary;
  delivered: string;
  cursor: Summary;
  cursorDelivered: number;
  ack: Summary;
  acked: string;
  ackKind: string;
  serverCpuPercent: number;
  serverCpuMsPerEdit: number;
  edits: number;
  clientCpuPercent: number;
  clientEventLoopP99Ms: number;
  /** our owner node's event-loop delay p99, worst round (the Hocuspocus server reports none) */
  serverEventLoopP99Ms: number;
  machineBusyPercent: number;
  errors: string[];
  load1: [number, number];
  rounds: Array<{
    strokeP99: number;
    cursorP99: number;
    ackP99: number;
    serverCpuPercent: number;
    load1: [number, number];
  }>;
}

/** journal row created_at − commit wall time, per stroke still in the journal (query before eviction compacts it) */
async function journalDelays(sentWall: Array<[string, number]>): Promise<number[]> {
  if (!sentWall.length) return [];
  const { rows } = await db!.query<{ hash: string; ms: number }>(
    `SELECT hash, extract(epoch FROM created_at) * 1000 AS ms FROM realtime.journal WHERE hash = ANY($1)`,
    [sentWall.map(([h]) => h)],
  );
  const at = new Map(rows.map((r) => [r.hash, Number(r.ms)]));
  const d: number[] = [];
  for (const [h, sent] of sentWall) {
    const t = at.get(h);
    if (t !== undefined) d.push(t - sent);
  }
  return d;
}
function summarizeLocal(values: number[]): Summary {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  if (!n) return { n: 0, p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN };
  const pct = (p: number): number => s[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))]!;
  return {
    n,
    p50: round2(pct(50)),
    p90: round2(pct(90)),
    p99: round2(pct(99)),
    max: round2(s[n - 1]!),
    mean: round2(s.reduce((a, b) => a + b, 0) / n),
  };
}

async function scenarioMemory(clients: Clients): Promise<Record<string, unknown>> {
  const node = 'rt-2';
  log.step(`memory: ${MEM_BOARDS} boards (1 client each) then ${MEM_CONNECTIONS} more connections on ${node}`);
  await sleep(1000);
  const m0 = await nodeMemory(node);
  const boards: WbBoardSpec[] = [];
  for (let i = 0; i < MEM_BOARDS; i++) boards.push(await createBoard(node, `memory ${i}`));
  await clients.call<JoinResult>({ cmd: 'wb.connectMany', boards, perBoard: 1, secret: SECRET, concurrency: 16 });
  await sleep(2000);
  const m1 = await nodeMemory(node);
  const extra = await clients.call<JoinResult>({
    cmd: 'wb.connectMany',
    boards: [boards[0]!],
    perBoard: MEM_CONNECTIONS,
    secret: SECRET,
    concurrency: 16,
  });
  await sleep(2000);
  const m2 = await nodeMemory(node);
  await clients.call({ cmd: 'closeAll' });
  const perConn = {
    rssKiB: round1(((m2.rssMiB - m1.rssMiB) * 1024) / MEM_CONNECTIONS),
    heapKiB: round1(((m2.heapUsedMiB - m1.heapUsedMiB) * 1024) / MEM_CONNECTIONS),
  };
  const perBoard = {
    rssKiB: round1(((m1.rssMiB - m0.rssMiB) * 1024) / MEM_BOARDS - perConn.rssKiB),
    heapKiB: round1(((m1.heapUsedMiB - m0.heapUsedMiB) * 1024) / MEM_BOARDS - perConn.heapKiB),
  };
  log.info(
    `${node}: RSS ${m0.rssMiB} → ${m1.rssMiB} → ${m2.rssMiB} MiB, heap ${m0.heapUsedMiB} → ${m1.heapUsedMiB} → ${m2.heapUsedMiB} MiB`,
  );
  log.info(
    `per open (empty) board: RSS ${perBoard.rssKiB} KiB, heap ${perBoard.heapKiB} KiB; per connection: RSS ${perConn.rssKiB} KiB, heap ${perConn.heapKiB} KiB (${extra.clients} joined)`,
  );
  return {
    node,
    boards: MEM_BOARDS,
    connections: MEM_CONNECTIONS,
    before: m0,
    afterBoards: m1,
    afterConnections: m2,
    perBoard,
    perConnection: perConn,
  };
}

/** The node's own timings of opening a board, from its "room opened" log line (LOG_LEVEL=info) */
function nodeOpenMs(nodeId: string, boardId: string): { load: number; lease: number; claim: number } | undefined {
  for (const line of stack!.logs(nodeId === 'rt-1' ? NODE_A : NODE_B)) {
    if (!line.includes('"room opened"') || !line.includes(boardId)) continue;
    try {
      const entry = JSON.parse(line) as {
        boardId?: string;
        loadMs?: { total?: number };
        openMs?: { lease?: number; claim?: number };
      };
      if (entry.boardId === boardId && entry.loadMs?.total !== undefined)
        return {
          load: round1(entry.loadMs.total),
          lease: entry.openMs?.lease ?? NaN,
          claim: entry.openMs?.claim ?? NaN,
        };
    } catch {
      // not a JSON log line
    }
  }
  return undefined;
}

async function scenarioBig(clients: Clients): Promise<Record<string, unknown>> {
  // load time on rt-1 (production settings: wasm memory reserved at start-up); memory on rt-2,
  // which reserves none, so that its RSS shows what an open board takes
  const timingNode = 'rt-1';
  const memoryNode = 'rt-2';
  log.step(`big board: building ${BIG_STROKES} strokes (50–100 points each, one change per stroke)`);
  const board = buildBigBoard(BIG_STROKES, Math.min(BIG_TAIL, BIG_STROKES - 1));
  log.info(`built in ${board.buildMs} ms: ${board.points} points, ${board.changes.length} changes`);
  // what eviction and hand-over leave (a final snapshot), and what a crashed owner leaves
  const cases = [
    { name: 'evicted (snapshot only)', withTail: false },
    { name: `after a crash (snapshot + ${board.tail}-change tail)`, withTail: true },
  ];
  const seedStart = performance.now();
  const seed = async (node: string, label: string, withTail: boolean) => {
    const spec = await createBoard(node, label);
    const { snapshotBytes } = await seedBigBoard(stack!.databaseUrl, snapshotDir!, spec.boardId, board, withTail);
    return { spec, snapshotBytes };
  };
  const copies = [];
  for (const c of cases)
    for (let i = 0; i < BIG_LOADS; i++) copies.push({ case: c, ...(await seed(timingNode, `big ${i}`, c.withTail)) });
  const memoryCopy = await seed(memoryNode, 'big (memory)', false);
  board.prefix.free();
  board.full.free();
  log.info(
    `stored ${copies.length} + 1 copies (snapshot ${round1(memoryCopy.snapshotBytes / 2 ** 20)} MiB) in ${Math.round(performance.now() - seedStart)} ms`,
  );
  await sleep(1000);
  const join = (spec: WbBoardSpec, keepOpen: boolean): Promise<BigLoadResult> =>
    clients.call<BigLoadResult>({
      cmd: 'wb.bigLoad',
      url: spec.url,
      boardId: spec.boardId,
      secret: SECRET,
      userId: TEACHER,
      keepOpen,
    });
  const loads: Array<{ case: string; cold: BigLoadResult; warm: BigLoadResult; nodeLoadMs?: number }> = [];
  const l0 = load1();
  let memory: { rssMiB: number; heapMiB: number };
  try {
    for (const copy of copies) {
      // the cold join keeps its socket: the room stays open, as in a node holding several boards
      const cold = await join(copy.spec, true);
      const warm = await join(copy.spec, false);
      const open = nodeOpenMs(timingNode, copy.spec.boardId);
      loads.push({ case: copy.case.name, cold, warm, nodeLoadMs: open?.load });
      log.info(
        `${timingNode}, ${copy.case.name}: cold join → WELCOME ${round1(cold.welcomeMs)} ms (node: lease ${open?.lease ?? '?'} ms, claim ${open?.claim ?? '?'} ms, load ${open?.load ?? '?'} ms), → SYNCED ${round1(cold.syncedMs)} ms (${round1(cold.syncBytes / 2 ** 20)} MiB of sync); warm join → WELCOME ${round1(warm.welcomeMs)} ms`,
      );
    }
    const before = await nodeMemory(memoryNode);
    const cold = await join(memoryCopy.spec, true);
    const after = await nodeMemory(memoryNode);
    memory = { rssMiB: round1(after.rssMiB - before.rssMiB), heapMiB: round1(after.heapUsedMiB - before.heapUsedMiB) };
    log.info(`${memoryNode}: cold join → WELCOME ${round1(cold.welcomeMs)} ms; node RSS +${memory.rssMiB} MiB`);
  } finally {
    await clients.call({ cmd: 'closeAll' });
  }
  log.info(`waiting for ${timingNode} and ${memoryNode} to evict the big rooms (final snapshots)`);
  await roomsClosed(timingNode, 60_000);
  await roomsClosed(memoryNode, 60_000);
  const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const byCase = cases.map((c) => {
    const mine = loads.filter((l) => l.case === c.name);
    const colds = mine.map((l) => l.cold.welcomeMs);
    const nodeMs = mine.map((l) => l.nodeLoadMs).filter((v): v is number => v !== undefined);
    return {
      case: c.name,
      coldWelcomeMs: { median: round1(median(colds)), all: colds.map(round1) },
      warmWelcomeMs: round1(median(mine.map((l) => l.warm.welcomeMs))),
      nodeLoadMs: nodeMs.length ? { median: round1(median(nodeMs)), all: nodeMs } : undefined,
      coldSyncedMs: mine.map((l) => round1(l.cold.syncedMs)),
    };
  });
  return {
    node: timingNode,
    memoryNode,
    strokes: BIG_STROKES,
    points: board.points,
    journalTail: board.tail,
    snapshotBytes: memoryCopy.snapshotBytes,
    buildMs: board.buildMs,
    loads,
    cases: byCase,
    memoryPerBigBoard: memory,
    load1: [l0, load1()],
  };
}

interface Round {
  m: Measured;
  loads: [number, number];
  join: JoinResult;
  journalDelays?: number[];
}

/** one classroom window on our nodes; samples pooled under "ours" */
async function classroomOursRound(clients: Clients, round: number): Promise<Round> {
  const node = 'rt-1';
  const l0 = load1();
  const spec = await createBoard(node, `classroom ${round}`);
  const join = await clients.call<JoinResult>({
    cmd: 'wb.open',
    boards: [spec],
    load: classroomLoad(CLIENTS),
    secret: SECRET,
    concurrency: 16,
  });
  log.info(
    `ours, round ${round}: ${join.clients} joined in ${join.elapsedMs} ms (16 at a time: connect → WELCOME p50 ${join.welcomeMs?.p50} ms, → SYNCED p50 ${join.joinMs.p50} ms); warm-up ${WARMUP} s, measuring ${DURATION} s`,
  );
  await sleep(WARMUP * 1000);
  const m = await measure(clients, DURATION, undefined, 'ours');
  const delays = await journalDelays(m.report.strokes.sentWall);
  await clients.call({ cmd: 'closeAll' });
  log.info(
    `  stroke p99 ${m.report.strokes.visible.p99} ms, cursor p99 ${m.report.cursors.latency.p99} ms, SAVED p99 ${m.report.strokes.ack.p99} ms, ${node} ${round1((m.cpuMs[node]! / (m.seconds * 1000)) * 100)} % CPU, clients ${m.report.client.cpuPercent} %, load ${l0} → ${load1()}`,
  );
  await roomsClosed(node);
  return { m, loads: [l0, load1()], join, journalDelays: delays };
}

async function classroomHpRound(clients: Clients, hp: { url: string; pid: number }, round: number): Promise<Round> {
  const l0 = load1();
  const join = await clients.call<JoinResult>({
    cmd: 'hp.open',
    url: hp.url,
    docs: [`classroom-${randomId()}`],
    load: classroomLoad(CLIENTS),
    concurrency: 16,
  });
  log.info(
    `hocuspocus, round ${round}: ${join.clients} synced in ${join.elapsedMs} ms; warm-up ${WARMUP} s, measuring ${DURATION} s`,
  );
  await sleep(WARMUP * 1000);
  const m = await measure(clients, DURATION, hp.pid, 'hocuspocus');
  await clients.call({ cmd: 'closeAll' });
  log.info(
    `  stroke p99 ${m.report.strokes.visible.p99} ms, cursor p99 ${m.report.cursors.latency.p99} ms, ack p99 ${m.report.strokes.ack.p99} ms, server ${round1((m.cpuMs.hocuspocus! / (m.seconds * 1000)) * 100)} % CPU, clients ${m.report.client.cpuPercent} %, load ${l0} → ${load1()}`,
  );
  await sleep(1000);
  return { m, loads: [l0, load1()], join };
}

/** the rounds of one system, pooled: latency percentiles over every sample, CPU summed */
function pooledView(p: PooledReport, rounds: Round[], serverKeys: string[], ackKind: string): LatencyView {
  let server = 0;
  let seconds = 0;
  let edits = 0;
  for (const r of rounds) {
    for (const k of serverKeys) server += r.m.cpuMs[k] ?? 0;
    seconds += r.m.seconds;
    edits += editsIn(r.m.report, r.m.seconds);
  }
  const avg = (f: (r: Round) => number): number => round1(rounds.reduce((a, r) => a + f(r), 0) / rounds.length);
  return {
    strokeVisible: p.strokes.visible,
    strokeVisibleAll: p.strokes.visibleAll,
    delivered: `${p.strokes.delivered}/${p.strokes.expectedDeliveries}`,
    cursor: p.cursors.latency,
    cursorDelivered: p.cursors.deliveredRatio,
    ack: p.strokes.ack,
    acked: `${p.strokes.acked}/${p.strokes.sent}`,
    ackKind,
    serverCpuPercent: round1((server / (seconds * 1000)) * 100),
    serverCpuMsPerEdit: edits > 0 ? round2(server / edits) : NaN,
    edits: Math.round(edits),
    clientCpuPercent: avg((r) => r.m.report.client.cpuPercent),
    clientEventLoopP99Ms: avg((r) => r.m.report.client.eventLoopDelayP99Ms),
    serverEventLoopP99Ms: serverKeys.includes('rt-1')
      ? Math.max(...rounds.map((r) => r.m.nodeLoopDelay['rt-1']?.p99Ms ?? NaN))
      : NaN,
    machineBusyPercent: avg((r) => r.m.machineBusy),
    errors: rounds.flatMap((r) => r.m.report.errors),
    load1: [rounds[0]!.loads[0], rounds[rounds.length - 1]!.loads[1]],
    rounds: rounds.map((r) => ({
      strokeP99: r.m.report.strokes.visible.p99,
      cursorP99: r.m.report.cursors.latency.p99,
      ackP99: r.m.report.strokes.ack.p99,
      serverCpuPercent: round1((serverKeys.reduce((a, k) => a + (r.m.cpuMs[k] ?? 0), 0) / (r.m.seconds * 1000)) * 100),
      load1: r.loads,
    })),
  };
}

async function scenarioClassroom(
  clients: Clients,
  hp: { url: string; pid: number } | undefined,
): Promise<{ ours?: Record<string, unknown>; hocuspocus?: Record<string, unknown> }> {
  const ours = SCENARIOS.has('classroom');
  log.step(
    `classroom: 1 board, ${CLIENTS} clients, ${STROKE_RATE} strokes/s, cursors ${CURSOR_HZ} Hz; ${ROUNDS} round(s) of ${DURATION} s, ${ours && hp ? 'ours and stock Hocuspocus alternately' : ours ? 'ours' : 'stock Hocuspocus'}`,
  );
  const oursRounds: Round[] = [];
  const hpRounds: Round[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    if (ours) oursRounds.push(await classroomOursRound(clients, r));
    if (hp) hpRounds.push(await classroomHpRound(clients, hp, r));
  }
  const out: { ours?: Record<string, unknown>; hocuspocus?: Record<string, unknown> } = {};
  if (ours) {
    const p = await clients.call<PooledReport>({ cmd: 'pooled', pool: 'ours' });
    const delays = oursRounds.flatMap((r) => r.journalDelays ?? []);
    const journal = { n: delays.length, insertStarted: summarizeLocal(delays) };
    out.ours = {
      node: 'rt-1',
      joins: oursRounds.map((r) => r.join),
      ...pooledView(p, oursRounds, ['rt-1'], 'SAVED (journal committed)'),
      journalInsertStarted: journal,
    };
  }
  if (hp) {
    const p = await clients.call<PooledReport>({ cmd: 'pooled', pool: 'hocuspocus' });
    out.hocuspocus = {
      joins: hpRounds.map((r) => r.join),
      ...pooledView(p, hpRounds, ['hocuspocus'], 'sync-status ack (in memory; no persistence)'),
    };
  }
  return out;
}

interface CurvePoint {
  clients: number;
  /** cursors off, BENCH_CURVE_STROKE_RATE strokes/s: net CPU per committed edit */
  usPerEdit: number;
  editsOff: number;
  cpuOffMs: number;
  /** the classroom shape (cursors on, BENCH_STROKE_RATE): net CPU in % of a core, per edit, per cursor in */
  cpuOnPercent: number;
  usPerEditWithCursors: number;
  usPerCursorIn: number;
  editsOn: number;
  strokeP99On: number;
  strokeP99Off: number;
  cursorP99: number;
  clientCpuOnPercent: number;
  load1: number;
}

async function curveRun(clients: Clients, node: string, n: number, cursors: boolean, rate: number): Promise<Measured> {
  const spec = await createBoard(node, `curve ${n}`);
  await clients.call({
    cmd: 'wb.open',
    boards: [spec],
    load: classroomLoad(n, cursors, rate),
    secret: SECRET,
    concurrency: 16,
  });
  await sleep(1500);
  const m = await measure(clients, CURVE_DURATION);
  await clients.call({ cmd: 'closeAll' });
  await roomsClosed(node);
  return m;
}

async function scenarioCurve(clients: Clients): Promise<Record<string, unknown>> {
  const node = 'rt-1';
  log.step(
    `CPU per committed edit on ${node}: ${CURVE.join(', ')} clients; cursors off at ${CURVE_STROKE_RATE} strokes/s, then the classroom shape (cursors ${CURSOR_HZ} Hz, ${STROKE_RATE} strokes/s); ${CURVE_DURATION} s each`,
  );
  await roomsClosed(node);
  const i0 = cpuMs(pidOf(node));
  await sleep(4000);
  const idleMsPerS = (cpuMs(pidOf(node)) - i0) / 4;
  log.info(`idle ${node}: ${round2(idleMsPerS)} ms CPU/s (subtracted below)`);
  const points: CurvePoint[] = [];
  for (const n of CURVE) {
    const off = await curveRun(clients, node, n, false, CURVE_STROKE_RATE);
    const on = await curveRun(clients, node, n, true, STROKE_RATE);
    const editsOff = editsIn(off.report, off.seconds);
    const netOff = off.cpuMs[node]! - idleMsPerS * off.seconds;
    const usPerEdit = editsOff > 0 ? (netOff / editsOff) * 1000 : NaN;
    const editsOn = editsIn(on.report, on.seconds);
    const netOn = on.cpuMs[node]! - idleMsPerS * on.seconds;
    const cursorsIn = n * CURSOR_HZ * on.seconds;
    const p: CurvePoint = {
      clients: n,
      usPerEdit: Math.round(usPerEdit),
      editsOff: Math.round(editsOff),
      cpuOffMs: round1(off.cpuMs[node]!),
      cpuOnPercent: round1((netOn / (on.seconds * 1000)) * 100),
      usPerEditWithCursors: editsOn > 0 ? Math.round((netOn / editsOn) * 1000) : NaN,
      usPerCursorIn: Math.round(((netOn - (editsOn * usPerEdit) / 1000) / cursorsIn) * 1000 * 10) / 10,
      editsOn: Math.round(editsOn),
      strokeP99On: on.report.strokes.visible.p99,
      strokeP99Off: off.report.strokes.visible.p99,
      cursorP99: on.report.cursors.latency.p99,
      clientCpuOnPercent: on.report.client.cpuPercent,
      load1: load1(),
    };
    points.push(p);
    log.info(
      `${String(n).padStart(2)} clients: ${p.usPerEdit} µs/edit cursors off (${p.editsOff} edits); classroom shape ${p.cpuOnPercent} % CPU = ${p.usPerEditWithCursors} µs/edit, ${p.usPerCursorIn} µs per cursor in; stroke p99 ${p.strokeP99Off}/${p.strokeP99On} ms; load ${p.load1}`,
    );
  }
  const first = points[0]?.usPerEdit ?? NaN;
  const last = points[points.length - 1]?.usPerEdit ?? NaN;
  return {
    node,
    idleMsPerS: round2(idleMsPerS),
    strokeRateOff: CURVE_STROKE_RATE,
    points,
    flatRatio: round2(last / first),
  };
}

interface SchoolStep {
  boards: number;
  perNode: Record<string, number>;
  clients: number;
  strokeP99: number;
  strokeAllP99: number;
  delivered: string;
  cursorP99: number;
  cursorDelivered: number;
  savedP99: number;
  nodeCpuPercent: Record<string, number>;
  clientCpuPercent: number;
  clientEventLoopP99Ms: number;
  nodeEventLoopP99Ms: Record<string, number>;
  machineBusyPercent: number;
  load1: [number, number];
  errors: string[];
  pass: boolean;
  why: string[];
  /** a first window that missed (the step was measured again) */
  firstMiss: string[];
}

function checkTargets(r: LoadReport): string[] {
  const why: string[] = [];
  if (!(r.strokes.visible.p99 <= TARGET.strokeP99Ms)) why.push(`stroke p99 ${r.strokes.visible.p99} ms`);
  if (!(r.cursors.latency.p99 <= TARGET.cursorP99Ms)) why.push(`cursor p99 ${r.cursors.latency.p99} ms`);
  if (!(r.strokes.ack.p99 <= TARGET.savedP99Ms)) why.push(`SAVED p99 ${r.strokes.ack.p99} ms`);
  if (r.strokes.delivered < r.strokes.expectedDeliveries)
    why.push(`${r.strokes.expectedDeliveries - r.strokes.delivered} stroke deliveries missing`);
  if (r.strokes.acked < r.strokes.sent) why.push(`${r.strokes.sent - r.strokes.acked} strokes not SAVED`);
  if (r.errors.length) why.push(`${r.errors.length} errors`);
  return why;
}

async function scenarioSchool(clients: Clients): Promise<Record<string, unknown>> {
  log.step(
    `school: classroom boards (${CLIENTS} clients each) over rt-1 and rt-2, steps ${SCHOOL_STEPS.join(', ')}, ${SCHOOL_DURATION} s each, until a target breaks`,
  );
  const started = performance.now();
  const steps: SchoolStep[] = [];
  const perNode: Record<string, number> = { 'rt-1': 0, 'rt-2': 0 };
  let open = 0;
  let lastPass = 0;
  let stopReason = 'all steps passed';
  try {
    for (const k of SCHOOL_STEPS) {
      if ((performance.now() - started) / 1000 > SCHOOL_BUDGET) {
        stopReason = `time budget (${SCHOOL_BUDGET} s) used`;
        break;
      }
      const add: WbBoardSpec[] = [];
      for (; open < k; open++) {
        const node = NODE_IDS[open % 2]!;
        perNode[node]!++;
        add.push(await createBoard(node, `school ${open}`));
      }
      const l0 = load1();
      const join = await clients.call<JoinResult>({
        cmd: 'wb.open',
        boards: add,
        load: classroomLoad(CLIENTS),
        secret: SECRET,
        concurrency: 24,
      });
      await sleep(2000);
      let m = await measure(clients, SCHOOL_DURATION);
      let why = checkTargets(m.report);
      let firstMiss: string[] = [];
      if (why.length) {
        // a shared 2-core machine: one window can lose to the scheduler; a step fails on two in a row
        firstMiss = why;
        log.info(`${k} boards: missed (${why.join('; ')}), measuring once more`);
        m = await measure(clients, SCHOOL_DURATION);
        why = checkTargets(m.report);
      }
      const r = m.report;
      const step: SchoolStep = {
        boards: k,
        perNode: { ...perNode },
        clients: r.clients,
        strokeP99: r.strokes.visible.p99,
        strokeAllP99: r.strokes.visibleAll.p99,
        delivered: `${r.strokes.delivered}/${r.strokes.expectedDeliveries}`,
        cursorP99: r.cursors.latency.p99,
        cursorDelivered: r.cursors.deliveredRatio,
        savedP99: r.strokes.ack.p99,
        nodeCpuPercent: {
          'rt-1': round1((m.cpuMs['rt-1']! / (m.seconds * 1000)) * 100),
          'rt-2': round1((m.cpuMs['rt-2']! / (m.seconds * 1000)) * 100),
        },
        clientCpuPercent: r.client.cpuPercent,
        clientEventLoopP99Ms: r.client.eventLoopDelayP99Ms,
        nodeEventLoopP99Ms: { 'rt-1': m.nodeLoopDelay['rt-1']!.p99Ms, 'rt-2': m.nodeLoopDelay['rt-2']!.p99Ms },
        machineBusyPercent: m.machineBusy,
        load1: [l0, load1()],
        errors: r.errors.slice(0, 5),
        pass: why.length === 0,
        why,
        firstMiss,
      };
      steps.push(step);
      log.info(
        `${String(k).padStart(2)} boards (${r.clients} clients, joined in ${join.elapsedMs} ms): stroke p99 ${step.strokeP99} ms, cursor p99 ${step.cursorP99} ms, SAVED p99 ${step.savedP99} ms; rt-1 ${step.nodeCpuPercent['rt-1']} %, rt-2 ${step.nodeCpuPercent['rt-2']} %, clients ${step.clientCpuPercent} %, machine ${step.machineBusyPercent} % — ${step.pass ? c.green('pass') : c.red(`FAIL (${why.join('; ')})`)}`,
      );
      if (!step.pass) {
        stopReason = `target broken at ${k} boards: ${why.join('; ')}`;
        break;
      }
      lastPass = k;
    }
  } finally {
    await clients.call({ cmd: 'closeAll' });
  }
  return { lastPassingBoards: lastPass, stopReason, steps };
}

// ---------------------------------------------------------------------------------------------
// output

const fmt = (x: number | undefined, unit = ''): string =>
  x === undefined || Number.isNaN(x) ? '–' : `${Math.round(x * 10) / 10}${unit}`;
const trio = (s: Summary | undefined): string => (s && s.n ? `${fmt(s.p50)} / ${fmt(s.p99)} / ${fmt(s.max)}` : '–');
const mark = (ok: boolean | undefined): string =>
  ok === undefined ? c.gray('n/a') : ok ? c.green('met') : c.red('MISSED');

function printComparison(ours: LatencyView | undefined, hp: LatencyView | undefined, hpVersion: string): void {
  const rows: Array<[string, string, string, string]> = [
    ['', 'ours', `hocuspocus ${hpVersion}`, 'target'],
    [
      'stroke → visible p50/p99/max (ms)',
      trio(ours?.strokeVisible),
      trio(hp?.strokeVisible),
      `p99 ≤ ${TARGET.strokeP99Ms}`,
    ],
    ['stroke → at all others p50/p99/max', trio(ours?.strokeVisibleAll), trio(hp?.strokeVisibleAll), ''],
    ['stroke deliveries seen', ours?.delivered ?? '–', hp?.delivered ?? '–', 'all'],
    ['cursor p50/p99/max (ms)', trio(ours?.cursor), trio(hp?.cursor), `p99 ≤ ${TARGET.cursorP99Ms}`],
    ['cursor delivered (after coalescing)', fmt(ours?.cursorDelivered), fmt(hp?.cursorDelivered), ''],
    ['commit → ack p50/p99/max (ms)', trio(ours?.ack), trio(hp?.ack), `p99 ≤ ${TARGET.savedP99Ms} (durable)`],
    ['strokes acked', ours?.acked ?? '–', hp?.acked ?? '–', 'all'],
    ['  ack means', 'SAVED: journal committed', 'applied in memory', ''],
    ['server CPU (% of one core)', fmt(ours?.serverCpuPercent), fmt(hp?.serverCpuPercent), ''],
    ['server CPU per edit, cursors incl. (ms)', fmt(ours?.serverCpuMsPerEdit), fmt(hp?.serverCpuMsPerEdit), ''],
    ['client process CPU (% of one core)', fmt(ours?.clientCpuPercent), fmt(hp?.clientCpuPercent), ''],
    ['server event-loop delay p99 (ms)', fmt(ours?.serverEventLoopP99Ms), 'not measured', ''],
    ['client event-loop delay p99 (ms)', fmt(ours?.clientEventLoopP99Ms), fmt(hp?.clientEventLoopP99Ms), ''],
    ['machine busy (% of all cores)', fmt(ours?.machineBusyPercent), fmt(hp?.machineBusyPercent), ''],
    ['load average (1 min) start → end', ours ? ours.load1.join(' → ') : '–', hp ? hp.load1.join(' → ') : '–', ''],
    [
      'per round: stroke/cursor p99 (ms)',
      ours ? ours.rounds.map((r) => `${fmt(r.strokeP99)}/${fmt(r.cursorP99)}`).join(', ') : '–',
      hp ? hp.rounds.map((r) => `${fmt(r.strokeP99)}/${fmt(r.cursorP99)}`).join(', ') : '–',
      '',
    ],
    [
      'per round: server CPU %',
      ours ? ours.rounds.map((r) => fmt(r.serverCpuPercent)).join(', ') : '–',
      hp ? hp.rounds.map((r) => fmt(r.serverCpuPercent)).join(', ') : '–',
      '',
    ],
  ];
  const w = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log('');
  console.log(
    c.bold(
      `  Classroom: 1 board, ${CLIENTS} clients, ${STROKE_RATE} strokes/s, cursors ${CURSOR_HZ} Hz; ${ROUNDS} × ${DURATION} s each, alternating, samples pooled`,
    ),
  );
  for (const [i, r] of rows.entries()) {
    const line = `  ${r[0].padEnd(w[0]!)}  ${r[1].padEnd(w[1]!)}  ${r[2].padEnd(w[2]!)}  ${r[3]}`;
    console.log(i === 0 ? c.bold(line) : line);
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
  process.on('SIGTERM', () => void cleanup().then(() => process.exit(143)));
  const t0 = performance.now();
  if (PROFILE) rmSync(PROFILE_DIR, { recursive: true, force: true });
  log.step(`realtime benchmark: ${[...SCENARIOS].join(', ')} (load average ${load1()}, ${cpus().length} cores)`);
  infra = await ensureInfra(process.env);
  snapshotDir = await mkdtemp(join(tmpdir(), 'wb-bench-rt-'));

  log.step('starting services/auth, services/boards and realtime nodes rt-1, rt-2 (startStack, NODE_ENV=production)');
  const nodeEnv = (id: string): Record<string, string> => ({
    RT_NODE_ID: id,
    RT_SHARED_SECRET: SECRET,
    SNAPSHOT_DIR: snapshotDir!,
    RT_NODE_TTL_MS: String(NODE_TTL_MS),
    RT_IDLE_MS: String(IDLE_MS),
    // "room opened" lines carry the node's own load timings (few lines: rooms open and close rarely)
    LOG_LEVEL: 'info',
    // rt-2 reserves no wasm memory at start-up, so its RSS shows what boards and connections take
    ...(id === 'rt-2' ? { RT_DOC_MEMORY_MB: '0' } : {}),
    // SIGUSR1 opens the inspector on a free loopback port: the memory scenario forces a GC through it
    ...nodeOptions(id, '--inspect-port=0'),
  });
  stack = await startStack({
    deployables: ['services/auth', 'services/boards', NODE_A, NODE_B],
    env: { ...productionStackEnv(), RT_SHARED_SECRET: SECRET },
    envFor: {
      [NODE_A]: { ...nodeEnv('rt-1'), RT_PORT: String(await freePort()) },
      [NODE_B]: { ...nodeEnv('rt-2'), RT_PORT: String(await freePort()) },
    },
    ...stackInfra(infra),
    readyTimeoutMs: 60_000,
  });
  redis = new Redis(infra.redisUrl, { maxRetriesPerRequest: 3 });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  // BENCH-ONLY SETUP: the teacher owns hundreds of boards here; on a starter plan every board past
  // its fifth is read-only (plan limits, for the owner too) and the weekly minutes would run out
  await db.query(
    `INSERT INTO auth.users (id, name, email, plan) VALUES ($1, 'Bench teacher', 'teacher@bench.test', 'ultimate')
     ON CONFLICT (id) DO UPDATE SET plan = 'ultimate'`,
    [TEACHER],
  );
  await db.query(`SELECT setval(pg_get_serial_sequence('auth.users', 'id'), (SELECT max(id) FROM auth.users))`);

  const hp = SCENARIOS.has('hocuspocus') ? await startHocuspocus() : undefined;
  if (hp) log.ok(`stock @hocuspocus/server ${hp.version} on ${hp.url} (no extensions: in-memory, no persistence)`);

  if (PROFILE) {
    startProfiling([pidOf('rt-1'), pidOf('rt-2'), hp?.pid]);
    log.ok(
      `profiling rt-1, rt-2${hp ? ', hocuspocus' : ''} (written to ${relative(ROOT, PROFILE_DIR)} when they exit)`,
    );
  }
  const proc = fork(join(__dirname, 'realtime-clients.ts'), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  clientProc = proc;
  const clients = new Clients(proc);
  await clients.ready;
  log.ok(
    `client process ${proc.pid}; clients connect to the owner node directly (resolveRealtimeOwner + signed actor header)`,
  );

  const results: Record<string, unknown> = {};
  if (SCENARIOS.has('memory')) results.memory = await scenarioMemory(clients);
  if (SCENARIOS.has('big')) results.bigBoard = await scenarioBig(clients);
  if (SCENARIOS.has('classroom') || hp) {
    const cls = await scenarioClassroom(clients, hp);
    if (cls.ours) results.classroom = cls.ours;
    if (hp && cls.hocuspocus)
      results.hocuspocus = { version: hp.version, extensions: [], persistence: false, ...cls.hocuspocus };
  }
  if (SCENARIOS.has('curve')) results.curve = await scenarioCurve(clients);
  if (SCENARIOS.has('school')) results.school = await scenarioSchool(clients);

  // ---- summary
  const ours = results.classroom as
    (LatencyView & { journalInsertStarted: { n: number; insertStarted: Summary } }) | undefined;
  const theirs = results.hocuspocus as LatencyView | undefined;
  if (ours || theirs) printComparison(ours, theirs, hp?.version ?? '');
  if (ours) {
    const j = ours.journalInsertStarted;
    console.log(
      `  journal row created_at − commit (insert transaction started, lower bound; SAVED is the upper): p50/p99/max ${trio(j.insertStarted)} ms over ${j.n} rows`,
    );
  }
  const curve = results.curve as
    { idleMsPerS: number; strokeRateOff: number; points: CurvePoint[]; flatRatio: number } | undefined;
  if (curve) {
    console.log('');
    console.log(
      c.bold(`  Owner-node CPU per committed edit, by clients on the board (idle ${curve.idleMsPerS} ms/s subtracted)`),
    );
    const head = [
      'clients',
      `µs/edit, cursors off (${curve.strokeRateOff}/s)`,
      `classroom shape: CPU %`,
      'µs/edit incl. cursors',
      'µs per cursor in',
      'stroke p99 off/on',
    ];
    console.log(`  ${head.join('  ')}`);
    for (const p of curve.points) {
      const cells = [
        fmt(p.clients),
        fmt(p.usPerEdit),
        fmt(p.cpuOnPercent, '%'),
        fmt(p.usPerEditWithCursors),
        fmt(p.usPerCursorIn),
        `${fmt(p.strokeP99Off)} / ${fmt(p.strokeP99On)} ms`,
      ];
      console.log(`  ${cells.map((x, i) => x.padStart(head[i]!.length)).join('  ')}`);
    }
    console.log(`  cursors off, ${CURVE[CURVE.length - 1]} vs ${CURVE[0]} clients: ×${curve.flatRatio}`);
  }
  const school = results.school as { lastPassingBoards: number; stopReason: string; steps: SchoolStep[] } | undefined;
  if (school) {
    console.log('');
    console.log(c.bold(`  School: classroom boards over two nodes (${SCHOOL_DURATION} s per step)`));
    console.log(
      `  boards  clients  stroke p99  cursor p99  SAVED p99  rt-1 CPU  rt-2 CPU  client CPU  loop p99 rt-1/rt-2/clients  machine  load`,
    );
    for (const s of school.steps) {
      const loops = `${fmt(s.nodeEventLoopP99Ms['rt-1'])}/${fmt(s.nodeEventLoopP99Ms['rt-2'])}/${fmt(s.clientEventLoopP99Ms)} ms`;
      console.log(
        `  ${String(s.boards).padEnd(6)}  ${String(s.clients).padEnd(7)}  ${fmt(s.strokeP99).padStart(10)}  ${fmt(s.cursorP99).padStart(10)}  ${fmt(s.savedP99).padStart(9)}  ${fmt(s.nodeCpuPercent['rt-1'], '%').padStart(8)}  ${fmt(s.nodeCpuPercent['rt-2'], '%').padStart(8)}  ${fmt(s.clientCpuPercent, '%').padStart(10)}  ${loops.padStart(26)}  ${fmt(s.machineBusyPercent, '%').padStart(7)}  ${s.load1[1]}  ${s.pass ? c.green('pass') : c.red('FAIL')}`,
      );
    }
    console.log(`  last passing: ${school.lastPassingBoards} boards (${school.stopReason})`);
  }
  const big = results.bigBoard as
    | {
        cases: Array<{
          case: string;
          coldWelcomeMs: { median: number; all: number[] };
          warmWelcomeMs: number;
          nodeLoadMs?: { median: number; all: number[] };
          coldSyncedMs: number[];
        }>;
        strokes: number;
        snapshotBytes: number;
        memoryPerBigBoard: { rssMiB: number; heapMiB: number };
      }
    | undefined;
  if (big) {
    console.log('');
    console.log(c.bold(`  Big board: ${big.strokes} strokes, snapshot ${round1(big.snapshotBytes / 2 ** 20)} MiB`));
    for (const k of big.cases) {
      console.log(
        `  ${k.case}: cold join → WELCOME ${k.coldWelcomeMs.all.join(', ')} ms (median ${k.coldWelcomeMs.median}); the node's load ${k.nodeLoadMs?.all.join(', ') ?? '?'} ms; warm join → WELCOME ${k.warmWelcomeMs} ms; → SYNCED (the whole board to a raw-handle client) ${k.coldSyncedMs.join(', ')} ms`,
      );
    }
    console.log(
      `  memory per open big board: RSS ${big.memoryPerBigBoard.rssMiB} MiB, JS heap ${big.memoryPerBigBoard.heapMiB} MiB`,
    );
  }
  const mem = results.memory as
    { perBoard: { rssKiB: number; heapKiB: number }; perConnection: { rssKiB: number; heapKiB: number } } | undefined;
  if (mem) {
    console.log('');
    console.log(
      c.bold('  Memory') +
        `: per open (empty) board RSS ${mem.perBoard.rssKiB} KiB / JS heap ${mem.perBoard.heapKiB} KiB; per connection RSS ${mem.perConnection.rssKiB} KiB / JS heap ${mem.perConnection.heapKiB} KiB (after a full GC in the node)`,
    );
  }

  // ---- targets
  const targets: Record<string, boolean | undefined> = {
    strokeP99: ours ? ours.strokeVisible.p99 <= TARGET.strokeP99Ms : undefined,
    cursorP99: ours ? ours.cursor.p99 <= TARGET.cursorP99Ms : undefined,
    savedP99: ours ? ours.ack.p99 <= TARGET.savedP99Ms && ours.ack.n > 0 : undefined,
    cpuPerEditFlat: curve ? curve.flatRatio <= TARGET.cpuFlatRatio : undefined,
    bigBoardLoad: big ? big.cases.every((k) => k.coldWelcomeMs.median <= TARGET.bigLoadMs) : undefined,
  };
  console.log('');
  console.log(c.bold('  Targets (classroom unless noted)'));
  console.log(`  stroke → visible p99 ≤ ${TARGET.strokeP99Ms} ms: ${mark(targets.strokeP99)}`);
  console.log(`  cursor p99 ≤ ${TARGET.cursorP99Ms} ms: ${mark(targets.cursorP99)}`);
  console.log(`  99 % of edits durable (SAVED) ≤ ${TARGET.savedP99Ms} ms: ${mark(targets.savedP99)}`);
  console.log(
    `  CPU per edit flat 2 → 30 clients (cursors off, ≤ ×${TARGET.cpuFlatRatio}): ${mark(targets.cpuPerEditFlat)}`,
  );
  console.log(
    `  ${BIG_STROKES}-stroke board loads (cold join → WELCOME, median of each case${big ? `: ${big.cases.map((k) => k.coldWelcomeMs.median).join(' / ')} ms` : ''}) ≤ ${TARGET.bigLoadMs} ms: ${mark(targets.bigBoardLoad)}`,
  );
  if (school) console.log(`  school: ${school.lastPassingBoards} classroom boards on two nodes`);
  const totalS = Math.round((performance.now() - t0) / 1000);
  console.log(`  run took ${totalS} s; load average now ${load1()}`);

  const result: Record<string, unknown> = {
    setup: {
      stack:
        'services/auth, services/boards, realtime rt-1 + rt-2 (startStack, NODE_ENV=production; LOG_LEVEL=warn, info on the realtime nodes: their "room opened" lines time the loads; rt-2 RT_DOC_MEMORY_MB=0)',
      connect: 'clients connect directly to the owner node (resolveRealtimeOwner) with a signed x-wb-actor header',
      clients: 'one separate process (realtime-clients.ts)',
      rtIdleMs: IDLE_MS,
      nodeOptions: process.env.BENCH_NODE_OPTIONS ?? null,
      hocuspocus: hp ? { version: hp.version, extensions: [], persistence: false } : null,
    },
    settings: {
      durationS: DURATION,
      warmupS: WARMUP,
      clients: CLIENTS,
      strokeRate: STROKE_RATE,
      cursorHz: CURSOR_HZ,
      curve: CURVE,
      curveDurationS: CURVE_DURATION,
      schoolSteps: SCHOOL_STEPS,
      schoolDurationS: SCHOOL_DURATION,
      bigStrokes: BIG_STROKES,
      bigTail: BIG_TAIL,
      memBoards: MEM_BOARDS,
      memConnections: MEM_CONNECTIONS,
    },
    results,
    targets: { ...TARGET, met: targets },
    runSeconds: totalS,
  };
  // JSON turns NaN (a reading that failed) into null
  log.ok(`wrote ${writeBenchResult('realtime', result)}`);
  const missed = Object.values(targets).some((v) => v === false);
  return process.env.BENCH_STRICT === '1' && missed ? 1 : 0;
}

// the profiles are written when the servers exit (after cleanup)
runBench(main, cleanup, () => {
  if (PROFILE) printProfiles(PROFILE_DIR, 'services/realtime/dist');
});
