/**
 * Transactional outbox. `appendEvent` inserts into <schema>.outbox inside the caller's
 * transaction; the relay publishes unpublished rows to JetStream in id order with
 * Nats-Msg-Id = outbox id (so a crash between publish and mark never duplicates an event),
 * woken by LISTEN/NOTIFY and a fallback poll, then marks them published.
 */
import type { PoolClient, Pool } from 'pg';
import type { EventType, EventData } from '@wb/proto';
import type { Bus } from './nats';
import type { Logger } from './logger';

export async function appendEvent<T extends EventType>(_client: PoolClient, _schema: string, _type: T, _data: EventData<T>): Promise<string> {
  throw new Error('not implemented');
}
export interface OutboxRelay {
  /** publish what is pending now (tests, shutdown) */
  flush(): Promise<number>;
  stop(): Promise<void>;
}
export function startOutboxRelay(_opts: { pool: Pool; schema: string; bus: Bus; log: Logger; pollMs?: number }): OutboxRelay {
  throw new Error('not implemented');
}
