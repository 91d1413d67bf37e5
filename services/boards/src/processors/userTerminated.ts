/** Consumes auth.user.terminated.v1: the user's boards, folders, joins and grants go (commands/accountCleanup). */
import { EventProcessor } from '@wb/platform';
import type { Logger, PoolClient } from '@wb/platform';
import { EVENT_SCHEMAS } from '@wb/proto';
import type { EventEnvelope, EventType } from '@wb/proto';
import { removeTerminatedUser } from '../commands/accountCleanup';
import type { BoardsMetrics } from '../metrics';

export class UserTerminatedProcessor extends EventProcessor {
  readonly name = 'boards-user-terminated';
  readonly eventTypes: readonly EventType[] = ['auth.user.terminated.v1'];

  constructor(private readonly deps: { log: Logger; metrics: BoardsMetrics }) {
    super();
  }

  async handle(event: EventEnvelope, client: PoolClient): Promise<void> {
    const { userId } = EVENT_SCHEMAS['auth.user.terminated.v1'].parse(event.data);
    const { purged } = await removeTerminatedUser(client, userId);
    this.deps.metrics.purged.inc({ reason: 'owner_terminated' }, purged);
    this.deps.log.info({ userId, purged, eventId: event.id }, 'terminated user’s boards removed');
  }
}
