import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { startTracing } from './tracing';

describe('startTracing without a collector', () => {
  it('exports nothing but still creates real spans and context', async () => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    const handle = startTracing('no-collector', { instrumentations: false });
    try {
      expect(handle.exporting).toBe(false);
      const span = trace.getTracer('test').startSpan('work');
      expect(isSpanContextValid(span.spanContext())).toBe(true);
      const seen = context.with(
        trace.setSpan(context.active(), span),
        () => trace.getActiveSpan()?.spanContext().traceId,
      );
      expect(seen).toBe(span.spanContext().traceId);
      span.end();
    } finally {
      await handle.shutdown();
    }
  });

  it('does not export when OTEL_TRACES_EXPORTER=none even with an endpoint', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:9';
    process.env.OTEL_TRACES_EXPORTER = 'none';
    const handle = startTracing('disabled', { instrumentations: false });
    try {
      expect(handle.exporting).toBe(false);
    } finally {
      await handle.shutdown();
    }
  });
});
