/**
 * Realtime node bootstrap only: tracing, env, logger, PostgreSQL + migrations, Redis registry,
 * NATS (access checks, outbox relay, purge consumer), room manager, websocket server, health
 * server, and the shutdown steps in start-up order (SIGTERM hands every room over, SPEC H2).
 */
// No tuneV8() here (unlike the request/response services): a board load builds many long-lived
// objects, which pretenuring places well; measured on the 20k-stroke board, turning it off gave
// no gain and medians up to ~10 % slower (services/realtime/bench/load.ts, alternating runs).
import { startTracing } from '@wb/platform/tracing';
const tracing = startTracing('realtime');

import { join } from 'node:path';
import {
  appendEvent,
  connectBus,
  createLifecycle,
  createLogger,
  createPool,
  createRedis,
  createService,
  endpoint,
  metricsRegistry,
  migrate,
  PlanLookup,
  startConsumer,
  startHealthServer,
  startOutboxRelay,
  subscribeBroadcast,
  withTransaction,
} from '@wb/platform';
import {
  accessCheckReplySchema,
  broadcastSubject,
  realtimeOperations,
  SESSIONS_REVOKED,
  sessionsRevokedSchema,
} from '@wb/proto';
import type { AccessCheckReply, RequestActor } from '@wb/proto';
import { BoardCopier } from './commands/boardCopy';
import { OutboxSessionSink } from './commands/sessionEvents';
import { warmUpDocEngine } from './doc/automerge';
import { loadRealtimeEnv } from './env';
import { createHeartbeatMetrics, createPreviewMetrics, createRealtimeMetrics, createRenderMetrics } from './metrics';
import { RenderWorker } from './doc/renderSnapshot';
import { createChatMetrics } from './chatMetrics';
import { createLessonMetrics } from './lessonMetrics';
import { BoardsUsageSource, listenForPlanChanges } from './commands/collaborationMinutes';
import { createMinutesMetrics } from './minutesMetrics';
import { BoardPurgedProcessor } from './processors/boardPurged';
import { RoomEventsProcessor } from './processors/roomEvents';
import { SCHEMA } from './repositories/journal';
import { RoomManager } from './room/manager';
import { cachedSessionValidity, SessionGuard } from './server/sessions';
import { startWsServer } from './server/wsServer';
import { NodeRegistry } from './sharding/registry';
import { openSnapshotStore } from './storage/fromEnv';

async function main(): Promise<void> {
  const env = loadRealtimeEnv();
  const log = createLogger({ service: 'realtime', level: env.LOG_LEVEL }).child({ node: env.RT_NODE_ID });
  const lifecycle = createLifecycle(log, { stepTimeoutMs: 20_000 });
  lifecycle.onShutdown('tracing', () => tracing.shutdown());
  const clock = { now: () => Date.now() };

  const pool = createPool({ url: env.DATABASE_URL, schema: SCHEMA, poolSize: env.DATABASE_POOL_SIZE, log });
  lifecycle.onShutdown('postgres', () => pool.end());
  await migrate(pool, { schema: SCHEMA, dir: join(__dirname, '..', 'migrations'), log });

  const redis = createRedis(env.REDIS_URL, { connectionName: `${env.REDIS_PREFIX}realtime-${env.RT_NODE_ID}` });
  redis.on('error', (err) => log.warn({ err }, 'Redis connection error'));
  lifecycle.onShutdown('redis', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });

  const bus = await connectBus({ url: env.NATS_URL, prefix: env.NATS_PREFIX, name: `realtime-${env.RT_NODE_ID}`, log });
  lifecycle.onShutdown('nats', () => bus.drain());

  const relay = startOutboxRelay({ pool, schema: SCHEMA, bus, log });
  lifecycle.onShutdown('outbox relay', () => relay.stop());

  const { store, description: snapshotStore } = await openSnapshotStore(env);
  // lesson (SPEC LS3): timer and presentation need the board owner's plan
  const plans = new PlanLookup(bus, env.PLAN_CACHE_TTL_MS);
  const planChanges = plans.listenForChanges(bus);
  lifecycle.onShutdown('plan changes', async () => planChanges.unsubscribe());
  let wsPort = env.RT_PORT;
  const registry = new NodeRegistry({
    redis,
    prefix: env.REDIS_PREFIX,
    nodeId: env.RT_NODE_ID,
    // the port is known once the server listens (RT_PORT may be 0)
    url: () => env.RT_PUBLIC_URL ?? `ws://127.0.0.1:${wsPort}`,
    clock,
    leaseMs: env.RT_LEASE_MS,
    nodeTtlMs: env.RT_NODE_TTL_MS,
  });
  const sessionEvents = new OutboxSessionSink(pool, env.RT_NODE_ID, log);
  const renders = new RenderWorker(
    createRenderMetrics(metricsRegistry),
    undefined,
    createPreviewMetrics(metricsRegistry),
  );
  lifecycle.onShutdown('render worker', () => renders.close());
  const manager: RoomManager = new RoomManager({
    pool,
    store,
    registry,
    log,
    clock,
    sessions: sessionEvents,
    idleMs: env.RT_IDLE_MS,
    snapshotEveryMs: env.RT_SNAPSHOT_EVERY_MS,
    metrics: createRealtimeMetrics(metricsRegistry, { rooms: () => manager.roomCount, peers: () => manager.peerCount }),
    chatMetrics: createChatMetrics(metricsRegistry),
    plans,
    lessonMetrics: createLessonMetrics(metricsRegistry),
    // SPEC T4–T8: spans checkpointed to boards (request) and the outbox (durable)
    minutes: {
      usage: new BoardsUsageSource(bus),
      spans: sessionEvents,
      log,
      metrics: createMinutesMetrics(metricsRegistry),
    },
    renders,
    previewEveryMs: env.RT_PREVIEW_EVERY_MS,
    // boards keeps the version for the board list (the dashboard's image URL changes with it)
    previewed: async (boardId, version) => {
      await withTransaction(pool, (c) => appendEvent(c, SCHEMA, 'realtime.board.previewed.v1', { boardId, version }));
    },
  });

  // SPEC T7: an owner's plan change re-asks boards for the minutes of their open rooms
  const minutesPlanChanges = listenForPlanChanges(bus, (ownerId) =>
    manager.roomsOwnedBy(ownerId).map((room) => manager.get(room.boardId)?.minutes),
  );
  lifecycle.onShutdown('minutes plan changes', async () => minutesPlanChanges.unsubscribe());

  // before the node registers: its first board load runs on optimised wasm code
  const warmUpMs = warmUpDocEngine({ memoryMb: env.RT_DOC_MEMORY_MB });
  log.info({ ms: Math.round(warmUpMs), memoryMb: env.RT_DOC_MEMORY_MB }, 'document engine warmed up');

  const accessCheck = async (
    boardId: string,
    actor: RequestActor,
    record: boolean,
    freshPlan?: boolean,
  ): Promise<AccessCheckReply> =>
    accessCheckReplySchema.parse(
      (await bus.request('boards', 'access.check', { boardId, record, ...(freshPlan ? { freshPlan } : {}) }, actor))
        .data,
    );

  // A5: sockets of ended sessions are closed: auth's broadcast at once, a sweep as the fallback
  const sessions = new SessionGuard({
    clock,
    log,
    checkEveryMs: env.RT_SESSION_CHECK_MS,
    validity: cachedSessionValidity({
      redis,
      redisPrefix: env.REDIS_PREFIX,
      resolve: async (sessionId) =>
        (await bus.request('auth', 'session.resolve', { sessionId }, { userId: 0 }, { timeoutMs: 2000 })).data,
      clock,
    }),
  });
  const revoked = subscribeBroadcast(bus, broadcastSubject(env.NATS_PREFIX, 'auth', SESSIONS_REVOKED), (data) => {
    const parsed = sessionsRevokedSchema.safeParse(data);
    if (parsed.success) sessions.revoke(parsed.data.sessionIds);
    else log.warn('ignored malformed sessions.revoked broadcast');
  });
  lifecycle.onShutdown('session revocations', async () => {
    revoked.unsubscribe();
    sessions.stop();
  });
  sessions.start();

  const ws = await startWsServer({
    port: env.RT_PORT,
    host: env.RT_LISTEN_HOST,
    manager,
    access: { check: (boardId, actor) => accessCheck(boardId, actor, true) },
    secret: env.RT_SHARED_SECRET,
    allowedOrigins: env.RT_ALLOWED_ORIGINS,
    sessions,
    heartbeatMs: env.RT_HEARTBEAT_MS,
    heartbeatMetrics: createHeartbeatMetrics(metricsRegistry),
    clock,
    log,
  });
  wsPort = ws.port;
  await registry.heartbeat();
  const heartbeat = setInterval(
    () => void registry.heartbeat().catch((err: unknown) => log.warn({ err }, 'heartbeat failed')),
    Math.max(200, Math.floor(env.RT_NODE_TTL_MS / 3)),
  );
  manager.start();

  const purge = await startConsumer({
    bus,
    pool,
    schema: SCHEMA,
    processor: new BoardPurgedProcessor(manager, store, (deleteFiles) => {
      // after the commit: a failure leaves orphan objects (never a board without its snapshot)
      void deleteFiles().catch((err: unknown) => log.warn({ err }, 'purge: deleting snapshot objects failed'));
    }),
    log,
  });
  lifecycle.onShutdown('purge consumer', () => purge.stop());
  const roomEvents = await startConsumer({
    bus,
    pool,
    schema: SCHEMA,
    processor: new RoomEventsProcessor(
      env.RT_NODE_ID,
      manager,
      (b, a, opts) => accessCheck(b, a, false, opts?.freshPlan),
      log,
    ),
    log,
    retryBaseMs: 200,
  });
  lifecycle.onShutdown('room events consumer', () => roomEvents.stop());

  // svc.realtime.board.copy (boards' board.duplicate): any node, queue group `realtime`
  const copier = new BoardCopier(pool, store, renders);
  const service = await createService(bus, {
    name: 'realtime',
    version: '0.1.0',
    description: "Board content: copies of a board's committed content",
    log,
    nodeEnv: env.NODE_ENV,
    endpoints: [
      endpoint({
        operation: 'board.copy',
        ...realtimeOperations['board.copy'],
        handler: async ({ from, to }) => ({ bytes: await copier.copy(from, to) }),
      }),
    ],
  });
  lifecycle.onShutdown('service', () => service.stop());

  lifecycle.onShutdown('websocket server', () => ws.close());
  lifecycle.onShutdown('registry', async () => {
    clearInterval(heartbeat);
    await registry.deregister().catch(() => undefined);
  });
  // H2: persist every room, release its lease, tell its clients to reconnect (before sockets close)
  lifecycle.onShutdown('hand over rooms', () => manager.shutdown());

  const health = await startHealthServer({
    port: env.HEALTH_PORT,
    service: 'realtime',
    log,
    checks: {
      postgres: async () => {
        await pool.query('SELECT 1');
      },
      nats: async () => {
        if (bus.nc.isClosed()) throw new Error('NATS connection closed');
        await bus.nc.flush();
      },
      redis: async () => {
        await redis.ping();
      },
    },
  });
  lifecycle.onShutdown('health server', () => health.close());
  lifecycle.onShutdown('stop accepting', async () => ws.stopAccepting());
  lifecycle.onShutdown('mark not ready', async () => health.setStopping());
  log.info({ healthPort: health.port, rtPort: ws.port, nodeId: env.RT_NODE_ID, snapshotStore }, 'realtime node ready');
}

main().catch((err: unknown) => {
  process.stderr.write(
    `${JSON.stringify({ level: 'fatal', service: 'realtime', msg: 'start-up failed', err: err instanceof Error ? err.message : String(err) })}\n`,
  );
  process.exit(1);
});
