/** pino JSON logger whose every line carries trace_id/span_id of the active OpenTelemetry span. */
import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { isSpanContextValid, trace } from '@opentelemetry/api';
export type { Logger } from 'pino';

export interface LoggerOptions {
  /** deployable name, logged as `service` */
  service: string;
  level?: string;
  /** where lines go (default stdout); tests pass a stream to read them back */
  destination?: DestinationStream;
}

/**
 * Secrets that must never reach a log line even if someone logs a whole request or input.
 * Paths are pino redact paths (one level of nesting covers `input.password`, `req.headers.cookie`).
 */
const REDACT_PATHS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.token',
  'req.headers.cookie',
  'req.headers.authorization',
  'headers.cookie',
  'headers.authorization',
];

export function createLogger(opts: LoggerOptions): Logger {
  return pino(
    {
      level: opts.level ?? 'info',
      base: { service: opts.service, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Labels ("info") instead of numbers: log readers and on-call humans grep for words.
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      // Read at every line so logs inside a request carry the trace the request belongs to.
      mixin() {
        const span = trace.getActiveSpan();
        if (!span) return {};
        const sc = span.spanContext();
        if (!isSpanContextValid(sc)) return {};
        return { trace_id: sc.traceId, span_id: sc.spanId };
      },
    },
    opts.destination,
  );
}
