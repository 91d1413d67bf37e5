/** The test harness itself: stack of child processes with isolated infrastructure, OTLP receiver. */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { Redis } from 'ioredis';
import { connectBus } from '../src/nats';
import {
  startStack,
  startOtlpReceiver,
  DEFAULT_TEST_REDIS_URL,
  DEFAULT_TEST_NATS_URL,
  DEFAULT_TEST_POSTGRES_URL,
  findRepoRoot,
  freePort,
} from '../src/testing';
import { captureLog } from './fixtures';

const FAKE_MAIN = `
const http = require('node:http');
let ready = false;
http.createServer((req, res) => {
  if (req.url === '/readyz') return res.writeHead(ready ? 200 : 503).end();
  if (req.url === '/env') return res.end(JSON.stringify(process.env));
  res.writeHead(404).end();
}).listen(Number(process.env.HEALTH_PORT), '127.0.0.1');
if (process.env.FAKE_HTTP) http.createServer((req, res) => res.end('hello from ' + process.env.FAKE_NAME)).listen(Number(process.env.HTTP_PORT), '127.0.0.1');
setTimeout(() => { ready = true; }, 150);
console.log(JSON.stringify({ msg: 'started', name: process.env.FAKE_NAME }));
if (process.env.FAKE_CRASH) { console.error('boom: ' + process.env.FAKE_CRASH); process.exit(3); }
process.on('SIGTERM', () => { console.log('got SIGTERM'); if (!process.env.FAKE_STUBBORN) process.exit(0); });
`;

function fakeDeployable(root: string, dir: string): string {
  const abs = join(root, dir);
  mkdirSync(join(abs, 'dist'), { recursive: true });
  writeFileSync(join(abs, 'dist', 'main.js'), FAKE_MAIN);
  return abs;
}

const getJson = async (url: string): Promise<Record<string, string>> =>
  (await fetch(url)).json() as Promise<Record<string, string>>;

it('finds the repository root (package.json with workspaces)', () => {
  expect(findRepoRoot()).toBe(resolve(__dirname, '../../..'));
});

it('starts deployables with isolated infrastructure and cleans everything up', async () => {
  const root = mkdtempSync(join(tmpdir(), 'wb-stack-'));
  const svc = fakeDeployable(root, 'svc');
  const gw = fakeDeployable(root, 'gateway');
  const stack = await startStack({
    deployables: [svc, gw],
    env: { FAKE_NAME: 'any' },
    envFor: { [gw]: { FAKE_NAME: 'gw', FAKE_HTTP: '1' } },
  });
  let stopped = false;
  try {
    expect(stack.databaseUrl.startsWith(`${DEFAULT_TEST_POSTGRES_URL}/wb_test_`)).toBe(true);
    expect(stack.natsPrefix).toMatch(/^t[0-9a-f]{8}\.$/);
    expect(stack.redisPrefix).toMatch(/^wbt[0-9a-f]{8}:$/);
    expect(await (await fetch(stack.gatewayUrl)).text()).toBe('hello from gw');

    const svcEnv = await getJson(`http://127.0.0.1:${stack.envOf(svc).HEALTH_PORT}/env`);
    expect(svcEnv).toMatchObject({
      NODE_ENV: 'test',
      DATABASE_URL: stack.databaseUrl,
      NATS_URL: DEFAULT_TEST_NATS_URL,
      NATS_PREFIX: stack.natsPrefix,
      REDIS_PREFIX: stack.redisPrefix,
      OTEL_TRACES_EXPORTER: 'none',
      FAKE_NAME: 'any',
    });
    expect(svcEnv.LOG_LEVEL).toBeTruthy();
    expect(svcEnv.HEALTH_PORT).not.toBe(stack.envOf(gw).HEALTH_PORT);
    expect(stack.logs(svc)).toContain(JSON.stringify({ msg: 'started', name: 'any' }));

    // stopOne/restartOne keep the env and ports; pids follow the new process.
    const oldPid = stack.pids[gw];
    expect(await stack.stopOne(gw)).toBe(0);
    expect(stack.logs(gw)).toContain('got SIGTERM');
    await stack.restartOne(gw);
    expect(stack.pids[gw]).not.toBe(oldPid);
    expect(await (await fetch(stack.gatewayUrl)).text()).toBe('hello from gw');

    // Leave things behind in every store, as a deployable would.
    const { log } = captureLog('silent');
    const bus = await connectBus({ url: stack.env.NATS_URL!, prefix: stack.natsPrefix, name: 'harness-test', log });
    const streamName = bus.eventStream;
    await bus.drain();
    const redis = new Redis(DEFAULT_TEST_REDIS_URL);
    await redis.set(`${stack.redisPrefix}some:key`, '1');
    await redis.set(`${stack.redisPrefix}other`, '1');
    const pids = Object.values(stack.pids);

    await stack.stop();
    stopped = true;

    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    expect(await redis.keys(`${stack.redisPrefix}*`)).toEqual([]);
    await redis.quit();
    const admin = new Client({ connectionString: `${DEFAULT_TEST_POSTGRES_URL}/postgres` });
    await admin.connect();
    const db = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      new URL(stack.databaseUrl).pathname.slice(1),
    ]);
    await admin.end();
    expect(db.rowCount).toBe(0);
    const check = await connectBus({
      url: stack.env.NATS_URL!,
      prefix: stack.natsPrefix,
      name: 'harness-check',
      log,
      ensureStream: false,
    });
    await expect((await check.jsm()).streams.info(streamName)).rejects.toThrow(/stream not found/i);
    await check.drain();
  } finally {
    if (!stopped) await stack.stop();
  }
}, 40_000);

it('SIGKILLs a deployable that ignores SIGTERM and reports one that fails to start', async () => {
  const root = mkdtempSync(join(tmpdir(), 'wb-stack-'));
  const stubborn = fakeDeployable(root, 'stubborn');
  const stack = await startStack({ deployables: [stubborn], env: { FAKE_STUBBORN: '1' } });
  const t0 = Date.now();
  expect(await stack.stopOne(stubborn)).toBeNull(); // killed by a signal: no exit code
  expect(Date.now() - t0).toBeGreaterThanOrEqual(4500);
  await stack.stop();

  const crashing = fakeDeployable(root, 'crashing');
  await expect(startStack({ deployables: [crashing], env: { FAKE_CRASH: 'no database' } })).rejects.toThrow(
    /crashing exited with 3\. Output:\n[\s\S]*boom: no database/,
  );
}, 40_000);

it('hands out free ports', async () => {
  const [a, b] = await Promise.all([freePort(), freePort()]);
  expect(a).toBeGreaterThan(0);
  expect(b).toBeGreaterThan(0);
});

it('receives OTLP/HTTP JSON spans from a real exporter', async () => {
  const receiver = await startOtlpReceiver();
  try {
    const dist = resolve(__dirname, '../dist');
    const child = `
      const { startTracing } = require(${JSON.stringify(join(dist, 'tracing.js'))});
      const handle = startTracing('otlp-child', { instrumentations: false });
      const { trace, context } = require(require.resolve('@opentelemetry/api', { paths: [${JSON.stringify(dist)}] }));
      const tracer = trace.getTracer('t');
      tracer.startActiveSpan('parent', (p) => {
        const c = tracer.startSpan('child', { attributes: { 'wb.n': 7, 'wb.ok': true, 'wb.s': 'x' } });
        c.end();
        p.end();
      });
      handle.shutdown().then(() => process.exit(0));
    `;
    await new Promise<void>((res, rej) => {
      const p = spawn(process.execPath, ['-e', child], {
        env: { PATH: process.env.PATH, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
        stdio: 'inherit',
      });
      p.on('exit', (code) => (code === 0 ? res() : rej(new Error(`child exited ${code}`))));
    });
    const spans = await receiver.waitFor(
      (s) => s.some((x) => x.name === 'child') && s.some((x) => x.name === 'parent'),
      5000,
    );
    const parent = spans.find((s) => s.name === 'parent')!;
    const child2 = spans.find((s) => s.name === 'child')!;
    expect(parent).toMatchObject({
      service: 'otlp-child',
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      spanId: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(parent.parentSpanId).toBeUndefined();
    expect(child2.traceId).toBe(parent.traceId);
    expect(child2.parentSpanId).toBe(parent.spanId);
    expect(child2.attributes).toEqual({ 'wb.n': 7, 'wb.ok': true, 'wb.s': 'x' });
    await expect(receiver.waitFor((s) => s.some((x) => x.name === 'never'), 100)).rejects.toThrow(/parent/);
  } finally {
    await receiver.close();
  }
});
