/**
 * Calls service bootstrap only: tracing, env, logger, NATS, the link to Janus (janode; started in
 * the background: joins answer 503 until Janus is reachable), the rooms and their sweep, the
 * endpoints and the health server. No database: Janus holds the rooms, everything else is derived.
 */
import { startTracing } from '@wb/platform/tracing';
const tracing = startTracing('calls');

import {
  connectBus,
  createLifecycle,
  createLogger,
  createService,
  metricsRegistry,
  PlanLookup,
  runMain,
  startHealthServer,
} from '@wb/platform';
import { BoardAccessLookup, NameLookup } from './commands/lookups';
import type { CallsDeps } from './commands/deps';
import { Rooms } from './commands/rooms';
import { loadCallsEnv } from './env';
import { buildEndpoints } from './handlers';
import { JanusLink } from './janus/link';
import { createCallsMetrics } from './metrics';

const VERSION = '0.1.0';

runMain('calls', async () => {
  const env = loadCallsEnv();
  const log = createLogger({ service: 'calls', level: env.LOG_LEVEL });
  const lifecycle = createLifecycle(log);
  lifecycle.onShutdown('tracing', () => tracing.shutdown());

  const bus = await connectBus({ url: env.NATS_URL, prefix: env.NATS_PREFIX, name: 'calls', log, ensureStream: false });
  lifecycle.onShutdown('nats', () => bus.drain());

  const metrics = createCallsMetrics(metricsRegistry);
  const janus = new JanusLink({
    url: env.JANUS_WS_URL,
    apiSecret: env.JANUS_API_SECRET,
    timeoutMs: env.JANUS_REQUEST_TIMEOUT_MS,
    log: log.child({ component: 'janus' }),
    onState: (up) => metrics.janusUp.set(up ? 1 : 0),
  });
  janus.start();
  lifecycle.onShutdown('janus', () => janus.close());

  const rooms = new Rooms({
    janus,
    config: {
      roomKey: env.JANUS_API_SECRET,
      tokenSecret: env.JANUS_TOKEN_SECRET,
      adminKey: env.JANUS_ADMIN_SECRET,
      bitrate: env.CALL_BITRATE,
      idleMs: env.CALL_ROOM_IDLE_MS,
    },
    metrics,
    log: log.child({ component: 'rooms' }),
    now: Date.now,
  });
  let sweeping = false;
  const sweep = setInterval(() => {
    if (sweeping || !janus.up) return;
    sweeping = true;
    rooms
      .sweep()
      .catch((err: unknown) => log.warn({ err }, 'call room sweep failed'))
      .finally(() => {
        sweeping = false;
      });
  }, env.CALL_SWEEP_EVERY_MS);
  lifecycle.onShutdown('room sweep', async () => clearInterval(sweep));

  const plans = new PlanLookup(bus, env.PLAN_CACHE_TTL_MS);
  const planChanges = plans.listenForChanges(bus);
  lifecycle.onShutdown('plan changes', async () => planChanges.unsubscribe());

  const deps: CallsDeps = {
    env,
    log,
    plans,
    boards: new BoardAccessLookup(bus),
    names: new NameLookup(bus),
    rooms,
    metrics,
    now: Date.now,
  };
  const service = await createService(bus, {
    name: 'calls',
    version: VERSION,
    description: 'Audio/video calls: a Janus VideoRoom per board, short-lived tokens, mute-all',
    log,
    endpoints: buildEndpoints(deps),
    nodeEnv: env.NODE_ENV,
  });
  lifecycle.onShutdown('service', () => service.stop());

  // Janus is not a readiness check: while it is down the service still answers (503 with a reason)
  const health = await startHealthServer({
    port: env.HEALTH_PORT,
    service: 'calls',
    log,
    checks: {
      nats: async () => {
        if (bus.nc.isClosed()) throw new Error('NATS connection closed');
        await bus.nc.flush();
      },
    },
  });
  lifecycle.onShutdown('health server', () => health.close());
  lifecycle.onShutdown('mark not ready', async () => health.setStopping());
  log.info({ healthPort: health.port, janus: env.JANUS_WS_URL }, 'calls service ready');
});
