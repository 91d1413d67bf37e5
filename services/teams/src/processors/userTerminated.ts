/** Consumes auth.user.terminated.v1: the user's business is closed, or their licence freed (commands/accountCleanup). */
import { EventProcessor } from '@wb/platform';
import type { Logger, PoolClient } from '@wb/platform';
import { EVENT_SCHEMAS } from '@wb/proto';
import type { EventEnvelope, EventType } from '@wb/proto';
import { removeTerminatedUser } from '../commands/accountCleanup';
import type { TeamsMetrics } from '../metrics';

export class UserTerminatedProcessor extends EventProcessor {
  readonly name = 'teams-user-terminated';
  readonly eventTypes: readonly EventType[] = ['auth.user.terminated.v1'];

  constructor(private readonly deps: { log: Logger; metrics: TeamsMetrics; now(): Date }) {
    super();
  }

  async handle(event: EventEnvelope, client: PoolClient): Promise<void> {
    const { userId } = EVENT_SCHEMAS['auth.user.terminated.v1'].parse(event.data);
    const outcome = await removeTerminatedUser(client, this.deps, userId);
    if (outcome !== 'nothing')
      this.deps.log.info({ userId, outcome, eventId: event.id }, 'terminated user’s team place removed');
  }
}
