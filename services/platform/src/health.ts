/**
 * Health, readiness and metrics over HTTP for Kubernetes probes and Prometheus:
 *   GET /healthz  200 while the process runs
 *   GET /readyz   200 when every check passes, 503 with the failing checks otherwise (and while stopping)
 *   GET /metrics  prom-client registry (default process metrics + whatever the service registers)
 */
import type { Registry } from 'prom-client';
export type HealthCheck = () => Promise<void>;
export interface HealthServer {
  port: number;
  /** mark not ready (first step of graceful shutdown) */
  setStopping(): void;
  close(): Promise<void>;
}
export const metricsRegistry: Registry = undefined as unknown as Registry;
export async function startHealthServer(_opts: { port: number; service: string; checks: Record<string, HealthCheck> }): Promise<HealthServer> {
  throw new Error('not implemented');
}
