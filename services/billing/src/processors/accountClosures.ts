/**
 * Billing's event consumers: a terminated account (auth) and a closed business (teams) end their
 * subscriptions at the provider (commands/accountClosures). The request is committed before the
 * provider is called; when the provider's answer is unknown the handler throws, so the event is
 * delivered again (with back-off), and the maintenance job keeps trying after that.
 */
import { EventProcessor } from '@wb/platform';
import { EVENT_SCHEMAS } from '@wb/proto';
import type { EventEnvelope, EventType } from '@wb/proto';
import { AppError } from '@wb/proto';
import { cancelForClosedBusiness, cancelForTerminatedUser } from '../commands/accountClosures';
import type { EnforceResult } from '../commands/accountClosures';
import type { BillingDeps } from '../commands/deps';

function retryIfUnfinished(result: EnforceResult): void {
  if (result.failed > 0) {
    throw new AppError('ERR_BRAINTREE', `${result.failed} subscription(s) not confirmed cancelled by the provider`);
  }
}

export class UserTerminatedProcessor extends EventProcessor {
  readonly name = 'billing-user-terminated';
  readonly eventTypes: readonly EventType[] = ['auth.user.terminated.v1'];

  constructor(private readonly deps: BillingDeps) {
    super();
  }

  async handle(event: EventEnvelope): Promise<void> {
    const { userId } = EVENT_SCHEMAS['auth.user.terminated.v1'].parse(event.data);
    const result = await cancelForTerminatedUser(this.deps, userId);
    if (result.cancelled)
      this.deps.log.info({ userId, eventId: event.id, ...result }, 'terminated account: billing stopped');
    retryIfUnfinished(result);
  }
}

export class BusinessClosedProcessor extends EventProcessor {
  readonly name = 'billing-business-closed';
  readonly eventTypes: readonly EventType[] = ['teams.business.closed.v1'];

  constructor(private readonly deps: BillingDeps) {
    super();
  }

  async handle(event: EventEnvelope): Promise<void> {
    const data = EVENT_SCHEMAS['teams.business.closed.v1'].parse(event.data);
    const result = await cancelForClosedBusiness(this.deps, data);
    if (result.cancelled) {
      this.deps.log.info({ ...data, eventId: event.id, ...result }, 'closed business: its subscription cancelled');
    }
    retryIfUnfinished(result);
  }
}
