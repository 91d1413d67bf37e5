/**
 * Transactional outbox. `appendEvent` inserts into <schema>.outbox inside the caller's
 * transaction; the relay publishes unpublished rows to JetStream in id order with
 * Nats-Msg-Id = outbox id (so a crash between publish and mark never duplicates an event),
 * woken by LISTEN/NOTIFY and a fallback poll, then marks them published.
 *
 * Ordering. Ids come from a sequence, which hands them out at insert time, not at commit time:
 * without care a transaction holding id 5 could commit after the relay already published 6.
 * `appendEvent` therefore takes a transaction-scoped advisory lock per schema before taking an
 * id, so outbox ids are handed out in commit order and whatever the relay can see is a gap-free
 * prefix (gaps are rollbacks). Keep `appendEvent` the last statement of a transaction: the lock
 * serialises the service's event-writing transactions from that call until COMMIT.
 * Relays (one per replica) serialise on a second advisory lock, so two replicas never publish
 * concurrently — row locks with SKIP LOCKED alone would let replica B publish rows 101… while A
 * is still publishing 1…100, breaking order.
 *
 * Event ids. All services publish to the one event stream, whose de-duplication window is keyed
 * on Nats-Msg-Id, and consumers de-duplicate on the event id: a bare per-schema sequence number
 * would collide between services. The event id is therefore `<schema>:<outbox id>` (e.g. "auth:42").
 */
import { headers as natsHeaders, Match } from '@nats-io/nats-core';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { EVENT_SCHEMAS, eventSubject } from '@wb/proto';
import type { EventEnvelope, EventType, EventData } from '@wb/proto';
import { listenToChannel } from './listen';
import type { PoolClient, Pool } from 'pg';
import { assertSchemaName } from './db';
import type { Bus } from './nats';
import type { Logger } from './logger';
import { captureTraceContext, contextFromCarrier } from './trace-context';

/** First key of the two-int advisory locks ("wbox" for appends, "wbrl" for relays). */
const APPEND_LOCK_CLASS = 0x77626f78;
const RELAY_LOCK_CLASS = 0x7762726c;

const tracer = trace.getTracer('@wb/platform/outbox');

/** The global event id of an outbox row. */
export function outboxEventId(schema: string, outboxId: string | number | bigint): string {
  return `${schema}:${outboxId}`;
}

/** The NOTIFY channel the relay of `schema` listens on. */
export function outboxChannel(schema: string): string {
  return `${schema}_outbox`;
}

/**
 * Record an event in the caller's transaction (validated against its proto schema, with the
 * active trace context); returns the event id (`<schema>:<outbox id>`, also the Nats-Msg-Id).
 */
export async function appendEvent<T extends EventType>(
  client: PoolClient,
  schema: string,
  type: T,
  data: EventData<T>,
): Promise<string> {
  assertSchemaName(schema);
  const eventSchema = EVENT_SCHEMAS[type];
  if (!eventSchema) throw new Error(`unknown event type "${String(type)}"`);
  // Invalid payloads are a programming error: fail the caller's transaction, never publish them.
  const parsed = eventSchema.parse(data);
  const carrier = captureTraceContext();
  // The lock in FROM is taken before nextval() runs for the inserted row (see the header comment).
  const { rows } = await client.query<{ id: string }>(
    `WITH ins AS (
       INSERT INTO "${schema}".outbox (type, data, traceparent, tracestate)
       SELECT $1, $2::jsonb, $3, $4 FROM (SELECT pg_advisory_xact_lock($5, hashtext($6))) AS serialise
       RETURNING id
     )
     SELECT ins.id::text AS id, pg_notify($7, '') FROM ins`,
    [
      type,
      JSON.stringify(parsed),
      carrier.traceparent ?? null,
      carrier.tracestate ?? null,
      APPEND_LOCK_CLASS,
      schema,
      outboxChannel(schema),
    ],
  );
  return outboxEventId(schema, rows[0]!.id);
}

export interface OutboxRelay {
  /** publish what is pending now (tests, shutdown) */
  flush(): Promise<number>;
  stop(): Promise<void>;
}

export interface OutboxRelayOptions {
  pool: Pool;
  schema: string;
  bus: Bus;
  log: Logger;
  /** fallback poll interval (and retry interval after a failed publish); default 1000 */
  pollMs?: number;
  /** rows per transaction; default 100 */
  batchSize?: number;
  /** how long published rows are kept before being deleted; default 1 day */
  retainPublishedMs?: number;
  /** how often published rows are cleaned up; default 1 hour */
  cleanupEveryMs?: number;
}

interface OutboxRow {
  id: string;
  type: string;
  data: unknown;
  traceparent: string | null;
  tracestate: string | null;
  occurred_at: Date;
}

export function startOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const schema = assertSchemaName(opts.schema);
  const { pool, bus } = opts;
  const log = opts.log.child({ component: 'outbox-relay', schema, relay: Math.random().toString(36).slice(2, 8) });
  const pollMs = opts.pollMs ?? 1000;
  const batchSize = opts.batchSize ?? 100;
  const retainMs = opts.retainPublishedMs ?? 24 * 3600_000;
  const cleanupEveryMs = opts.cleanupEveryMs ?? 3600_000;

  let stopped = false;
  /** serialises drains inside this process */
  let chain: Promise<unknown> = Promise.resolve();
  /** a drain that is queued but has not started yet (callers join it instead of queueing more) */
  let queued: Promise<number> | null = null;
  let failing = false;
  let lastCleanup = 0;

  async function publishRow(row: OutboxRow): Promise<void> {
    const id = outboxEventId(schema, row.id);
    const subject = eventSubject(bus.prefix, row.type);
    const envelope: EventEnvelope = { id, type: row.type, occurredAt: row.occurred_at.toISOString(), data: row.data };
    const parent = contextFromCarrier({
      traceparent: row.traceparent ?? undefined,
      tracestate: row.tracestate ?? undefined,
    });
    const span = tracer.startSpan(
      `${subject} publish`,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          'messaging.system': 'nats',
          'messaging.operation': 'publish',
          'messaging.destination.name': subject,
          'messaging.message.id': id,
        },
      },
      parent,
    );
    try {
      const h = natsHeaders();
      const carrier = captureTraceContext(trace.setSpan(parent, span));
      const traceparent = carrier.traceparent ?? row.traceparent;
      const tracestate = carrier.traceparent ? carrier.tracestate : row.tracestate;
      if (traceparent) h.set('traceparent', traceparent, Match.Exact);
      if (tracestate) h.set('tracestate', tracestate, Match.Exact);
      const ack = await bus.js.publish(subject, JSON.stringify(envelope), { msgID: id, headers: h });
      if (ack.duplicate) log.debug({ eventId: id }, 'event was already in the stream (re-publish after a crash)');
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  }

  /** One transaction: take the relay lock, publish up to batchSize pending rows in id order, mark them. */
  async function batch(): Promise<{ published: number; more: boolean }> {
    // Idle polls cost one index-only query instead of a locked transaction. A row committed
    // right after this check sends a NOTIFY, which queues the next drain.
    const pending = await pool.query<{ any: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM "${schema}".outbox WHERE published_at IS NULL) AS any`,
    );
    if (!pending.rows[0]?.any) return { published: 0, more: false };

    const client = await pool.connect();
    let broken: Error | undefined;
    const published: string[] = [];
    let failure: Error | undefined;
    let more: boolean;
    try {
      await client.query('BEGIN');
      // Bounded wait for another replica's batch; on timeout this batch just retries later.
      await client.query(`SET LOCAL lock_timeout = '10s'`);
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [RELAY_LOCK_CLASS, schema]);
      const { rows } = await client.query<OutboxRow>(
        // ORDER BY the column, not the text alias (which would sort "100" before "99").
        `SELECT o.id::text AS id, o.type, o.data, o.traceparent, o.tracestate, o.occurred_at
           FROM "${schema}".outbox o
          WHERE o.published_at IS NULL
          ORDER BY o.id
          LIMIT $1
          FOR UPDATE`,
        [batchSize],
      );
      more = rows.length === batchSize;
      for (const row of rows) {
        try {
          await publishRow(row);
          published.push(row.id);
        } catch (err) {
          // Stop at the first failure so later events are never published before this one.
          failure = err instanceof Error ? err : new Error(String(err));
          break;
        }
      }
      if (published.length) {
        await client.query(`UPDATE "${schema}".outbox SET published_at = now() WHERE id = ANY($1::bigint[])`, [
          published,
        ]);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackErr: Error) => {
        broken = rollbackErr;
      });
      throw err;
    } finally {
      client.release(broken);
    }
    if (published.length) {
      const [first, last] = [published[0], published[published.length - 1]];
      log.debug({ first, last, count: published.length }, 'outbox batch published');
    }
    if (failure) throw failure;
    return { published: published.length, more };
  }

  /** Publish batches until nothing is pending (or the relay stops). */
  async function drain(): Promise<number> {
    let total = 0;
    while (!stopped) {
      const r = await batch();
      total += r.published;
      if (!r.more) break;
    }
    return total;
  }

  function schedule(): Promise<number> {
    if (queued) return queued;
    const p = chain.then(() => {
      queued = null;
      return stopped ? 0 : drain();
    });
    queued = p;
    chain = p.catch(() => undefined);
    return p;
  }

  /** Background wake-up (NOTIFY, poll): errors are logged, the next poll retries. */
  function kick(): void {
    if (stopped) return;
    schedule().then(
      (n) => {
        if (failing) log.info({ published: n }, 'outbox publishing recovered');
        failing = false;
      },
      (err: unknown) => {
        // First failure at error level, repeats (one per poll while NATS is away) at debug.
        if (!failing) log.error({ err }, 'outbox publish failed; retrying every poll');
        else log.debug({ err }, 'outbox publish still failing');
        failing = true;
      },
    );
    if (Date.now() - lastCleanup >= cleanupEveryMs) {
      lastCleanup = Date.now();
      pool
        .query(
          `DELETE FROM "${schema}".outbox WHERE published_at IS NOT NULL AND published_at < now() - make_interval(secs => $1)`,
          [retainMs / 1000],
        )
        .then((r) => r.rowCount && log.debug({ deleted: r.rowCount }, 'old published outbox rows deleted'))
        .catch((err: unknown) => log.warn({ err }, 'outbox cleanup failed'));
    }
  }

  const poll = setInterval(kick, pollMs);
  poll.unref();
  const listener = listenToChannel({
    pool,
    channel: outboxChannel(schema),
    log,
    onNotify: () => kick(),
    // Anything committed before LISTEN took effect is only found by a drain.
    onListening: (listening) => listening && kick(),
    retryMs: pollMs,
  });

  return {
    flush: () => schedule(),
    async stop() {
      if (stopped) {
        await chain;
        return;
      }
      stopped = true;
      clearInterval(poll);
      await listener.stop();
      await chain;
    },
  };
}
