/**
 * First middleware: sets up the request state, opens the request's server span (the gateway
 * runs without OpenTelemetry auto-instrumentation: measured, its span per express layer halved
 * throughput; one span per request is what an on-call engineer needs), keeps its context in the
 * request state for the bus (`st.traceContext`), tags the response with the trace id, and on
 * finish logs one line (method, path without query, status, duration, trace) and observes
 * `http_request_duration_seconds{method,route,status}`.
 * Never logs cookies, tokens or bodies.
 */
import type { Request, RequestHandler } from 'express';
import { isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type { Logger } from '@wb/platform';
import { parseCookies } from './cookies';
import { setState } from './state';
import type { RequestState } from './state';
import type { HeaderList } from './security';

const METRIC = 'http_request_duration_seconds';
const tracer = trace.getTracer('@wb/gateway');

function histogramIn(registry: Registry): Histogram<'method' | 'route' | 'status'> {
  // createApp may run more than once per registry (tests): reuse the registered metric.
  const existing = registry.getSingleMetric(METRIC);
  if (existing) return existing as Histogram<'method' | 'route' | 'status'>;
  return new Histogram({
    name: METRIC,
    help: 'Gateway HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
}

function pathOf(req: Request): string {
  const q = req.originalUrl.indexOf('?');
  return q === -1 ? req.originalUrl : req.originalUrl.slice(0, q);
}

export interface ObserveOptions {
  log: Logger;
  registry: Registry;
  /** continue a caller's trace (traceparent) only behind a trusted proxy; browsers start new traces */
  trustTraceparent: boolean;
  /** headers every response carries (security headers) */
  headers?: HeaderList;
}

export function observe(opts: ObserveOptions): RequestHandler {
  const { log } = opts;
  const histogram = histogramIn(opts.registry);
  const headers = opts.headers ?? [];
  return (req, res, next) => {
    const st: RequestState = {
      start: process.hrtime.bigint(),
      cookies: parseCookies(req.headers.cookie),
      session: null,
    };
    setState(req, st);
    const path = pathOf(req);
    const parent =
      opts.trustTraceparent && req.headers.traceparent ? propagation.extract(ROOT_CONTEXT, req.headers) : ROOT_CONTEXT;
    const span = tracer.startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': path } },
      parent,
    );
    const sc = span.spanContext();
    if (isSpanContextValid(sc)) {
      st.traceId = sc.traceId;
      // Lets a user or support quote the trace of a failed request.
      res.setHeader('x-trace-id', sc.traceId);
    }
    for (const [name, value] of headers) res.setHeader(name, value);
    if (path.startsWith('/api/') || path.startsWith('/auth/')) res.setHeader('Cache-Control', 'no-store');

    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - st.start) / 1e9;
      const status = res.statusCode;
      const route = st.routeLabel ?? '(unmatched)';
      histogram.observe({ method: req.method, route, status: String(status) }, seconds);
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', status);
      if (st.session) span.setAttribute('wb.user_id', st.session.userId);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      const entry = {
        method: req.method,
        path,
        status,
        ms: Math.round(seconds * 10_000) / 10,
        ...(st.traceId ? { trace_id: st.traceId } : {}),
      };
      if (status >= 500) log.warn(entry, 'request');
      else log.info(entry, 'request');
    });

    // Handed to the bus explicitly (forward.ts), never made active: context.with() would turn on
    // AsyncLocalStorage, whose hook then runs for every promise of the process (Node 20).
    st.traceContext = trace.setSpan(parent, span);
    next();
  };
}
