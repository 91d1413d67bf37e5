/**
 * Health, readiness and metrics over HTTP for Kubernetes probes and Prometheus:
 *   GET /healthz  200 while the process runs
 *   GET /readyz   200 when every check passes, 503 with the failing checks otherwise (and while stopping)
 *   GET /metrics  prom-client registry (default process metrics + whatever the service registers)
 * Plain node:http on purpose: probes must keep answering even if the app's express stack is stuck,
 * and the gateway's middleware (sessions, CSRF) must not apply to them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import { createLogger } from './logger';
import type { Logger } from './logger';

export type HealthCheck = () => Promise<void>;
export interface HealthServer {
  port: number;
  /** mark not ready (first step of graceful shutdown) */
  setStopping(): void;
  close(): Promise<void>;
}

/** The process's one metrics registry: default Node metrics plus every platform/service metric. */
export const metricsRegistry: Registry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/** A counter in `registry`, reused when it exists (a test may build a service twice in one process). */
export function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
): Counter<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames, registers: [registry] });
}

export interface HealthServerOptions {
  port: number;
  service: string;
  checks: Record<string, HealthCheck>;
  /** defaults to a logger named after `service` */
  log?: Logger;
  /** per-check limit (default 2000 ms): a hung dependency counts as failing */
  checkTimeoutMs?: number;
}

async function runCheck(check: HealthCheck, timeoutMs: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    clearTimeout(timer);
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

export async function startHealthServer(opts: HealthServerOptions): Promise<HealthServer> {
  const log = (opts.log ?? createLogger({ service: opts.service })).child({ component: 'health' });
  const timeoutMs = opts.checkTimeoutMs ?? 2000;
  let stopping = false;

  const readiness = async (res: http.ServerResponse): Promise<void> => {
    if (stopping) return sendJson(res, 503, { status: 'stopping', failing: [] });
    const names = Object.keys(opts.checks);
    const results = await Promise.all(names.map((name) => runCheck(opts.checks[name], timeoutMs)));
    const failing: string[] = [];
    const errors: Record<string, string> = {};
    names.forEach((name, i) => {
      const error = results[i];
      if (error !== null) {
        failing.push(name);
        errors[name] = error;
      }
    });
    if (failing.length > 0) {
      log.warn({ failing: errors }, 'readiness check failed');
      return sendJson(res, 503, { status: 'failing', failing });
    }
    return sendJson(res, 200, { status: 'ok', checks: names });
  };

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { status: 'method not allowed' });
    const handle = async (): Promise<void> => {
      switch (path) {
        case '/healthz':
          return sendJson(res, 200, { status: 'ok', service: opts.service });
        case '/readyz':
          return readiness(res);
        case '/metrics': {
          const body = await metricsRegistry.metrics();
          res.writeHead(200, { 'content-type': metricsRegistry.contentType });
          res.end(body);
          return;
        }
        default:
          return sendJson(res, 404, { status: 'not found' });
      }
    };
    handle().catch((err: unknown) => {
      log.error({ err, path }, 'health endpoint failed');
      if (!res.headersSent) sendJson(res, 500, { status: 'error' });
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  log.info({ port }, `health server listening on port ${port}`);

  let closed: Promise<void> | undefined;
  return {
    port,
    setStopping() {
      if (!stopping) log.info('marked not ready (stopping)');
      stopping = true;
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        stopping = true;
        server.close(() => resolve());
        // Probes use keep-alive; without this close() would wait for their idle timeout.
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
