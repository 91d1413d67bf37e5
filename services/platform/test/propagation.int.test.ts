/**
 * One trace from a request through the outbox, JetStream and a consumer, and through a BullMQ
 * job: with the SDK set up as deployables do (startTracing), spans are linked parent → child.
 */
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanKind, trace } from '@opentelemetry/api';
import type { EventEnvelope, EventType } from '@wb/proto';
import { startTracing } from '../src/tracing';
import type { TracingHandle } from '../src/tracing';
import { withTransaction } from '../src/db';
import type { Pool, PoolClient } from '../src/db';
import type { Bus } from '../src/nats';
import { EventProcessor, startConsumer } from '../src/consumer';
import { appendEvent, startOutboxRelay } from '../src/outbox';
import { createQueue, createWorker } from '../src/queue';
import { createTestDatabase, deleteRedisKeys, dropTestDatabase, randomId } from '../src/testing/stack';
import { captureLog, closeBus, eventually, migratedPool, testBus } from './fixtures';

const SCHEMA = 'prp';
const exporter = new InMemorySpanExporter();
let tracing: TracingHandle;
const { log } = captureLog('warn');
let url: string;
let pool: Pool;
let bus: Bus;
const redisPrefix = `wbt${randomId()}:`;

beforeAll(async () => {
  tracing = startTracing('platform-propagation', {
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    instrumentations: false,
  });
  url = await createTestDatabase();
  pool = await migratedPool(url, SCHEMA, log);
  bus = await testBus(log);
});
afterAll(async () => {
  await pool?.end();
  await closeBus(bus);
  await dropTestDatabase(url);
  await deleteRedisKeys(redisPrefix);
  await tracing?.shutdown();
});

const spanBy = (pred: (s: ReadableSpan) => boolean): ReadableSpan | undefined => exporter.getFinishedSpans().find(pred);
const parentOf = (s: ReadableSpan): string | undefined => s.parentSpanContext?.spanId;

it('continues the trace from appendEvent through the relay to the consumer', async () => {
  let seen: { traceId: string; eventId: string } | undefined;
  class Probe extends EventProcessor {
    readonly name = `probe_${randomId()}`;
    readonly eventTypes: readonly EventType[] = ['auth.user.terminated.v1'];
    async handle(event: EventEnvelope, _client: PoolClient): Promise<void> {
      seen = { traceId: trace.getActiveSpan()!.spanContext().traceId, eventId: event.id };
    }
  }
  const consumer = await startConsumer({ bus, pool, schema: SCHEMA, processor: new Probe(), log });
  const relay = startOutboxRelay({ pool, schema: SCHEMA, bus, log, pollMs: 50 });
  try {
    const eventId = await trace
      .getTracer('test')
      .startActiveSpan('request-work', { kind: SpanKind.SERVER }, async (work) => {
        try {
          return await withTransaction(pool, (c) => appendEvent(c, SCHEMA, 'auth.user.terminated.v1', { userId: 1 }));
        } finally {
          work.end();
        }
      });
    await eventually(async () => seen);
    const work = spanBy((s) => s.name === 'request-work')!;
    expect(seen).toEqual({ traceId: work.spanContext().traceId, eventId });
    const publish = await eventually(async () =>
      spanBy((s) => s.kind === SpanKind.PRODUCER && s.name.endsWith('publish')),
    );
    const process = await eventually(async () =>
      spanBy((s) => s.kind === SpanKind.CONSUMER && s.name.endsWith('process')),
    );
    expect(publish.spanContext().traceId).toBe(work.spanContext().traceId);
    expect(parentOf(publish)).toBe(work.spanContext().spanId);
    expect(parentOf(process)).toBe(publish.spanContext().spanId);
    expect(process.attributes['messaging.message.id']).toBe(eventId);
  } finally {
    await relay.stop();
    await consumer.stop();
  }
});

it('continues the trace of whoever enqueued a job in the worker', async () => {
  const name = `traced_${randomId()}`;
  const queue = createQueue<{ n: number }>(name, { redisUrl: 'redis://127.0.0.1:6379', prefix: redisPrefix, log });
  let seen: { traceId: string; data: unknown } | undefined;
  const worker = createWorker<{ n: number }>(
    name,
    async (job) => {
      seen = { traceId: trace.getActiveSpan()!.spanContext().traceId, data: job.data };
    },
    { redisUrl: 'redis://127.0.0.1:6379', prefix: redisPrefix, log },
  );
  try {
    const enqueuer = await trace.getTracer('test').startActiveSpan('enqueue', async (span) => {
      await queue.add('work', { n: 1 });
      span.end();
      return span;
    });
    await eventually(async () => seen);
    expect(seen).toEqual({ traceId: enqueuer.spanContext().traceId, data: { n: 1 } });
    const jobSpan = await eventually(async () => spanBy((s) => s.name === `job ${name}.work`));
    expect(parentOf(jobSpan)).toBe(enqueuer.spanContext().spanId);
  } finally {
    await worker.close();
    await queue.close();
  }
});
