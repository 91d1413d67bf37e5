/**
 * Graceful shutdown: on SIGTERM/SIGINT run the registered steps in reverse order of registration
 * (so: mark not ready → stop taking requests → finish in-flight work → drain NATS → close pools),
 * each bounded by a timeout, then exit 0 (1 if a step failed).
 */
import type { Logger } from './logger';
export interface Lifecycle {
  onShutdown(name: string, step: () => Promise<void>): void;
  shutdown(reason: string): Promise<void>;
}
export function createLifecycle(_log: Logger, _opts?: { stepTimeoutMs?: number }): Lifecycle {
  throw new Error('not implemented');
}
