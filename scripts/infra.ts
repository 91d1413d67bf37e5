/**
 * `make infra`: PostgreSQL, NATS (JetStream) and Redis only — the ones that already answer are
 * used, the others started under .data/ — until Ctrl-C, which stops only what this started.
 * Handy for running jest or a single service by hand.
 */
import { c, describeError, log } from './lib/log';
import { ensureDatabase, ensureInfra, type Infra } from './lib/infra';

let infra: Infra | undefined;
let stopping = false;

async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
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
  console.log('');
  if (infra.started.length === 0) {
    log.ok('everything was already running; nothing to stop');
    return;
  }
  console.log(`  ${c.bold('Ctrl-C')} stops ${infra.started.map((p) => `${p.name} (pid ${p.pid})`).join(', ')}`);
  await new Promise(() => undefined);
}

main().catch(async (err: unknown) => {
  log.error(describeError(err));
  await stop(1);
});
