/**
 * The start-up every service with a PostgreSQL schema repeats, in one place: logger, lifecycle,
 * pool + migrations, NATS, outbox relay, consumers, queues, then the endpoints and the health
 * server, each registered with its shutdown step so SIGTERM undoes them in reverse order.
 *
 *   import { startTracing } from '@wb/platform/tracing';
 *   const tracing = startTracing('boards');           // first, before pg/ioredis load
 *   runMain('boards', async () => {
 *     const rt = await startServiceRuntime({ name: 'boards', env, tracing, schema: 'boards', migrationsDir });
 *     rt.startOutboxRelay();
 *     await rt.consume(new SomeProcessor(...));
 *     await rt.serve({ version, description, endpoints });   // last: the service is ready
 *   });
 */
import type { ServiceName } from '@wb/proto';
import { createLifecycle } from './lifecycle';
import type { Lifecycle } from './lifecycle';
import { createLogger } from './logger';
import type { Logger } from './logger';
import { createPool, migrate } from './db';
import type { Pool } from './db';
import { connectBus, createService } from './nats';
import type { Bus, Endpoint } from './nats';
import { startOutboxRelay } from './outbox';
import type { OutboxRelay } from './outbox';
import { startConsumer } from './consumer';
import type { EventProcessor, RunningConsumer } from './consumer';
import { startHealthServer } from './health';
import type { HealthCheck } from './health';
import type { QueueOptions } from './queue';
import type { BaseEnv } from './env';
import type { TracingHandle } from './tracing';

export interface ServiceRuntimeOptions {
  name: ServiceName;
  env: BaseEnv & { DATABASE_URL: string; DATABASE_POOL_SIZE: number };
  tracing: TracingHandle;
  /** the service's PostgreSQL schema */
  schema: string;
  /** absolute path of the service's migrations/ folder */
  migrationsDir: string;
}

export interface ServiceRuntime {
  log: Logger;
  lifecycle: Lifecycle;
  pool: Pool;
  bus: Bus;
  /** what createQueue/createWorker need for this deployment */
  queueOptions: QueueOptions;
  startOutboxRelay(): OutboxRelay;
  consume(processor: EventProcessor): Promise<RunningConsumer>;
  /**
   * Register the endpoints and open the health server (PostgreSQL and NATS checks plus `checks`).
   * Call it last: from here on the service takes requests and reports ready.
   */
  serve(opts: {
    version: string;
    description: string;
    endpoints: Endpoint[];
    checks?: Record<string, HealthCheck>;
  }): Promise<void>;
}

export async function startServiceRuntime(opts: ServiceRuntimeOptions): Promise<ServiceRuntime> {
  const { env, name, schema } = opts;
  const log = createLogger({ service: name, level: env.LOG_LEVEL });
  const lifecycle = createLifecycle(log);
  lifecycle.onShutdown('tracing', () => opts.tracing.shutdown());

  const pool = createPool({ url: env.DATABASE_URL, schema, poolSize: env.DATABASE_POOL_SIZE, log });
  lifecycle.onShutdown('postgres', () => pool.end());
  await migrate(pool, { schema, dir: opts.migrationsDir, log });

  const bus = await connectBus({ url: env.NATS_URL, prefix: env.NATS_PREFIX, name, log });
  lifecycle.onShutdown('nats', () => bus.drain());

  return {
    log,
    lifecycle,
    pool,
    bus,
    queueOptions: { redisUrl: env.REDIS_URL, prefix: env.REDIS_PREFIX, log },
    startOutboxRelay() {
      const relay = startOutboxRelay({ pool, schema, bus, log });
      lifecycle.onShutdown('outbox relay', () => relay.stop());
      return relay;
    },
    async consume(processor) {
      const consumer = await startConsumer({ bus, pool, schema, processor, log });
      lifecycle.onShutdown(`consumer ${processor.name}`, () => consumer.stop());
      return consumer;
    },
    async serve({ version, description, endpoints, checks }) {
      const service = await createService(bus, { name, version, description, log, endpoints, nodeEnv: env.NODE_ENV });
      lifecycle.onShutdown('service', () => service.stop());
      const health = await startHealthServer({
        port: env.HEALTH_PORT,
        service: name,
        log,
        checks: {
          postgres: async () => {
            await pool.query('SELECT 1');
          },
          nats: async () => {
            if (bus.nc.isClosed()) throw new Error('NATS connection closed');
            await bus.nc.flush();
          },
          ...checks,
        },
      });
      lifecycle.onShutdown('health server', () => health.close());
      // registered last, so it runs first: stop receiving traffic before anything closes
      lifecycle.onShutdown('mark not ready', async () => health.setStopping());
      log.info({ healthPort: health.port }, `${name} service ready`);
    },
  };
}

/** Run a deployable's main; a start-up failure (bad env, unreachable database…) exits 1 with one JSON line. */
export function runMain(service: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    // the logger may not exist yet (bad env): one JSON line on stderr
    process.stderr.write(
      `${JSON.stringify({ level: 'fatal', service, msg: 'start-up failed', err: err instanceof Error ? err.message : String(err) })}\n`,
    );
    process.exit(1);
  });
}
