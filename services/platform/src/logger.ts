/** pino JSON logger whose every line carries trace_id/span_id of the active OpenTelemetry span. */
import type { Logger } from 'pino';
export type { Logger } from 'pino';

export interface LoggerOptions {
  /** deployable name, logged as `service` */
  service: string;
  level?: string;
}
export function createLogger(_opts: LoggerOptions): Logger {
  throw new Error('not implemented');
}
