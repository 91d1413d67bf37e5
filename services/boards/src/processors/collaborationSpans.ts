/**
 * Consumes realtime.collaboration.span.v1: the durable path of a node's span checkpoints (the
 * node also sends each one as a collaboration.checkpoint request, the fast path the lock needs).
 * Both land in the same idempotent upsert, so any order and any repetition count once.
 */
import { EventProcessor } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import { EVENT_SCHEMAS } from '@wb/proto';
import type { EventEnvelope, EventType } from '@wb/proto';
import { recordSpan } from '../commands/collaboration';

export class CollaborationSpansProcessor extends EventProcessor {
  readonly name = 'boards-collaboration-spans';
  readonly eventTypes: readonly EventType[] = ['realtime.collaboration.span.v1'];

  async handle(event: EventEnvelope, client: PoolClient): Promise<void> {
    const span = EVENT_SCHEMAS['realtime.collaboration.span.v1'].parse(event.data);
    // a span that ends before it starts is a node bug: skip it rather than block the stream
    if (new Date(span.to).getTime() < new Date(span.from).getTime()) return;
    await recordSpan(client, span);
  }
}
