/**
 * The floor of `make bench`: the gateway's architecture with nothing of the gateway in it. A
 * node:http server asks a trivial NATS responder (a second process) on every request and answers
 * with its bytes: the same processes, hops and NATS client settings (the platform's write
 * coalescing and settled-request patch) as gateway → NATS → auth, without Express, sessions,
 * validation, tracing or logging. Its p99 at the gateway's rate is what this machine allows that
 * path at best. Prints `PORT <n>` once listening. Env: NATS_URL (default nats://127.0.0.1:4222).
 *
 *   node --import tsx scripts/bench/nats-floor-server.ts              the http front
 *   node --import tsx scripts/bench/nats-floor-server.ts responder S  the responder on subject S
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { coalesceNatsWrites, skipSettledRequestErrors } from '@wb/platform';

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const body = new TextEncoder().encode(
  JSON.stringify({ id: 1, name: 'Bench User', email: 'bench@example.com', role: null }),
);

/** a NATS connection as connectBus tunes it */
async function natsConnection(): Promise<NatsConnection> {
  const nc = await connect({ servers: natsUrl, noAsyncTraces: true });
  coalesceNatsWrites(nc);
  skipSettledRequestErrors();
  return nc;
}

async function responder(subject: string): Promise<void> {
  const nc = await natsConnection();
  nc.subscribe(subject, {
    queue: 'floor',
    callback: (_err, msg) => {
      msg.respond(body);
    },
  });
  await nc.flush();
  console.log('READY');
}

async function front(): Promise<void> {
  const subject = `bench.floor.${process.pid}`;
  const child = spawn(process.execPath, ['--import', 'tsx', __filename, 'responder', subject], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.on('exit', () => child.kill());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
  await new Promise((resolve) => child.stdout.once('data', resolve));
  const nc = await natsConnection();
  const server = http.createServer((_req, res) => {
    nc.request(subject, new Uint8Array(0), { timeout: 5000 }).then(
      (reply) => {
        res.setHeader('Content-Type', 'application/json');
        res.end(reply.data);
      },
      () => {
        res.statusCode = 503;
        res.end();
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    const addr = server.address();
    console.log(`PORT ${typeof addr === 'object' && addr ? addr.port : 0}`);
  });
}

void (process.argv[2] === 'responder' ? responder(process.argv[3] ?? 'bench.floor') : front());
