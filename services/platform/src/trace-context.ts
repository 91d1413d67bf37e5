/**
 * W3C trace-context helpers shared by the outbox, the consumer and the queues (internal; not
 * exported from the package index). They use the globally registered propagator when there is
 * one (tracing.ts registers it) and fall back to formatting/parsing `traceparent` by hand, so a
 * trace survives a hop through the database or Redis even in a process without the SDK.
 */
import {
  context,
  propagation,
  trace,
  isSpanContextValid,
  ROOT_CONTEXT,
  TraceFlags,
  type Context,
  type SpanContext,
} from '@opentelemetry/api';

export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

const TRACEPARENT_RE = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The trace context of `ctx` (default: the active one) as W3C header values; {} when none. */
export function captureTraceContext(ctx: Context = context.active()): TraceCarrier {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  const out: TraceCarrier = {};
  if (carrier.traceparent) {
    out.traceparent = carrier.traceparent;
    if (carrier.tracestate) out.tracestate = carrier.tracestate;
    return out;
  }
  // No propagator registered: format the active span context ourselves.
  const sc = trace.getSpanContext(ctx);
  if (sc && isSpanContextValid(sc)) {
    out.traceparent = `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
    const ts = sc.traceState?.serialize();
    if (ts) out.tracestate = ts;
  }
  return out;
}

/** A context whose (remote) parent is the given carrier; ROOT_CONTEXT when it holds nothing usable. */
export function contextFromCarrier(carrier: TraceCarrier | undefined | null): Context {
  if (!carrier?.traceparent) return ROOT_CONTEXT;
  const extracted = propagation.extract(ROOT_CONTEXT, { ...carrier });
  if (trace.getSpanContext(extracted)) return extracted;
  const m = TRACEPARENT_RE.exec(carrier.traceparent.trim().toLowerCase());
  if (!m) return ROOT_CONTEXT;
  const sc: SpanContext = {
    traceId: m[1]!,
    spanId: m[2]!,
    traceFlags: parseInt(m[3]!, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  return isSpanContextValid(sc) ? trace.setSpanContext(ROOT_CONTEXT, sc) : ROOT_CONTEXT;
}

/** The trace id of a context, for log lines; undefined when there is none. */
export function traceIdOf(ctx: Context): string | undefined {
  const sc = trace.getSpanContext(ctx);
  return sc && isSpanContextValid(sc) ? sc.traceId : undefined;
}
