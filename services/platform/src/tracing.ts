/**
 * OpenTelemetry sdk-node setup. Import and call `startTracing` FIRST in a deployable's main
 * (before express/pg/ioredis are loaded) so auto-instrumentation can patch them. Configured by
 * the standard OTEL_* variables: OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * (OTLP/HTTP JSON), OTEL_TRACES_EXPORTER=none to disable, OTEL_SERVICE_NAME overrides the name.
 * This subpath (`@wb/platform/tracing`) must not import anything that loads instrumented modules.
 */
export interface TracingHandle {
  /** flush and stop; called by the lifecycle on shutdown */
  shutdown(): Promise<void>;
}
export function startTracing(_serviceName: string): TracingHandle {
  throw new Error('not implemented');
}
