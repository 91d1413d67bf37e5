/**
 * `make infra`: PostgreSQL, NATS (JetStream) and Redis — the ones that already answer are
 * used, the others started under .data/ — and the call server (Janus, coturn) when installed and
 * services/calls is built, until Ctrl-C, which stops only what this started.
 * Handy for running jest or a single service by hand.
 */
import { c, describeError, log } from './lib/log';
import { ensureDatabase, ensureInfra, type Infra } from './lib/infra';
import { startCallServer } from './lib/calls';
import type { ManagedProcess } from './lib/proc';

let infra: Infra | undefined;
let callServer: ManagedProcess | undefined;
let stopping = false;

async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await callServer?.stop();
    await infra?.stop();
  }
  process.exit(code);
}

async function main(): Promise<void> {
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  infra = await ensureInfra(process.env);
  await ensureDatabase(infra.databaseUrl);
  console.log('');
  console.log(`  export DATABASE_URL=${infra.databaseUrl}`);
  console.log(`  export NATS_URL=${infra.natsUrl}`);
  console.log(`  export REDIS_URL=${infra.redisUrl}`);
  // the call server too, when Janus is installed and services/calls is built (secrets made for this run)
  const calls = await startCallServer(() => undefined);
  callServer = calls.proc;
  if (callServer) for (const [k, v] of Object.entries(calls.env)) console.log(`  export ${k}=${v}`);
  console.log('');
  if (infra.started.length === 0 && !callServer) {
    log.ok('everything was already running; nothing to stop');
    return;
  }
  const started = [...infra.started, ...(callServer ? [callServer] : [])];
  console.log(`  ${c.bold('Ctrl-C')} stops ${started.map((p) => `${p.name} (pid ${p.pid})`).join(', ')}`);
  await new Promise(() => undefined);
}

main().catch(async (err: unknown) => {
  log.error(describeError(err));
  await stop(1);
});
