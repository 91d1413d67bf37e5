/**
 * JetStream consumer base: a durable pull consumer on the deployment's event stream filtered to
 * the event types a processor declares; explicit ack; idempotent (event id recorded in
 * <schema>.processed_events in the same transaction as the processor's work); bounded redelivery
 * (max deliveries, back-off), after which the event is logged as dead-lettered and terminated.
 *
 * Servers before 2.10 cannot filter one consumer on several subjects; there a processor with
 * several event types gets one durable per type (`<name>-<type with . → _>`), all recording
 * into processed_events under the processor's name.
 */
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AckPolicy, DeliverPolicy, JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import type { ConsumerConfig, ConsumerMessages, JetStreamManager, JsMsg } from '@nats-io/jetstream';
import { Match, nanos } from '@nats-io/nats-core';
import type { MsgHdrs } from '@nats-io/nats-core';
import { EVENT_SCHEMAS, eventSubject } from '@wb/proto';
import type { EventEnvelope, EventType } from '@wb/proto';
import type { Pool, PoolClient } from 'pg';
import { assertSchemaName, withTransaction } from './db';
import type { Bus } from './nats';
import type { Logger } from './logger';
import { contextFromCarrier } from './trace-context';

export abstract class EventProcessor {
  /** durable consumer name, unique per service+processor */
  abstract readonly name: string;
  abstract readonly eventTypes: readonly EventType[];
  readonly maxDeliveries: number = 5;
  /** do the work inside `client`'s transaction; throw to retry */
  abstract handle(event: EventEnvelope, client: PoolClient): Promise<void>;
}
export interface RunningConsumer {
  stop(): Promise<void>;
}

export interface ConsumerOptions {
  bus: Bus;
  pool: Pool;
  schema: string;
  processor: EventProcessor;
  log: Logger;
  /** delay before the first retry of a failed handler; doubles per delivery, capped at 60 s. Default 1000 */
  retryBaseMs?: number;
  /** how long the server waits for an ack before redelivering (crashed/stuck handler). Default 30 s */
  ackWaitMs?: number;
  /** processed_events rows older than this are deleted now and then; default 30 days */
  processedRetentionMs?: number;
}

const tracer = trace.getTracer('@wb/platform/consumer');
const DURABLE_NAME_RE = /^[A-Za-z0-9_-]+$/;

function serverSupportsMultiFilter(bus: Bus): boolean {
  const [major = 0, minor = 0] = (bus.nc.info?.version ?? '0.0.0').split('.').map((n) => parseInt(n, 10));
  return major > 2 || (major === 2 && minor >= 10);
}

async function ensureDurable(
  jsm: JetStreamManager,
  stream: string,
  cfg: Partial<ConsumerConfig> & { durable_name: string },
  log: Logger,
): Promise<void> {
  let exists = true;
  try {
    await jsm.consumers.info(stream, cfg.durable_name);
  } catch (err) {
    if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.ConsumerNotFound)) throw err;
    exists = false;
  }
  if (!exists) {
    try {
      await jsm.consumers.add(stream, cfg);
      return;
    } catch (err) {
      // Another replica may have created it first: then update it to our config; otherwise
      // the create itself was refused and its error is the one worth reporting.
      const raced = await jsm.consumers.info(stream, cfg.durable_name).then(
        () => true,
        () => false,
      );
      if (!raced) throw err;
      log.debug({ err, consumer: cfg.durable_name }, 'consumer create raced; updating');
    }
  }
  const { durable_name: _name, ack_policy: _ack, deliver_policy: _deliver, ...changeable } = cfg;
  await jsm.consumers.update(stream, cfg.durable_name, changeable);
}

function headerCarrier(h: MsgHdrs | undefined): { traceparent?: string; tracestate?: string } {
  if (!h) return {};
  const traceparent = h.get('traceparent', Match.IgnoreCase) || undefined;
  const tracestate = h.get('tracestate', Match.IgnoreCase) || undefined;
  return { traceparent, tracestate };
}

function parseEnvelope(m: JsMsg): EventEnvelope {
  const raw = m.json<Partial<EventEnvelope>>();
  if (!raw || typeof raw.id !== 'string' || typeof raw.type !== 'string' || typeof raw.occurredAt !== 'string') {
    throw new Error('not an event envelope');
  }
  const schema = (EVENT_SCHEMAS as Record<string, { parse(v: unknown): unknown } | undefined>)[raw.type];
  if (!schema) throw new Error(`unknown event type ${raw.type}`);
  return { id: raw.id, type: raw.type, occurredAt: raw.occurredAt, data: schema.parse(raw.data) };
}

export async function startConsumer(opts: ConsumerOptions): Promise<RunningConsumer> {
  const { bus, pool, processor } = opts;
  const schema = assertSchemaName(opts.schema);
  const name = processor.name;
  if (!DURABLE_NAME_RE.test(name)) throw new Error(`invalid processor name "${name}" (letters, digits, _ and - only)`);
  if (processor.eventTypes.length === 0) throw new Error(`processor ${name} declares no event types`);
  const maxDeliveries = Math.max(1, processor.maxDeliveries);
  const retryBaseMs = opts.retryBaseMs ?? 1000;
  const ackWaitMs = opts.ackWaitMs ?? 30_000;
  const retentionMs = opts.processedRetentionMs ?? 30 * 24 * 3600_000;
  const log = opts.log.child({ component: 'consumer', consumer: name });

  const base: Partial<ConsumerConfig> = {
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    max_deliver: maxDeliveries,
    ack_wait: nanos(ackWaitMs),
    max_ack_pending: 100,
    // No server-side `backoff`: with it, nats-server (2.9) measures a NAK's delay from the
    // back-off step instead of ack_wait, so the 2nd retry came ~30 s late. Failed handlers are
    // retried through nak(delay) with our own exponential delay; ack_wait only covers crashes.
    backoff: [],
    description: `${schema}: ${processor.eventTypes.join(', ')}`,
  };

  const subjects = processor.eventTypes.map((t) => eventSubject(bus.prefix, t));
  const durables: Array<Partial<ConsumerConfig> & { durable_name: string }> =
    subjects.length === 1
      ? [{ ...base, durable_name: name, filter_subject: subjects[0]! }]
      : serverSupportsMultiFilter(bus)
        ? [{ ...base, durable_name: name, filter_subjects: subjects }]
        : processor.eventTypes.map((t, i) => ({
            ...base,
            durable_name: `${name}-${t.replace(/\./g, '_')}`,
            filter_subject: subjects[i]!,
          }));

  const jsm = await bus.jsm();
  for (const cfg of durables) await ensureDurable(jsm, bus.eventStream, cfg, log);

  let stopping = false;

  async function processMessage(m: JsMsg): Promise<void> {
    if (stopping) {
      // Buffered but not started: hand it straight back instead of waiting for ack_wait.
      m.nak();
      return;
    }
    let event: EventEnvelope;
    try {
      event = parseEnvelope(m);
    } catch (err) {
      // Retrying cannot fix a malformed message: dead-letter it at once.
      log.error({ err, subject: m.subject, seq: m.seq }, 'malformed event dead-lettered');
      m.term(); // no reason text: nats-server < 2.10 ignores a +TERM that carries one
      return;
    }
    const parent = contextFromCarrier(headerCarrier(m.headers));
    const span = tracer.startSpan(
      `${m.subject} process`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'nats',
          'messaging.operation': 'process',
          'messaging.destination.name': m.subject,
          'messaging.message.id': event.id,
          'messaging.consumer.group.name': name,
        },
      },
      parent,
    );
    await context.with(trace.setSpan(parent, span), async () => {
      const deliveries = m.info.deliveryCount;
      // A slow handler tells the server it is still working, so ack_wait does not redeliver it.
      const heartbeat = setInterval(() => m.working(), Math.max(1000, ackWaitMs / 3));
      try {
        const processed = await withTransaction(pool, async (client) => {
          // Claim the event first: a concurrent duplicate blocks here until we commit, then skips.
          const claim = await client.query(
            `INSERT INTO "${schema}".processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
            [name, event.id],
          );
          if (claim.rowCount === 0) return false;
          await processor.handle(event, client);
          return true;
        });
        m.ack();
        if (!processed) log.debug({ eventId: event.id, eventType: event.type }, 'duplicate event skipped');
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        if (deliveries >= maxDeliveries) {
          log.error(
            { err, eventId: event.id, eventType: event.type, deliveries },
            'event dead-lettered after max deliveries',
          );
          m.term();
        } else {
          const delay = Math.min(retryBaseMs * 2 ** (deliveries - 1), 60_000);
          log.warn(
            { err, eventId: event.id, eventType: event.type, deliveries, retryInMs: delay },
            'event handling failed; will retry',
          );
          m.nak(delay);
        }
      } finally {
        clearInterval(heartbeat);
        span.end();
      }
    });
  }

  const iterators = new Set<ConsumerMessages>();
  async function run(durable: string): Promise<void> {
    while (!stopping) {
      try {
        const consumer = await bus.js.consumers.get(bus.eventStream, durable);
        const messages = await consumer.consume({ max_messages: 10 });
        iterators.add(messages);
        try {
          if (stopping) await messages.close();
          for await (const m of messages) await processMessage(m);
        } finally {
          iterators.delete(messages);
        }
      } catch (err) {
        if (stopping) return;
        log.error({ err, durable }, 'consumer loop failed; restarting');
      }
      if (!stopping) await new Promise((r) => setTimeout(r, 1000));
    }
  }
  const loops = durables.map((d) => run(d.durable_name));

  // Old idempotency records are of no use once redelivery of those events is impossible.
  const cleanup = (): void => {
    pool
      .query(
        `DELETE FROM "${schema}".processed_events WHERE consumer = $1 AND processed_at < now() - make_interval(secs => $2)`,
        [name, retentionMs / 1000],
      )
      .catch((err: unknown) => log.warn({ err }, 'processed_events cleanup failed'));
  };
  cleanup();
  const cleanupTimer = setInterval(cleanup, 6 * 3600_000);
  cleanupTimer.unref();

  return {
    async stop() {
      if (stopping) {
        await Promise.all(loops);
        return;
      }
      stopping = true;
      clearInterval(cleanupTimer);
      await Promise.all([...iterators].map((it) => it.close().catch(() => undefined)));
      await Promise.all(loops);
    },
  };
}
