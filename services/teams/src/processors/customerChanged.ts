/** Consumes billing.customer.changed.v1: the checkout's billing form becomes the business details (commands/businessDetails). */
import { EventProcessor } from '@wb/platform';
import type { Logger, PoolClient } from '@wb/platform';
import { EVENT_SCHEMAS } from '@wb/proto';
import type { EventEnvelope, EventType } from '@wb/proto';
import { applyCheckoutDetails } from '../commands/businessDetails';

export class CustomerChangedProcessor extends EventProcessor {
  readonly name = 'teams-customer-changed';
  readonly eventTypes: readonly EventType[] = ['billing.customer.changed.v1'];

  constructor(private readonly deps: { log: Logger; now(): Date }) {
    super();
  }

  async handle(event: EventEnvelope, client: PoolClient): Promise<void> {
    const data = EVENT_SCHEMAS['billing.customer.changed.v1'].parse(event.data);
    const row = await applyCheckoutDetails(client, data, this.deps.now());
    this.deps.log.info(
      { eventId: event.id, userId: data.userId, detailsId: row.id, company: row.company !== '' },
      'checkout billing form saved as business details',
    );
  }
}
