/** Consumes billing.subscription.changed.v1: the owner's business follows their subscription (commands/subscriptionSync). */
import { EventProcessor } from '@wb/platform';
import type { Logger, PoolClient } from '@wb/platform';
import { EVENT_SCHEMAS } from '@wb/proto';
import type { EventEnvelope, EventType } from '@wb/proto';
import { applySubscription } from '../commands/subscriptionSync';
import type { SyncDeps } from '../commands/subscriptionSync';

/** "billing:42" → 42n: the producer's outbox sequence inside an event id */
export function sequenceOf(eventId: string): bigint {
  const digits = eventId.slice(eventId.lastIndexOf(':') + 1);
  if (!/^\d+$/.test(digits)) throw new Error(`event id without a sequence: ${eventId}`);
  return BigInt(digits);
}

export class SubscriptionChangedProcessor extends EventProcessor {
  readonly name = 'teams-subscription-changed';
  readonly eventTypes: readonly EventType[] = ['billing.subscription.changed.v1'];

  constructor(private readonly deps: SyncDeps & { log: Logger }) {
    super();
  }

  async handle(event: EventEnvelope, client: PoolClient): Promise<void> {
    const data = EVENT_SCHEMAS['billing.subscription.changed.v1'].parse(event.data);
    const result = await applySubscription(client, this.deps, data, sequenceOf(event.id));
    this.deps.log.info(
      { eventId: event.id, ownerId: data.userId, plan: data.plan, seats: data.seats, ...result },
      'subscription applied to the business',
    );
  }
}
