/**
 * Starts real deployables as child processes (`node <pkg>/dist/main.js`) with isolated
 * infrastructure and waits until each reports ready on its health port; `stop()` ends them by
 * PID (SIGTERM, then SIGKILL), drops the database, deletes the stream and the Redis keys.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { createInterface } from 'node:readline';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager, JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import { Redis } from 'ioredis';
import { eventStreamName } from '@wb/proto';
import { runnerEnv } from './env';
import { sleep } from './wait';
import { dropDatabase, ensureDatabase } from '../db';

export interface StackOptions {
  /** repo-relative (or absolute) package dirs to run, in start order, e.g. ['services/auth', 'gateway'] */
  deployables: string[];
  /** extra env for every deployable */
  env?: Record<string, string>;
  /** extra env per deployable dir */
  envFor?: Record<string, Record<string, string>>;
  /** server URL without database (default postgres://postgres@127.0.0.1:5432) */
  postgresUrl?: string;
  /** default nats://127.0.0.1:4222 */
  natsUrl?: string;
  /** default redis://127.0.0.1:6379 */
  redisUrl?: string;
  /** how long one deployable may take to answer /readyz with 200 (default 20 s) */
  readyTimeoutMs?: number;
}
export interface RunningStack {
  /** http://127.0.0.1:<port> of the gateway, when started */
  gatewayUrl: string;
  databaseUrl: string;
  natsPrefix: string;
  redisPrefix: string;
  /** env every deployable got (for tests that start more processes or connect themselves) */
  env: Record<string, string>;
  /** pid per deployable dir */
  pids: Record<string, number>;
  /** stop one deployable (SIGTERM by default) and wait for its exit */
  stopOne(dir: string, signal?: NodeJS.Signals): Promise<number | null>;
  /** start one again with the same env */
  restartOne(dir: string): Promise<void>;
  /** combined stdout/stderr lines of one deployable (for assertions on logs) */
  logs(dir: string): string[];
  /** env one deployable got (its HEALTH_PORT/HTTP_PORT included) */
  envOf(dir: string): Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The infrastructure a test run uses: the URLs `make test` found or started (DATABASE_URL,
 * NATS_URL, REDIS_URL in the runner's environment), else the machine's default ports. Only the
 * server part of DATABASE_URL is used: every stack creates its own database on that server.
 */
const runner = runnerEnv();
export const DEFAULT_TEST_POSTGRES_URL = serverUrlOf(runner.databaseUrl) ?? 'postgres://postgres@127.0.0.1:5432';
export const DEFAULT_TEST_NATS_URL = runner.natsUrl ?? 'nats://127.0.0.1:4222';
export const DEFAULT_TEST_REDIS_URL = runner.redisUrl ?? 'redis://127.0.0.1:6379';

function serverUrlOf(databaseUrl: string | undefined): string | undefined {
  if (!databaseUrl) return undefined;
  const url = new URL(databaseUrl);
  url.pathname = '';
  return url.toString().replace(/\/$/, '');
}

const KILL_AFTER_MS = 5000;
const MAX_LOG_LINES = 20_000;

/** 8 hex chars: unique enough for concurrent runs, short enough for names. */
export function randomId(): string {
  return randomBytes(4).toString('hex');
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it; tiny race until the caller binds it). */
/**
 * A loopback port nobody else uses. The kernel's port 0 answer is free only until our listener
 * closes; a child binds it a second later, and a parallel jest worker asking meanwhile may be
 * handed the same port (two stacks' health ports collided: one stack's /readyz answered for the
 * other's crashed service). So every port handed out is also reserved across processes with an
 * exclusive file in the OS temp folder; reservations expire after 10 minutes.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = await kernelPort();
    if (reservePort(port) || attempt >= 20) return port;
  }
}

const PORT_RESERVATIONS = join(tmpdir(), 'wb-test-ports');
const RESERVATION_MS = 10 * 60_000;

function reservePort(port: number): boolean {
  const file = join(PORT_RESERVATIONS, String(port));
  mkdirSync(PORT_RESERVATIONS, { recursive: true });
  try {
    closeSync(openSync(file, 'wx'));
    return true;
  } catch {
    // taken: by a live reservation, or by one old enough to reuse
    try {
      if (Date.now() - statSync(file).mtimeMs < RESERVATION_MS) return false;
      utimesSync(file, new Date(), new Date());
      return true;
    } catch {
      return false;
    }
  }
}

function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** The monorepo root: the nearest ancestor of this file whose package.json declares workspaces. */
export function findRepoRoot(from: string = __dirname): string {
  let dir = from;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { workspaces?: unknown }).workspaces) return dir;
      } catch {
        // unreadable package.json: keep walking up
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json with "workspaces" above ${from}`);
    dir = parent;
  }
}

/** Create an empty `wb_test_<random>` database; returns its URL. */
export async function createTestDatabase(postgresUrl: string = DEFAULT_TEST_POSTGRES_URL): Promise<string> {
  const u = new URL(postgresUrl);
  u.pathname = `/wb_test_${randomId()}`;
  const url = u.toString();
  await ensureDatabase(url);
  return url;
}

/** Drop a database made by createTestDatabase (refuses other names, to protect shared servers). */
export async function dropTestDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^wb_test_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to drop "${name}": not a wb_test_* database`);
  await dropDatabase(url);
}

/** Delete the event stream of a test prefix, if it exists. */
export async function deleteEventStream(prefix: string, natsUrl: string = DEFAULT_TEST_NATS_URL): Promise<void> {
  if (!prefix) throw new Error('refusing to delete the unprefixed event stream');
  const nc = await connect({ servers: natsUrl, name: 'wb-test-cleanup' });
  try {
    const jsm = await jetstreamManager(nc);
    try {
      await jsm.streams.delete(eventStreamName(prefix));
    } catch (err) {
      if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound)) throw err;
    }
  } finally {
    await nc.close();
  }
}

/** Delete every key starting with `prefix` (SCAN + UNLINK; never FLUSH on a shared server). */
export async function deleteRedisKeys(prefix: string, redisUrl: string = DEFAULT_TEST_REDIS_URL): Promise<number> {
  if (prefix.length < 3) throw new Error(`refusing to delete keys under the short prefix "${prefix}"`);
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
  await redis.connect();
  let deleted = 0;
  try {
    const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
  return deleted;
}

interface Child {
  dir: string;
  env: Record<string, string>;
  proc?: ChildProcess;
  exited?: Promise<number | null>;
  lastExit?: number | null;
  lines: string[];
}

function httpStatus(url: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve) => {
    const req = httpGet(url, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

/** Children still running, killed if the test process exits without calling stop(). */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const p of live) p.kill('SIGKILL');
  });
}

export async function startStack(opts: StackOptions): Promise<RunningStack> {
  const root = findRepoRoot();
  const natsUrl = opts.natsUrl ?? DEFAULT_TEST_NATS_URL;
  const redisUrl = opts.redisUrl ?? DEFAULT_TEST_REDIS_URL;
  const readyTimeoutMs = opts.readyTimeoutMs ?? 20_000;
  const id = randomId();
  const natsPrefix = `t${id}.`;
  const redisPrefix = `wbt${id}:`;
  const databaseUrl = await createTestDatabase(opts.postgresUrl);

  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    NATS_PREFIX: natsPrefix,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    LOG_LEVEL: runner.logLevel ?? 'warn',
    OTEL_TRACES_EXPORTER: 'none',
    ...opts.env,
  };

  const children = new Map<string, Child>();
  for (const dir of opts.deployables) {
    const own: Record<string, string> = {
      ...env,
      HEALTH_PORT: String(await freePort()),
      HTTP_PORT: String(await freePort()),
      ...opts.envFor?.[dir],
    };
    children.set(dir, { dir, env: own, lines: [] });
  }
  const childOf = (dir: string): Child => {
    const c = children.get(dir);
    if (!c) throw new Error(`"${dir}" is not a deployable of this stack (${[...children.keys()].join(', ')})`);
    return c;
  };

  installExitHook();

  function launch(c: Child): void {
    const main = join(resolvePath(root, c.dir), 'dist', 'main.js');
    if (!existsSync(main)) throw new Error(`${main} does not exist: build first (npx tsc -b)`);
    const proc = spawn(process.execPath, ['--enable-source-maps', main], {
      cwd: resolvePath(root, c.dir),
      env: { ...(runner.path ? { PATH: runner.path } : {}), ...c.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(proc);
    c.proc = proc;
    const push = (line: string): void => {
      c.lines.push(line);
      if (c.lines.length > MAX_LOG_LINES) c.lines.splice(0, c.lines.length - MAX_LOG_LINES);
    };
    createInterface({ input: proc.stdout! }).on('line', push);
    createInterface({ input: proc.stderr! }).on('line', push);
    c.exited = new Promise((resolve) => {
      proc.once('exit', (code) => {
        live.delete(proc);
        c.lastExit = code;
        resolve(code);
      });
      proc.once('error', (err) => {
        push(`[harness] spawn failed: ${err.message}`);
        live.delete(proc);
        resolve(null);
      });
    });
  }

  async function waitReady(c: Child): Promise<void> {
    const url = `http://127.0.0.1:${c.env.HEALTH_PORT}/readyz`;
    const deadline = Date.now() + readyTimeoutMs;
    let exitedWith: number | null | undefined;
    void c.exited?.then((code) => {
      exitedWith = code;
    });
    while (Date.now() < deadline) {
      if (exitedWith !== undefined) break;
      if ((await httpStatus(url, 1000)) === 200) return;
      await sleep(100);
    }
    const why =
      exitedWith !== undefined ? `exited with ${exitedWith}` : `not ready on ${url} after ${readyTimeoutMs} ms`;
    throw new Error(`${c.dir} ${why}. Output:\n${c.lines.slice(-80).join('\n') || '(none)'}`);
  }

  async function stopChild(c: Child, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const proc = c.proc;
    if (!proc || !c.exited) return c.lastExit ?? null;
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill(signal);
      const timer = setTimeout(() => proc.kill('SIGKILL'), KILL_AFTER_MS);
      try {
        await c.exited;
      } finally {
        clearTimeout(timer);
      }
    }
    c.proc = undefined;
    return c.exited.then((code) => code);
  }

  async function cleanup(): Promise<void> {
    const errors: unknown[] = [];
    for (const c of [...children.values()].reverse()) await stopChild(c).catch((err: unknown) => errors.push(err));
    const results = await Promise.allSettled([
      dropTestDatabase(databaseUrl),
      deleteEventStream(natsPrefix, natsUrl),
      deleteRedisKeys(redisPrefix, redisUrl),
    ]);
    for (const r of results) if (r.status === 'rejected') errors.push(r.reason);
    if (errors.length)
      throw new AggregateError(errors, `stack cleanup: ${errors.map((e) => (e as Error).message).join('; ')}`);
  }

  try {
    for (const c of children.values()) {
      launch(c);
      await waitReady(c);
    }
  } catch (err) {
    await cleanup().catch(() => undefined);
    throw err;
  }

  const gateway = [...children.values()].find((c) => c.dir === 'gateway' || c.dir.endsWith('/gateway'));
  let stopped = false;
  return {
    gatewayUrl: gateway ? `http://127.0.0.1:${gateway.env.HTTP_PORT}` : '',
    databaseUrl,
    natsPrefix,
    redisPrefix,
    env,
    get pids() {
      const out: Record<string, number> = {};
      for (const c of children.values()) if (c.proc?.pid !== undefined) out[c.dir] = c.proc.pid;
      return out;
    },
    stopOne: (dir, signal) => stopChild(childOf(dir), signal),
    async restartOne(dir) {
      const c = childOf(dir);
      await stopChild(c);
      launch(c);
      await waitReady(c);
    },
    logs: (dir) => [...childOf(dir).lines],
    envOf: (dir) => ({ ...childOf(dir).env }),
    async stop() {
      if (stopped) return;
      stopped = true;
      await cleanup();
    },
  };
}
