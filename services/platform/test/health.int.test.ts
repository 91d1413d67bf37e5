/** The probe/metrics server over real HTTP on a free port. */
import { Writable } from 'node:stream';
import { Counter } from 'prom-client';
import { createLogger } from '../src/logger';
import { metricsRegistry, startHealthServer } from '../src/health';
import type { HealthServer } from '../src/health';

const log = createLogger({ service: 'health-test', destination: new Writable({ write: (_c, _e, cb) => cb() }) });

describe('health server', () => {
  let server: HealthServer;
  let dbUp = true;
  let hang = false;

  beforeAll(async () => {
    server = await startHealthServer({
      port: 0,
      service: 'health-test',
      log,
      checkTimeoutMs: 200,
      checks: {
        db: async () => {
          if (!dbUp) throw new Error('connection refused');
        },
        nats: () => (hang ? new Promise<void>(() => undefined) : Promise.resolve()),
      },
    });
  });
  afterAll(() => server.close());

  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}`);
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  };

  it('listens on a free port it reports', () => {
    expect(server.port).toBeGreaterThan(0);
  });

  it('answers /healthz and a ready /readyz', async () => {
    expect((await get('/healthz')).status).toBe(200);
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toMatchObject({ status: 'ok' });
  });

  it('turns not ready while a check fails, naming it, and ready again after', async () => {
    dbUp = false;
    const res = await get('/readyz');
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text)).toEqual({ status: 'failing', failing: ['db'] });
    // the liveness probe does not depend on checks: restarting would not fix the database
    expect((await get('/healthz')).status).toBe(200);
    dbUp = true;
    expect((await get('/readyz')).status).toBe(200);
  });

  it('counts a hung check as failing after its timeout', async () => {
    hang = true;
    const started = Date.now();
    const res = await get('/readyz');
    hang = false;
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text).failing).toEqual(['nats']);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('serves Prometheus metrics from the shared registry', async () => {
    new Counter({ name: 'health_test_marker', help: 'test', registers: [metricsRegistry] }).inc();
    const res = await get('/metrics');
    expect(res.status).toBe(200);
    expect(res.type).toContain('text/plain');
    expect(res.text).toContain('process_cpu_user_seconds_total');
    expect(res.text).toContain('health_test_marker 1');
  });

  it('answers 404 elsewhere', async () => {
    expect((await get('/nope')).status).toBe(404);
  });

  it('stays not ready once stopping, even with every check passing', async () => {
    server.setStopping();
    const res = await get('/readyz');
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text).status).toBe('stopping');
    expect((await get('/healthz')).status).toBe(200);
  });
});
