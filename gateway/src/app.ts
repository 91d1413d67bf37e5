/**
 * The gateway's Express app, built from its dependencies so tests run it with supertest, a fake
 * bus and the real Redis. Middleware order is the design:
 *   observe (+ security headers) → derived images (object store) → static assets → own routes (health, openapi)
 *   → server-to-server callbacks (webhooks: own body parser, no session, no CSRF)
 *   → session + CSRF binding → uploads and downloads (streamed, no body parser) → JSON body
 *   → service routes → 404 (API) / SPA fallback → errors
 */
import express from 'express';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { Logger, ObjectStore } from '@wb/platform';
import type { GatewayConfig } from './config';
import { formBody, jsonBody } from './http/body';
import { apiNotFound, errorHandler } from './http/errors';
import { imageServing, originalDownload } from './http/fileServe';
import { boardPreview } from './http/boardPreview';
import { forward } from './http/forward';
import { observe } from './http/observe';
import { securityHeaders } from './http/security';
import { SessionBinder } from './http/session';
import { getState } from './http/state';
import type { GatewayBus } from './http/state';
import { LoginThrottle } from './http/throttle';
import type { ThrottleLimits } from './http/throttle';
import { uploadHandler } from './http/upload';
import { webApp } from './http/web';
import { buildOpenApi, GATEWAY_ROUTES } from './openapi';
import { serviceRoutes } from './routes';
import { fileStreamRoutes } from './routes/files';
import { toExpressPath } from './routes/paths';
import type { RouteDef } from './routes/types';
import type { SessionResolver } from './sessions';

export interface AppDeps {
  config: GatewayConfig;
  log: Logger;
  bus: GatewayBus;
  /** login throttling counters */
  redis: Redis;
  sessions: SessionResolver;
  metrics: Registry;
  /** default: every service route (routes/index.ts) */
  routes?: RouteDef[];
  /** what GET /api/health checks (main passes NATS and Redis) */
  checks?: Record<string, () => Promise<void>>;
  throttleLimits?: ThrottleLimits;
  publicUrl?: string;
  /**
   * object storage of uploads and their derived images: with it the gateway takes uploads
   * (POST /docs, /display-image), serves originals and the /docs/… and /images/… images
   */
  store?: ObjectStore;
  /** the realtime nodes' snapshot store: with it the gateway serves the boards' dashboard previews */
  previews?: ObjectStore;
  /** memory cache of small derived images, bytes (default 32 MiB; 0 = none) */
  imageCacheBytes?: number;
  /** bus timeout of upload.register / displayImage.register (default 30 s) */
  uploadRegisterTimeoutMs?: number;
}

export function createApp(deps: AppDeps): Express {
  const { config, log } = deps;
  const routes = deps.routes ?? serviceRoutes;
  const app = express();
  app.disable('x-powered-by');
  // Weak ETags hash every JSON body (sync crypto per response); API answers are no-store anyway.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);

  const binder = new SessionBinder(config, deps.sessions);
  const throttle = new LoginThrottle(
    deps.redis,
    config.redisPrefix,
    config.sessionSecret,
    log.child({ component: 'throttle' }),
    deps.throttleLimits,
  );
  const web = webApp(config.webDistDir);
  const openapi = JSON.stringify(
    buildOpenApi({
      routes: [...GATEWAY_ROUTES, ...routes, ...(deps.store ? fileStreamRoutes : [])],
      cookieName: config.cookies.session,
      serverUrl: deps.publicUrl,
    }),
  );

  // Few layers on purpose: each express layer costs on every request (observe also sets the
  // security headers and no-store for API answers).
  app.use(
    observe({
      log,
      registry: deps.metrics,
      trustTraceparent: config.trustProxy !== false,
      headers: securityHeaders(config.secureCookies, config.payments),
    }),
  );
  // content-addressed images: before the static files and sessions (no cookie, no Redis)
  if (deps.store) app.use(imageServing(deps.store, log, deps.imageCacheBytes));
  if (web.assets) app.use(web.assets);

  app.get('/api/health', async (req, res) => {
    getState(req).routeLabel = '/api/health';
    const checks: Record<string, string> = {};
    await Promise.all(
      Object.entries(deps.checks ?? {}).map(async ([name, check]) => {
        try {
          await check();
          checks[name] = 'ok';
        } catch (err) {
          checks[name] = err instanceof Error ? err.message : 'failing';
        }
      }),
    );
    const ok = Object.values(checks).every((v) => v === 'ok');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'failing', service: 'gateway', checks });
  });
  app.get('/api/openapi.json', (req, res) => {
    getState(req).routeLabel = '/api/openapi.json';
    res.type('application/json').send(openapi);
  });

  const deps2 = { config, bus: deps.bus, binder, throttle };
  const mount = (route: RouteDef, parseBody: boolean): void => {
    const handlers = [forward(route, deps2)];
    if (parseBody)
      handlers.unshift(route.bodyType === 'form' ? formBody(config.bodyLimit) : jsonBody(config.bodyLimit));
    app[route.method](toExpressPath(route.path), ...handlers);
  };
  for (const route of routes) {
    if (route.caller === 'server' && route.auth !== 'optional')
      throw new Error(`route ${route.method} ${route.path}: caller 'server' needs auth 'optional'`);
  }
  // Server-to-server callbacks (webhooks) first: no session cookie is read, no CSRF binding made.
  for (const route of routes) if (route.caller === 'server') mount(route, true);
  app.use(binder.middleware);
  if (deps.store) {
    // multipart bodies are streamed by their handlers: mounted before the JSON parser refuses them
    const uploads = {
      config,
      bus: deps.bus,
      binder,
      store: deps.store,
      log,
      registry: deps.metrics,
      registerTimeoutMs: deps.uploadRegisterTimeoutMs,
    };
    app.post('/docs', uploadHandler('doc', uploads));
    app.post('/display-image', uploadHandler('displayImage', uploads));
    app.get('/api/docs/:docId/original', originalDownload({ config, bus: deps.bus, store: deps.store, log }));
  }
  if (deps.previews)
    app.get('/api/boards/*boardId/preview.webp', boardPreview({ config, bus: deps.bus, store: deps.previews }));
  // Form-bodied browser routes take their own parser before the JSON-only one refuses them.
  for (const route of routes) if (route.caller !== 'server' && route.bodyType === 'form') mount(route, true);
  app.use(jsonBody(config.bodyLimit));
  for (const route of routes) if (route.caller !== 'server' && route.bodyType !== 'form') mount(route, false);

  app.use(['/api', '/auth'], (req, res, next) => {
    getState(req).routeLabel = '(not found)';
    apiNotFound(req, res, next);
  });
  app.use(web.fallback);
  // whatever the web app does not answer (a non-HTML GET, another method): the catalogue's 404
  app.use((req, res, next) => {
    getState(req).routeLabel ??= '(not found)';
    apiNotFound(req, res, next);
  });
  app.use(errorHandler(log));
  return app;
}
