/**
 * `make up`: the whole platform on this machine, in the foreground.
 *
 *  1. npm install when node_modules is missing or the lockfile changed; the conversion worker's
 *     Debian packages (LibreOffice, poppler, mupdf) when missing and root, else how to install them
 *  2. PostgreSQL, NATS (JetStream) and Redis: used where they answer (DATABASE_URL, NATS_URL,
 *     REDIS_URL or the default ports), otherwise started under .data/ (see lib/infra.ts)
 *  3. the database, if missing
 *  4. build: tsc -b, then the web app (vite)
 *  5. the call server (lib/calls.ts: Janus + coturn, installed with apt-get when missing and root),
 *     then every deployable (lib/deployables.ts), services first, the gateway last; each runs its
 *     migrations at start; waits for every /readyz
 *     Gateway, files service and conversion worker share FILES_DIR (.data/files, or $FILES_DIR):
 *     uploads are streamed there, converted there and served from there.
 *  6. prints the URL, and every mail written to .data/mail as it arrives
 *  7. Ctrl-C / SIGTERM: stops what it started, by PID — services, gateway, then infrastructure
 *
 * Env: PORT (gateway HTTP port, default 8080), DATABASE_URL, NATS_URL, REDIS_URL, LOG_LEVEL,
 * SKIP_BUILD=1 (use the existing dist/ folders).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { c, describeError, log, UserFacingError } from './lib/log';
import { ensureConverterPackages, ensureInstalled } from './lib/install';
import { ensureDatabase, ensureInfra, type Infra } from './lib/infra';
import { discoverDeployables } from './lib/deployables';
import { failureReport, startDeployables, stopDeployables, type RunningInstance } from './lib/services';
import { watchMail } from './lib/mail';
import { startCallServer } from './lib/calls';
import type { ManagedProcess } from './lib/proc';
import { DATA_DIR, MAIL_DIR, ROOT } from './lib/paths';
import { isPortFree, freePort } from './lib/ports';
import { run } from './lib/proc';

let infra: Infra | undefined;
const running: RunningInstance[] = [];
/** Janus (+ coturn) for calls, when installed */
let callServer: ManagedProcess | undefined;
let shuttingDown = false;

async function shutdown(code: number, reason: string): Promise<never> {
  if (!shuttingDown) {
    shuttingDown = true;
    console.log(`\n${c.bold('▸')} stopping (${reason})…`);
    try {
      await stopDeployables(running);
      await callServer?.stop();
      if (infra) await infra.stop();
      console.log(`${c.green('✔')} stopped everything this run started`);
    } catch (err) {
      log.error(describeError(err));
      code = code || 1;
    }
  }
  process.exit(code);
}

function onSignal(sig: NodeJS.Signals): void {
  if (shuttingDown) {
    // second Ctrl-C: do not wait any longer
    for (const r of running) r.proc.signal('SIGKILL');
    for (const p of infra?.started ?? []) p.signal('SIGKILL');
    callServer?.signal('SIGKILL');
    process.exit(130);
  }
  void shutdown(0, sig);
}

async function gatewayPort(): Promise<number> {
  const wanted = process.env.PORT;
  if (wanted) {
    const port = Number(wanted);
    if (!(await isPortFree(port))) throw new UserFacingError(`PORT=${port} is taken; choose another PORT`);
    return port;
  }
  if (await isPortFree(8080)) return 8080;
  const port = await freePort();
  log.warn(`port 8080 is taken; the gateway listens on ${port} instead (set PORT to choose)`);
  return port;
}

async function build(): Promise<void> {
  if (process.env.SKIP_BUILD === '1') {
    log.warn('SKIP_BUILD=1: using the existing dist/ folders');
    return;
  }
  log.step('building (tsc -b)');
  await run('npx', ['tsc', '-b'], { cwd: ROOT });
  if (existsSync(join(ROOT, 'web', 'index.html'))) {
    log.step('building the web app (vite)');
    await run('npm', ['run', 'build', '-w', '@wb/web', '--silent'], { cwd: ROOT });
  }
}

async function main(): Promise<void> {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  await ensureInstalled();
  await ensureConverterPackages();
  log.step('infrastructure');
  infra = await ensureInfra(process.env);
  await ensureDatabase(infra.databaseUrl);
  await build();

  const deployables = discoverDeployables();
  const missing = deployables.filter((d) => !d.built);
  for (const d of missing) log.warn(`${d.dir}: no dist/main.js after the build — not started`);
  const toStart = deployables.filter((d) => d.built);
  if (toStart.length === 0) throw new UserFacingError('nothing to start: no deployable has dist/main.js');

  const port = await gatewayPort();
  const appUrl = `http://localhost:${port}`;
  mkdirSync(MAIL_DIR, { recursive: true });
  // one object store for the gateway (uploads in, images out), files and the converter
  const filesDir = resolve(process.env.FILES_DIR ?? join(DATA_DIR, 'files'));
  mkdirSync(filesDir, { recursive: true });
  const env: Record<string, string> = {
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    NATS_URL: infra.natsUrl,
    NATS_PREFIX: '',
    REDIS_URL: infra.redisUrl,
    DATABASE_URL: infra.databaseUrl,
    APP_URL: process.env.APP_URL ?? appUrl,
    MAIL_OUTBOX_DIR: MAIL_DIR,
    FILES_STORE: process.env.FILES_STORE ?? 'fs',
    FILES_DIR: filesDir,
  };

  // the call server before the services: the calls service and the gateway get its address and secrets
  log.step('call server (Janus, coturn)');
  const calls = await startCallServer((line) => console.log(line));
  callServer = calls.proc;
  Object.assign(env, calls.env);

  log.step(`starting ${toStart.map((d) => (d.instances > 1 ? `${d.name}×${d.instances}` : d.name)).join(', ')}`);
  const print = (line: string) => console.log(line);
  const startup = startDeployables(toStart, { env, httpPort: port, print }, running);
  // a deployable that dies, during start-up or later, takes everything down with it
  const watchers = running; // filled as they start
  const watchExit = setInterval(() => {
    if (shuttingDown) return;
    const dead = watchers.find((r) => !r.proc.alive && !r.proc.stopping);
    if (dead) {
      log.error(failureReport(dead));
      void shutdown(1, `${dead.inst.label} failed`);
    }
  }, 200);
  try {
    await startup;
  } catch (err) {
    if (shuttingDown) return;
    const dead = running.find((r) => !r.proc.alive);
    log.error(dead ? failureReport(dead) : describeError(err));
    clearInterval(watchExit);
    await shutdown(1, 'start-up failed');
  }
  if (shuttingDown) return;

  const hasGateway = toStart.some((d) => d.dir === 'gateway');
  console.log('');
  console.log(c.bold(c.green('  The platform is up.')));
  if (hasGateway) console.log(`  Open            ${c.bold(c.cyan(appUrl))}`);
  else log.warn('no gateway built yet: nothing serves HTTP');
  console.log(`  Mails go to     ${c.bold('.data/mail/')} ${c.gray('(listed here as they arrive)')}`);
  console.log(`  Infrastructure  ${c.gray(`${infra.databaseUrl}  ${infra.natsUrl}  ${infra.redisUrl}`)}`);
  console.log(`  Stop with       ${c.bold('Ctrl-C')}`);
  console.log('');
  watchMail(MAIL_DIR, (text) => console.log(text));
}

main().catch(async (err: unknown) => {
  log.error(describeError(err));
  await shutdown(1, 'error');
});
