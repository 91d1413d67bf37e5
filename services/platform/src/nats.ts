/**
 * NATS: one connection per process (`connectBus`), request/reply endpoints through the official
 * services API (`createService`: subject <prefix>svc.<service>.<op>, queue group = service name),
 * typed errors carried as AppError bodies, W3C trace context and the request actor in headers.
 *
 * Wire format of a reply:
 *   success  body = JSON of the handler's result (null for undefined); headers Wb-Notice/Wb-Redirect;
 *            gzip-compressed JSON with Wb-Encoding: gzip when the request said Wb-Accept-Gzip: 1 and
 *            the handler answered a pre-compressed EncodedJson
 *   failure  services-API error headers (Nats-Service-Error-Code = HTTP status,
 *            Nats-Service-Error = message) and body = JSON ErrorBody {message, code, statusCode, fields?}
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { connect, headers as natsHeaders, nanos, RequestError, TimeoutError } from '@nats-io/transport-node';
import type { NatsConnection, MsgHdrs, Msg, PublishOptions } from '@nats-io/nats-core';
import {
  jetstream,
  jetstreamManager,
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import { Svcm, ServiceErrorCodeHeader, ServiceErrorHeader } from '@nats-io/services';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context, Span, TextMapGetter, TextMapSetter } from '@opentelemetry/api';
import { Histogram } from 'prom-client';
import type { Counter } from 'prom-client';
import type { z } from 'zod';
import {
  addZodIssues,
  AppError,
  ERROR_CATALOGUE,
  eventStreamName,
  fieldMap,
  findInputProblem,
  HEADER_ACCEPT_GZIP,
  HEADER_CONTEXT,
  HEADER_ENCODING,
  HEADER_NOTICE,
  HEADER_REDIRECT,
  serviceSubject,
} from '@wb/proto';
import type { ErrorBody, RequestActor, ServiceName } from '@wb/proto';
import type { Logger } from './logger';
import type { BaseEnv } from './env';
import { coalesceNatsWrites } from './natsWrites';
import { skipSettledRequestErrors } from './natsRequests';

const gzipAsync = promisify(gzip);
const GZIP_MIN_BYTES = 1024;
import { metricsRegistry } from './health';

export interface Bus {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  jsm(): Promise<JetStreamManager>;
  /** deployment prefix (NATS_PREFIX) */
  readonly prefix: string;
  /** stream holding domain events for this prefix (created on connect if missing: subjects <prefix>evt.>) */
  readonly eventStream: string;
  /**
   * Request an operation of a service. Sends JSON `input`, the actor and the trace context
   * (`opts.parent`, else the active one) as headers; resolves with the decoded reply and its
   * notice/redirect headers; rejects with an AppError carrying the service's code
   * (ERR_SERVICE_UNAVAILABLE when nobody answers, ERR_TIMEOUT after `timeoutMs`, default 5000).
   */
  request<T = unknown>(
    service: ServiceName,
    operation: string,
    input: unknown,
    actor: RequestActor,
    opts?: RequestOptions,
  ): Promise<ServiceReply<T>>;
  /**
   * Like `request`, but the reply's JSON is handed over as the bytes the service sent, undecoded:
   * the gateway writes them to the HTTP response as they are (no parse and re-serialise of large
   * answers such as a 5,000-board list). Errors are decoded exactly as in `request`.
   */
  requestRaw(
    service: ServiceName,
    operation: string,
    input: unknown,
    actor: RequestActor,
    opts?: RequestOptions & { acceptGzip?: boolean },
  ): Promise<ServiceReply<Uint8Array>>;
  /** drain subscriptions and close (graceful shutdown) */
  drain(): Promise<void>;
}
export interface RequestOptions {
  /** default 5000 */
  timeoutMs?: number;
  /**
   * The trace context the request belongs to. The gateway passes its request's context here
   * instead of making it active, so it never turns on AsyncLocalStorage's per-promise hooks.
   */
  parent?: Context;
}
export interface ServiceReply<T> {
  data: T;
  notice?: string;
  redirect?: string;
  /** the bytes are gzip-compressed (only for requestRaw with acceptGzip) */
  gzip?: true;
}

export interface BusOptions {
  url: string;
  prefix: string;
  /** connection name shown in NATS monitoring */
  name: string;
  log: Logger;
  /** create the event stream when missing (default true) */
  ensureStream?: boolean;
}

/** How long the event stream keeps events: consumers that were down for days can still catch up. */
const EVENT_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** JetStream de-duplicates a re-published outbox row (same Nats-Msg-Id) within this window. */
const EVENT_DUPLICATE_WINDOW_MS = 2 * 60 * 1000;
const DEFAULT_TIMEOUT_MS = 5000;

const tracer = trace.getTracer('@wb/platform');

/** W3C trace context in NATS headers (keys as the propagator writes them: traceparent/tracestate). */
const headerSetter: TextMapSetter<MsgHdrs> = {
  set(carrier, key, value) {
    carrier.set(key, value);
  },
};
const headerGetter: TextMapGetter<MsgHdrs | undefined> = {
  keys(carrier) {
    return carrier ? carrier.keys() : [];
  },
  get(carrier, key) {
    if (!carrier) return undefined;
    const value = carrier.get(key);
    return value === '' ? undefined : value;
  },
};

function injectTrace(h: MsgHdrs, ctx: Context = context.active()): void {
  propagation.inject(ctx, h, headerSetter);
}
function extractTrace(h: MsgHdrs | undefined): Context {
  // ROOT_CONTEXT, not context.active(): a subscription callback runs in whatever context the
  // socket happened to be created in; only the message's own headers say which trace it belongs to.
  return propagation.extract(ROOT_CONTEXT, h, headerGetter);
}

function header(h: MsgHdrs | undefined, key: string): string | undefined {
  const value = h?.get(key);
  return value ? value : undefined;
}

function encodeJson(value: unknown): string {
  return JSON.stringify(value === undefined ? null : value);
}

/**
 * A services-API message seen through the main nats-core types: @nats-io/services ships its own
 * nats-core copy whose (identical) types TypeScript will not mix with ours.
 */
type ServiceMsg = Msg & {
  respondError(code: number, description: string, data?: string, opts?: PublishOptions): boolean;
};

/** Loggers of buses, for helpers that only get a Bus (broadcast subscribers). */
const busLoggers = new WeakMap<Bus, Logger>();

function isStreamNotFound(err: unknown): boolean {
  return err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound;
}

async function ensureEventStream(jsm: JetStreamManager, prefix: string, log: Logger): Promise<void> {
  const name = eventStreamName(prefix);
  try {
    await jsm.streams.info(name);
    return;
  } catch (err) {
    if (!isStreamNotFound(err)) throw err;
  }
  try {
    await jsm.streams.add({
      name,
      subjects: [`${prefix}evt.>`],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      max_age: nanos(EVENT_MAX_AGE_MS),
      duplicate_window: nanos(EVENT_DUPLICATE_WINDOW_MS),
      num_replicas: 1,
    });
    log.info({ stream: name }, 'created event stream');
  } catch (err) {
    // Two processes starting together both saw "not found"; the loser only needs it to exist.
    await jsm.streams.info(name).catch(() => {
      throw err;
    });
  }
}

/** Turn a failed nc.request into the AppError the caller reports. */
function requestFailure(err: unknown): AppError {
  if (err instanceof TimeoutError) return new AppError('ERR_TIMEOUT');
  if (err instanceof RequestError && err.isNoResponders()) return new AppError('ERR_SERVICE_UNAVAILABLE');
  if (err instanceof AppError) return err;
  // Closed/draining connection, disconnect mid-request: the service is unreachable from here.
  return new AppError('ERR_SERVICE_UNAVAILABLE');
}

/** Decode an error reply: the AppError body when readable, else a code from the status header. */
function errorReply(msg: Msg): AppError {
  try {
    const body = JSON.parse(msg.string()) as Partial<ErrorBody>;
    if (body && AppError.isCode(body.code)) {
      return new AppError(body.code, typeof body.message === 'string' ? body.message : undefined, body.fields);
    }
  } catch {
    // fall through: a non-platform responder or the services API's own error reply
  }
  const status = Number(header(msg.headers, ServiceErrorCodeHeader));
  return new AppError(status === 503 ? 'ERR_SERVICE_UNAVAILABLE' : 'ERR_UNKNOWN');
}

export async function connectBus(opts: BusOptions): Promise<Bus> {
  const log = opts.log.child({ component: 'nats' });
  const nc = await connect({
    servers: opts.url,
    name: opts.name,
    // Keep trying forever: a NATS restart must not take every service down with it.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
    // nats.js otherwise builds two Error objects (stack traces) per request for debugging
    // async call sites; that is several percent of the gateway's CPU per request (the third
    // one goes in natsRequests.ts).
    noAsyncTraces: true,
  });
  coalesceNatsWrites(nc);
  skipSettledRequestErrors();
  log.info({ server: nc.getServer(), prefix: opts.prefix }, 'connected to NATS');
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'error' || s.type === 'slowConsumer' || s.type === 'staleConnection') {
        log.warn({ status: s }, `NATS ${s.type}`);
      } else if (s.type === 'reconnect') {
        log.info({ status: s }, 'NATS reconnected');
      }
    }
  })().catch((err: unknown) => log.error({ err }, 'NATS status monitor failed'));

  let jsmPromise: Promise<JetStreamManager> | undefined;
  const getJsm = (): Promise<JetStreamManager> => {
    jsmPromise ??= jetstreamManager(nc).catch((err: unknown) => {
      jsmPromise = undefined; // retry on the next call
      throw err;
    });
    return jsmPromise;
  };

  if (opts.ensureStream !== false) {
    try {
      await ensureEventStream(await getJsm(), opts.prefix, log);
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  const bus: Bus = {
    nc,
    js: jetstream(nc),
    jsm: getJsm,
    prefix: opts.prefix,
    eventStream: eventStreamName(opts.prefix),
    request<T>(
      service: ServiceName,
      operation: string,
      input: unknown,
      actor: RequestActor,
      reqOpts?: RequestOptions,
    ): Promise<ServiceReply<T>> {
      return send(
        service,
        operation,
        input,
        actor,
        reqOpts,
        (reply) => (reply.data.length === 0 ? null : reply.json()) as T,
      );
    },
    requestRaw(service, operation, input, actor, reqOpts) {
      return send(service, operation, input, actor, reqOpts, (reply) => reply.data);
    },
    async drain() {
      if (nc.isClosed() || nc.isDraining()) return nc.closed().then(() => undefined);
      await nc.drain();
      log.info('NATS connection drained');
    },
  };

  async function send<T>(
    service: ServiceName,
    operation: string,
    input: unknown,
    actor: RequestActor,
    reqOpts: (RequestOptions & { acceptGzip?: boolean }) | undefined,
    decode: (reply: Msg) => T,
  ): Promise<ServiceReply<T>> {
    const subject = serviceSubject(opts.prefix, service, operation);
    // An explicit parent, not startActiveSpan: nothing here needs the span to be active, and
    // making it active (context.with) is what switches on AsyncLocalStorage in the gateway.
    const parent = reqOpts?.parent ?? context.active();
    const span = tracer.startSpan(
      `nats request svc.${service}.${operation}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'messaging.system': 'nats',
          'messaging.destination.name': subject,
          'messaging.operation.type': 'send',
          'wb.user_id': actor.userId,
        },
      },
      parent,
    );
    try {
      const h = natsHeaders();
      injectTrace(h, trace.setSpan(parent, span));
      h.set(HEADER_CONTEXT, JSON.stringify(actor));
      if (reqOpts?.acceptGzip) h.set(HEADER_ACCEPT_GZIP, '1');
      let reply: Msg;
      try {
        reply = await nc.request(subject, encodeJson(input), {
          timeout: reqOpts?.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          headers: h,
        });
      } catch (err) {
        throw requestFailure(err);
      }
      if (header(reply.headers, ServiceErrorCodeHeader) !== undefined) throw errorReply(reply);
      const data = decode(reply);
      const notice = header(reply.headers, HEADER_NOTICE);
      const redirect = header(reply.headers, HEADER_REDIRECT);
      const gzip = reqOpts?.acceptGzip && header(reply.headers, HEADER_ENCODING) === 'gzip';
      return {
        data,
        ...(notice ? { notice } : {}),
        ...(redirect ? { redirect } : {}),
        ...(gzip ? { gzip: true as const } : {}),
      };
    } catch (err) {
      const appErr = err instanceof AppError ? err : new AppError('ERR_UNKNOWN');
      span.setAttribute('wb.error_code', appErr.code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: appErr.code });
      throw appErr;
    } finally {
      span.end();
    }
  }
  busLoggers.set(bus, log);
  return bus;
}

/** What a handler receives besides its validated input. */
export interface RequestContext {
  actor: RequestActor;
  /** child logger bound to the operation and trace */
  log: Logger;
  /** ask the gateway to show an info notice (spec §7 notice header), e.g. 'VERIFICATION_EMAIL_SENT' */
  notice(code: string): void;
  /** ask the gateway to send the browser to a path (spec §7 redirect header) */
  redirect(path: string): void;
}

export interface Endpoint<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** operation name: the last part of the subject, e.g. 'login', 'settings.get' */
  operation: string;
  input: I;
  /** reply schema; replies are checked in development/test and documented */
  output: O;
  /** may return `EncodedJson` (bytes it encoded earlier, e.g. from a cache) instead of the value */
  handler(input: z.infer<I>, ctx: RequestContext): Promise<z.infer<O> | EncodedJson>;
}
/**
 * A reply the handler has already encoded, e.g. the cached bytes of a large list: sent as it is,
 * with no JSON.stringify and no output-schema check (the value was checked when it was encoded).
 * With `gzip`, callers that accept it (the gateway, for browsers) get those bytes instead: a
 * large cached answer is compressed once, not on every request, and crosses NATS smaller.
 */
export class EncodedJson {
  constructor(
    readonly bytes: Uint8Array,
    readonly gzip?: Uint8Array,
  ) {}
  static of(value: unknown): EncodedJson {
    return new EncodedJson(Buffer.from(JSON.stringify(value === undefined ? null : value)));
  }
  /**
   * Encoded and, from 1 KiB on, gzip-compressed off the event loop (libuv's thread pool); below
   * that gzip saves nothing worth a header.
   */
  static async compressed(value: unknown): Promise<EncodedJson> {
    const bytes = Buffer.from(JSON.stringify(value === undefined ? null : value));
    return new EncodedJson(bytes, bytes.length >= GZIP_MIN_BYTES ? await gzipAsync(bytes) : undefined);
  }
}

/** Helper that keeps the input/output types of one endpoint tied together. */
export function endpoint<I extends z.ZodType, O extends z.ZodType>(e: Endpoint<I, O>): Endpoint<I, O> {
  return e;
}

/** `ep`, counting every outcome (ok or the error code) per operation in `commands` (a service's *_commands_total) */
export function countOutcomes(ep: Endpoint, commands: Counter<'operation' | 'outcome'>): Endpoint {
  const handler = ep.handler.bind(ep);
  return {
    ...ep,
    async handler(input, ctx) {
      try {
        const out = await handler(input, ctx);
        commands.inc({ operation: ep.operation, outcome: 'ok' });
        return out;
      } catch (err) {
        commands.inc({ operation: ep.operation, outcome: err instanceof AppError ? err.code : 'ERR_UNKNOWN' });
        throw err;
      }
    },
  };
}

export interface ServiceOptions {
  name: ServiceName;
  version: string;
  description: string;
  log: Logger;
  endpoints: Endpoint[];
  /** NODE_ENV: replies are checked against `output` unless 'production' (default: checked) */
  nodeEnv?: BaseEnv['NODE_ENV'];
}
export interface RunningService {
  /** stop taking requests, finish in-flight ones */
  stop(): Promise<void>;
}

const REQUEST_DURATION = 'service_request_duration_seconds';
function requestHistogram(): Histogram<'service' | 'operation' | 'code'> {
  // One metric per registry even when several services (tests) are created in one process.
  const existing = metricsRegistry.getSingleMetric(REQUEST_DURATION);
  if (existing) return existing as Histogram<'service' | 'operation' | 'code'>;
  return new Histogram({
    name: REQUEST_DURATION,
    help: 'Time to answer one NATS service request, by service, operation and result code (OK or ERR_*)',
    labelNames: ['service', 'operation', 'code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metricsRegistry],
  });
}

/** zod issues → {path: message} and a message naming the fields, e.g. "Invalid input: email, name". */
export function invalidInputError(error: z.ZodError): AppError {
  const fields = fieldMap();
  addZodIssues(error, fields);
  const names = Object.keys(fields);
  return new AppError('ERR_INVALID_INPUT', `${ERROR_CATALOGUE.ERR_INVALID_INPUT.message}: ${names.join(', ')}`, fields);
}

function parseActor(h: MsgHdrs | undefined): RequestActor {
  const raw = header(h, HEADER_CONTEXT);
  if (!raw) return { userId: 0 };
  try {
    const actor = JSON.parse(raw) as RequestActor;
    if (actor && typeof actor === 'object' && typeof actor.userId === 'number') return actor;
  } catch {
    // fall through: a malformed context is a guest, never an error that hides the real request
  }
  return { userId: 0 };
}

/**
 * Register endpoints with the NATS services API. Invalid input → ERR_INVALID_INPUT with the
 * offending fields; AppError → its code; anything else → ERR_UNKNOWN (logged with stack, never sent).
 * Every request runs in a server span that continues the caller's trace.
 */
export async function createService(bus: Bus, opts: ServiceOptions): Promise<RunningService> {
  const log = opts.log.child({ component: 'service', nats_service: opts.name });
  const checkOutput = opts.nodeEnv !== 'production';
  const histogram = requestHistogram();
  const inflight = new Set<Promise<void>>();

  // The services API types come from its own nats-core copy; the connection is the same object.
  const svc = await new Svcm(bus.nc as unknown as ConstructorParameters<typeof Svcm>[0]).add({
    name: opts.name,
    version: opts.version,
    description: opts.description,
    queue: opts.name,
  });

  async function handle(ep: Endpoint, msg: ServiceMsg): Promise<void> {
    const started = process.hrtime.bigint();
    const parent = extractTrace(msg.headers);
    const span = tracer.startSpan(
      `svc.${opts.name}.${ep.operation}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'messaging.system': 'nats',
          'messaging.destination.name': msg.subject,
          'messaging.operation.type': 'process',
        },
      },
      parent,
    );
    // Everything below (handler, its logs, its own bus.request calls) runs inside the server span.
    await context.with(trace.setSpan(parent, span), () => runHandler(ep, msg, span, started));
  }

  async function runHandler(ep: Endpoint, msg: ServiceMsg, span: Span, started: bigint): Promise<void> {
    const actor = parseActor(msg.headers);
    span.setAttribute('wb.user_id', actor.userId);
    const reqLog = opts.log.child({ operation: ep.operation, userId: actor.userId });
    let code = 'OK';
    try {
      let raw: unknown;
      try {
        raw = msg.data.length === 0 ? undefined : msg.json();
      } catch {
        throw new AppError('ERR_INVALID_INPUT', 'The request body is not valid JSON');
      }
      // the same refusals as the gateway's, for callers that are not the gateway
      const problem = findInputProblem(raw);
      if (problem) {
        throw new AppError('ERR_INVALID_INPUT', `${ERROR_CATALOGUE.ERR_INVALID_INPUT.message}: ${problem.field}`, {
          [problem.field]: problem.message,
        });
      }
      const parsed = ep.input.safeParse(raw);
      if (!parsed.success) throw invalidInputError(parsed.error);

      let notice: string | undefined;
      let redirect: string | undefined;
      const output: unknown = await ep.handler(parsed.data, {
        actor,
        log: reqLog,
        notice: (c) => {
          notice = c;
        },
        redirect: (p) => {
          redirect = p;
        },
      });
      const encoded = output instanceof EncodedJson;
      if (checkOutput && !encoded) {
        const checked = ep.output.safeParse(output);
        if (!checked.success) {
          // A contract bug: loud in dev/test logs, yet the caller still gets its answer.
          reqLog.error(
            { issues: checked.error.issues },
            `REPLY DOES NOT MATCH OUTPUT SCHEMA of svc.${opts.name}.${ep.operation}`,
          );
        }
      }
      const h = natsHeaders();
      if (notice) h.set(HEADER_NOTICE, notice);
      if (redirect) h.set(HEADER_REDIRECT, redirect);
      if (encoded && output.gzip && header(msg.headers, HEADER_ACCEPT_GZIP) === '1') {
        h.set(HEADER_ENCODING, 'gzip');
        msg.respond(output.gzip, { headers: h });
      } else {
        msg.respond(encoded ? output.bytes : encodeJson(output), { headers: h });
      }
      reqLog.debug('request handled');
    } catch (err) {
      const appErr = err instanceof AppError ? err : new AppError('ERR_UNKNOWN');
      code = appErr.code;
      if (err instanceof AppError) {
        reqLog.info({ code: appErr.code, fields: appErr.fields }, `request failed: ${appErr.code}`);
      } else {
        // The internal message and stack stay here; the caller gets the catalogue message only.
        reqLog.error({ err }, 'unhandled error in handler');
        if (err instanceof Error) span.recordException(err);
      }
      span.setAttribute('wb.error_code', appErr.code);
      if (appErr.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: appErr.code });
      // Our own headers object, so the error headers are encoded by the connection's nats-core.
      msg.respondError(appErr.statusCode, appErr.message, JSON.stringify(appErr.toBody()), { headers: natsHeaders() });
    } finally {
      span.end();
      histogram.observe(
        { service: opts.name, operation: ep.operation, code },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    }
  }

  for (const ep of opts.endpoints) {
    // Endpoint names may not contain dots ('settings.get'); the subject carries the real name.
    svc.addEndpoint(ep.operation.replace(/[^-\w]/g, '_'), {
      subject: serviceSubject(bus.prefix, opts.name, ep.operation),
      metadata: { operation: ep.operation },
      handler: (err, msg) => {
        if (err) {
          log.error({ err, operation: ep.operation }, 'endpoint subscription failed');
          return;
        }
        const p = handle(ep, msg as unknown as ServiceMsg)
          .catch((e: unknown) => log.error({ err: e, operation: ep.operation }, 'failed to answer request'))
          .finally(() => inflight.delete(p));
        inflight.add(p);
      },
    });
  }
  log.info(
    { endpoints: opts.endpoints.map((e) => e.operation), version: opts.version },
    `service ${opts.name} listening`,
  );

  svc.stopped
    .then((err) => {
      if (err) log.error({ err }, `service ${opts.name} stopped with an error`);
    })
    .catch(() => undefined);

  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        // Draining the subscriptions delivers what is already buffered, then nothing more arrives.
        await svc.stop();
        while (inflight.size > 0) await Promise.allSettled([...inflight]);
        log.info(`service ${opts.name} stopped`);
      })();
      return stopping;
    },
  };
}

/**
 * The full subject of a broadcast. Callers pass `broadcastSubject(bus.prefix, …)`; a subject
 * written without the deployment prefix gets it, so broadcasts never cross deployments.
 */
function broadcastSubjectOf(bus: Bus, subject: string): string {
  return bus.prefix && !subject.startsWith(bus.prefix) ? `${bus.prefix}${subject}` : subject;
}

/** Publish/subscribe broadcasts (core NATS, fire-and-forget) with JSON payloads. */
export function publishBroadcast(bus: Bus, subject: string, data: unknown): void {
  const h = natsHeaders();
  injectTrace(h);
  bus.nc.publish(broadcastSubjectOf(bus, subject), encodeJson(data), { headers: h });
}
export function subscribeBroadcast(
  bus: Bus,
  subject: string,
  onMessage: (data: unknown) => void,
): { unsubscribe(): void } {
  const full = broadcastSubjectOf(bus, subject);
  const log = busLoggers.get(bus);
  const sub = bus.nc.subscribe(full, {
    callback: (err, msg) => {
      if (err) {
        log?.error({ err, subject: full }, 'broadcast subscription failed');
        return;
      }
      const parent = extractTrace(msg.headers);
      const span = tracer.startSpan(
        `nats receive ${full}`,
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            'messaging.system': 'nats',
            'messaging.destination.name': full,
            'messaging.operation.type': 'receive',
          },
        },
        parent,
      );
      context.with(trace.setSpan(parent, span), () => {
        const fail = (e: unknown): void => {
          log?.error({ err: e, subject: full }, 'broadcast handler failed');
          span.setStatus({ code: SpanStatusCode.ERROR });
        };
        try {
          const data: unknown = msg.data.length === 0 ? null : msg.json();
          // A handler may be async even though the type says void; its rejection must be logged.
          const ret = onMessage(data) as unknown;
          if (ret instanceof Promise) {
            ret.catch(fail).finally(() => span.end());
            return;
          }
        } catch (e) {
          fail(e);
        }
        span.end();
      });
    },
  });
  return {
    unsubscribe() {
      sub.unsubscribe();
    },
  };
}

/** Re-exported for callers that inspect raw replies (the gateway's tests). */
export { ServiceErrorCodeHeader, ServiceErrorHeader };
