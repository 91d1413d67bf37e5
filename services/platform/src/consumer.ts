/**
 * JetStream consumer base: a durable pull consumer on the deployment's event stream filtered to
 * the event types a processor declares; explicit ack; idempotent (event id recorded in
 * <schema>.processed_events in the same transaction as the processor's work); bounded redelivery
 * (max deliveries, back-off), after which the event is logged as dead-lettered and terminated.
 */
import type { Pool, PoolClient } from 'pg';
import type { EventEnvelope, EventType } from '@wb/proto';
import type { Bus } from './nats';
import type { Logger } from './logger';

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
export async function startConsumer(_opts: { bus: Bus; pool: Pool; schema: string; processor: EventProcessor; log: Logger }): Promise<RunningConsumer> {
  throw new Error('not implemented');
}
