/**
 * OpenTelemetry sdk-node setup. Import and call `startTracing` FIRST in a deployable's main
 * (before express/pg/ioredis are loaded) so auto-instrumentation can patch them. Configured by
 * the standard OTEL_* variables: OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * (OTLP/HTTP JSON), OTEL_TRACES_EXPORTER=none to disable, OTEL_SERVICE_NAME overrides the name.
 * This subpath (`@wb/platform/tracing`) must not import anything that loads instrumented modules.
 */
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import {
  getNumberFromEnv,
  getStringFromEnv,
  getStringListFromEnv,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';

export interface TracingHandle {
  /** flush and stop; called by the lifecycle on shutdown */
  shutdown(): Promise<void>;
  /** whether spans leave the process (an OTLP endpoint is configured) */
  readonly exporting: boolean;
}

export interface TracingOptions {
  /** extra processors (tests: an in-memory exporter); added to the OTLP one when configured */
  spanProcessors?: SpanProcessor[];
  /** auto-instrument http/express/pg/ioredis (default true) */
  instrumentations?: boolean;
}

/**
 * Keeps a tracer provider registered when nothing is exported: spans and context still exist,
 * so trace ids reach the logs and the NATS headers even without a collector.
 */
class NoopSpanProcessor implements SpanProcessor {
  onStart(_span: Span): void {}
  onEnd(_span: ReadableSpan): void {}
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

/** Probes and scrapes would otherwise be most of the traces. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The SDK's own reading of OTEL_*: export only when an endpoint is set and not switched off. */
function otlpConfigured(): boolean {
  const exporters = getStringListFromEnv('OTEL_TRACES_EXPORTER') ?? [];
  if (exporters.includes('none')) return false;
  return Boolean(
    getStringFromEnv('OTEL_EXPORTER_OTLP_ENDPOINT') || getStringFromEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'),
  );
}

let current: TracingHandle | undefined;

export function startTracing(serviceName: string, opts: TracingOptions = {}): TracingHandle {
  // A second call (tests, a library calling it again) must not register a second provider.
  if (current) return current;

  const exporting = otlpConfigured();
  const processors: SpanProcessor[] = [];
  if (exporting) {
    // The exporter reads endpoint, headers and timeout from OTEL_EXPORTER_OTLP_* itself.
    processors.push(
      new BatchSpanProcessor(new OTLPTraceExporter(), {
        // Short delay so tests (and humans tailing a collector) see spans quickly.
        scheduledDelayMillis: getNumberFromEnv('OTEL_BSP_SCHEDULE_DELAY') ?? 200,
      }),
    );
  }
  processors.push(...(opts.spanProcessors ?? []));
  if (processors.length === 0) processors.push(new NoopSpanProcessor());

  const config: Partial<NodeSDKConfiguration> = {
    // OTEL_SERVICE_NAME (read by the env resource detector) wins over the built-in name.
    ...(getStringFromEnv('OTEL_SERVICE_NAME') ? {} : { serviceName }),
    spanProcessors: processors as NodeSDKConfiguration['spanProcessors'],
    textMapPropagator: new W3CTraceContextPropagator(),
    // Metrics go to Prometheus (/metrics) and logs to stdout: keep the SDK from starting its
    // default OTLP metric/log exporters, which would try localhost:4318.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations:
      opts.instrumentations === false
        ? []
        : [
            new HttpInstrumentation({
              ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]),
            }),
            new ExpressInstrumentation(),
            new PgInstrumentation(),
            new IORedisInstrumentation(),
          ],
  };
  const sdk = new NodeSDK(config);
  sdk.start();

  let stopped: Promise<void> | undefined;
  const handle: TracingHandle = {
    exporting,
    shutdown() {
      // NodeSDK.shutdown flushes every processor (pending batches go out) before resolving.
      stopped ??= sdk.shutdown().finally(() => {
        if (current === handle) current = undefined;
      });
      return stopped;
    },
  };
  current = handle;
  return handle;
}
