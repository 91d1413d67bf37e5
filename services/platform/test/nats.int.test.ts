/**
 * Request/reply, errors, tracing and broadcasts against the real NATS server (nats://127.0.0.1:4222).
 * Everything lives under a prefix unique to this run; the stream it creates is deleted at the end.
 */
import { Writable } from 'node:stream';
import { z } from 'zod';
import { context, trace } from '@opentelemetry/api';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { AppError, broadcastSubject, ERROR_CATALOGUE, eventStreamName } from '@wb/proto';
import type { RequestActor } from '@wb/proto';
import { startTracing } from '../src/tracing';
import type { TracingHandle } from '../src/tracing';
import { createLogger } from '../src/logger';
import { connectBus, createService, EncodedJson, endpoint, publishBroadcast, subscribeBroadcast } from '../src/nats';
import type { Bus, RunningService } from '../src/nats';
import { metricsRegistry } from '../src/health';
import { DEFAULT_TEST_NATS_URL } from '../src/testing/stack';

const NATS_URL = DEFAULT_TEST_NATS_URL;
const prefix = `t${process.pid}x${Date.now()}.`;
const actor: RequestActor = { userId: 42, sessionId: 'a'.repeat(64), locale: 'en' };

const logLines: Record<string, unknown>[] = [];
const log = createLogger({
  service: 'platform-test',
  level: 'debug',
  destination: new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  }),
});

const exporter = new InMemorySpanExporter();
let tracing: TracingHandle;
let bus: Bus;
const services: RunningService[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const echo = endpoint({
  operation: 'echo',
  input: z.object({ text: z.string().min(1), times: z.number().int().min(1).default(1) }),
  output: z.object({ text: z.string(), userId: z.number(), traceId: z.string() }),
  async handler(input, ctx) {
    ctx.log.info('echoing');
    return {
      text: input.text.repeat(input.times),
      userId: ctx.actor.userId,
      traceId: trace.getActiveSpan()?.spanContext().traceId ?? '',
    };
  },
});

async function startMain(): Promise<void> {
  services.push(
    await createService(bus, {
      name: 'boards',
      version: '1.0.0',
      description: 'test service',
      log,
      nodeEnv: 'test',
      endpoints: [
        echo,
        endpoint({
          operation: 'fail.app',
          input: z.object({}),
          output: z.null(),
          async handler() {
            throw new AppError('ERR_MAX_BOARDS_REACHED', 'You have 3 boards already', { plan: 'free' });
          },
        }),
        endpoint({
          operation: 'fail.bug',
          input: z.object({}),
          output: z.null(),
          async handler() {
            throw new Error('db password is hunter2 at pg.internal:5432');
          },
        }),
        endpoint({
          operation: 'slow',
          input: z.object({ ms: z.number() }),
          output: z.object({ done: z.boolean() }),
          async handler(input) {
            await sleep(input.ms);
            return { done: true };
          },
        }),
        endpoint({
          operation: 'notify',
          input: z.object({}),
          output: z.object({ ok: z.boolean() }),
          async handler(_input, ctx) {
            ctx.notice('VERIFICATION_EMAIL_SENT');
            ctx.redirect('/app/boards');
            return { ok: true };
          },
        }),
        endpoint({
          operation: 'nested',
          input: z.object({ text: z.string() }),
          output: z.object({ outer: z.string(), inner: z.string() }),
          async handler(input, ctx) {
            // a call from inside a handler must stay in the caller's trace
            const reply = await bus.request<{ traceId: string }>('boards', 'echo', { text: input.text }, ctx.actor);
            return { outer: trace.getActiveSpan()?.spanContext().traceId ?? '', inner: reply.data.traceId };
          },
        }),
        endpoint({
          operation: 'encoded',
          input: z.object({}),
          output: z.object({ boards: z.array(z.string()) }),
          async handler() {
            return EncodedJson.of({ boards: ['a', 'b/c'] });
          },
        }),
        endpoint({
          operation: 'wrong.output',
          input: z.object({}),
          output: z.object({ count: z.number() }),
          async handler() {
            return { count: 'three' } as unknown as { count: number };
          },
        }),
      ],
    }),
  );
}

beforeAll(async () => {
  tracing = startTracing('platform-test', {
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    instrumentations: false,
  });
  bus = await connectBus({ url: NATS_URL, prefix, name: 'platform-test', log });
  await startMain();
});

afterAll(async () => {
  for (const s of services) await s.stop();
  const jsm = await bus.jsm();
  await jsm.streams.delete(eventStreamName(prefix)).catch(() => undefined);
  await bus.drain();
  await tracing.shutdown();
});

describe('connectBus', () => {
  it('creates the event stream for its prefix with the expected settings, once', async () => {
    const jsm = await bus.jsm();
    const info = await jsm.streams.info(bus.eventStream);
    expect(bus.eventStream).toBe(eventStreamName(prefix));
    expect(info.config.subjects).toEqual([`${prefix}evt.>`]);
    expect(info.config.storage).toBe('file');
    expect(info.config.retention).toBe('limits');
    expect(info.config.duplicate_window).toBe(120 * 1e9);
    expect(info.config.max_age).toBeGreaterThan(0);
    // a second process with the same prefix finds it and does not fail
    const other = await connectBus({ url: NATS_URL, prefix, name: 'platform-test-2', log });
    await other.drain();
  });
});

describe('request/reply through createService', () => {
  it('round-trips validated input (defaults applied) and the actor', async () => {
    const reply = await bus.request<{ text: string; userId: number }>(
      'boards',
      'echo',
      { text: 'ab', times: 2 },
      actor,
    );
    expect(reply.data).toMatchObject({ text: 'abab', userId: 42 });
    expect(reply.notice).toBeUndefined();
    const defaulted = await bus.request<{ text: string }>('boards', 'echo', { text: 'x' }, actor);
    expect(defaulted.data.text).toBe('x');
  });

  it('answers invalid input with ERR_INVALID_INPUT naming every bad field', async () => {
    const err = await bus.request('boards', 'echo', { text: '', times: 'two' }, actor).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    const appErr = err as AppError;
    expect(appErr.code).toBe('ERR_INVALID_INPUT');
    expect(appErr.statusCode).toBe(400);
    expect(Object.keys(appErr.fields ?? {}).sort()).toEqual(['text', 'times']);
    expect(appErr.message).toContain('text');
    expect(appErr.message).toContain('times');
  });

  it('treats a body that is not JSON as invalid input', async () => {
    const h = natsHeaders();
    h.set('Wb-Context', JSON.stringify(actor));
    const msg = await bus.nc.request(`${prefix}svc.boards.echo`, '{not json', { timeout: 2000, headers: h });
    expect(msg.headers?.get('Nats-Service-Error-Code')).toBe('400');
    expect(JSON.parse(msg.string())).toMatchObject({ code: 'ERR_INVALID_INPUT' });
  });

  it('passes an AppError code, message and fields through, in services-API error headers too', async () => {
    const err = (await bus.request('boards', 'fail.app', {}, actor).catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('ERR_MAX_BOARDS_REACHED');
    expect(err.message).toBe('You have 3 boards already');
    expect(err.fields).toEqual({ plan: 'free' });

    const raw = await bus.nc.request(`${prefix}svc.boards.fail.app`, '{}', { timeout: 2000 });
    expect(raw.headers?.get('Nats-Service-Error-Code')).toBe('403');
    expect(raw.headers?.get('Nats-Service-Error')).toBe('You have 3 boards already');
  });

  it('hides an unexpected error behind ERR_UNKNOWN and logs it with its stack', async () => {
    const err = (await bus.request('boards', 'fail.bug', {}, actor).catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('ERR_UNKNOWN');
    expect(err.message).toBe(ERROR_CATALOGUE.ERR_UNKNOWN.message);
    expect(JSON.stringify(err.toBody())).not.toContain('hunter2');
    const logged = logLines.find((l) => l.operation === 'fail.bug' && l.level === 'error');
    expect(logged).toBeDefined();
    expect(String((logged?.err as { stack: string }).stack)).toContain('hunter2');
    expect(logged?.userId).toBe(42);
  });

  it('maps nobody listening to ERR_SERVICE_UNAVAILABLE', async () => {
    const err = (await bus
      .request('billing', 'nobody.home', {}, actor, { timeoutMs: 2000 })
      .catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('ERR_SERVICE_UNAVAILABLE');
  });

  it('maps a slow answer to ERR_TIMEOUT', async () => {
    const started = Date.now();
    const err = (await bus
      .request('boards', 'slow', { ms: 600 }, actor, { timeoutMs: 150 })
      .catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('ERR_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(550);
    await sleep(500); // let the handler finish before the next test
  });

  it('sends a pre-encoded reply as it is; requestRaw hands the bytes over undecoded', async () => {
    const decoded = await bus.request('boards', 'encoded', {}, actor);
    expect(decoded.data).toEqual({ boards: ['a', 'b/c'] });
    const raw = await bus.requestRaw('boards', 'encoded', {}, actor);
    expect(Buffer.from(raw.data).toString()).toBe('{"boards":["a","b/c"]}');
    // errors are still decoded into AppErrors
    await expect(bus.requestRaw('boards', 'fail.app', {}, actor)).rejects.toMatchObject({
      code: 'ERR_MAX_BOARDS_REACHED',
    });
  });

  it('returns notice and redirect headers', async () => {
    const reply = await bus.request('boards', 'notify', {}, actor);
    expect(reply).toEqual({ data: { ok: true }, notice: 'VERIFICATION_EMAIL_SENT', redirect: '/app/boards' });
  });

  it('logs a loud error when a reply breaks its output schema, but still answers', async () => {
    const reply = await bus.request('boards', 'wrong.output', {}, actor);
    expect(reply.data).toEqual({ count: 'three' });
    expect(
      logLines.some((l) => l.level === 'error' && String(l.msg).includes('REPLY DOES NOT MATCH OUTPUT SCHEMA')),
    ).toBe(true);
  });

  it('records request durations by service, operation and code', async () => {
    await bus.request('boards', 'echo', { text: 'm' }, actor);
    const text = await metricsRegistry.getSingleMetricAsString('service_request_duration_seconds');
    expect(text).toMatch(
      /service_request_duration_seconds_count\{[^}]*service="boards",operation="echo",code="OK"\} [1-9]/,
    );
    expect(text).toMatch(/operation="fail.app",code="ERR_MAX_BOARDS_REACHED"/);
  });
});

describe('trace context', () => {
  const spansOf = (traceId: string): ReadableSpan[] =>
    exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const parentOf = (s: ReadableSpan): string | undefined => s.parentSpanContext?.spanId;

  it('continues the caller trace into the handler and through a nested request', async () => {
    const tracer = trace.getTracer('test');
    const root = tracer.startSpan('test root');
    const traceId = root.spanContext().traceId;
    const reply = await context.with(trace.setSpan(context.active(), root), () =>
      bus.request<{ outer: string; inner: string }>('boards', 'nested', { text: 't' }, actor),
    );
    root.end();

    expect(reply.data).toEqual({ outer: traceId, inner: traceId });
    const spans = spansOf(traceId);
    const byName = (n: string) => spans.filter((s) => s.name === n);
    const [outerClient] = byName('nats request svc.boards.nested');
    const [outerServer] = byName('svc.boards.nested');
    const [innerClient] = byName('nats request svc.boards.echo');
    const [innerServer] = byName('svc.boards.echo');
    expect(outerClient && outerServer && innerClient && innerServer).toBeTruthy();
    expect(parentOf(outerClient)).toBe(root.spanContext().spanId);
    expect(parentOf(outerServer)).toBe(outerClient.spanContext().spanId);
    expect(parentOf(innerClient)).toBe(outerServer.spanContext().spanId);
    expect(parentOf(innerServer)).toBe(innerClient.spanContext().spanId);
    expect(outerClient.kind).toBe(2 /* SERVER=1, CLIENT=2 */);
    expect(outerServer.kind).toBe(1);
    expect(outerServer.resource.attributes['service.name']).toBe('platform-test');
  });

  it('puts the trace id on the handler log lines', async () => {
    const root = trace.getTracer('test').startSpan('log root');
    await context.with(trace.setSpan(context.active(), root), () =>
      bus.request('boards', 'echo', { text: 'log' }, actor),
    );
    root.end();
    const line = logLines.find((l) => l.msg === 'echoing' && l.trace_id === root.spanContext().traceId);
    expect(line).toMatchObject({ operation: 'echo', userId: 42, service: 'platform-test' });
  });

  it('starts a fresh trace for a request made outside any span', async () => {
    const reply = await bus.request<{ traceId: string }>('boards', 'echo', { text: 'fresh' }, actor);
    expect(reply.data.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(reply.data.traceId).not.toBe('0'.repeat(32));
  });
});

describe('queue group and stop', () => {
  it('balances requests across two instances of one service', async () => {
    const make = (instance: string) =>
      createService(bus, {
        name: 'teams',
        version: '1.0.0',
        description: 'balance test',
        log,
        endpoints: [
          endpoint({ operation: 'who', input: z.object({}), output: z.string(), handler: async () => instance }),
        ],
      });
    const a = await make('a');
    const b = await make('b');
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, () => bus.request<string>('teams', 'who', {}, actor).then((r) => r.data)),
      );
      const counts = { a: answers.filter((x) => x === 'a').length, b: answers.filter((x) => x === 'b').length };
      expect(counts.a + counts.b).toBe(40);
      expect(counts.a).toBeGreaterThan(0);
      expect(counts.b).toBeGreaterThan(0);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('stop() waits for in-flight requests, which still get their answer', async () => {
    let finished = false;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const svc = await createService(bus, {
      name: 'files',
      version: '1.0.0',
      description: 'stop test',
      log,
      endpoints: [
        endpoint({
          operation: 'work',
          input: z.object({}),
          output: z.object({ done: z.boolean() }),
          async handler() {
            started();
            await sleep(400);
            finished = true;
            return { done: true };
          },
        }),
      ],
    });
    const pending = bus.request('files', 'work', {}, actor);
    await running;
    const stopStarted = Date.now();
    await svc.stop();
    expect(finished).toBe(true);
    expect(Date.now() - stopStarted).toBeGreaterThanOrEqual(300);
    await expect(pending).resolves.toMatchObject({ data: { done: true } });
    // nobody serves it any more
    await expect(bus.request('files', 'work', {}, actor, { timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'ERR_SERVICE_UNAVAILABLE',
    });
  });
});

describe('broadcasts', () => {
  it('delivers JSON to subscribers with the publisher trace', async () => {
    const subject = broadcastSubject(prefix, 'auth', 'sessions.revoked');
    const received: { data: unknown; traceId?: string }[] = [];
    const sub = subscribeBroadcast(bus, subject, (data) => {
      received.push({ data, traceId: trace.getActiveSpan()?.spanContext().traceId });
    });
    await bus.nc.flush(); // the subscription is known to the server before publishing
    const root = trace.getTracer('test').startSpan('broadcast root');
    context.with(trace.setSpan(context.active(), root), () => publishBroadcast(bus, subject, { sessionIds: ['x'] }));
    root.end();
    for (let i = 0; i < 50 && received.length === 0; i++) await sleep(20);
    sub.unsubscribe();
    expect(received).toEqual([{ data: { sessionIds: ['x'] }, traceId: root.spanContext().traceId }]);
  });

  it('adds the deployment prefix to a subject given without it', async () => {
    const received: unknown[] = [];
    const sub = subscribeBroadcast(bus, 'bc.auth.ping', (data) => void received.push(data));
    await bus.nc.flush();
    publishBroadcast(bus, `${prefix}bc.auth.ping`, 1);
    for (let i = 0; i < 50 && received.length === 0; i++) await sleep(20);
    sub.unsubscribe();
    expect(received).toEqual([1]);
  });
});
