/** Consumes auth.user.terminated.v1: the user's library goes, and the bytes nobody else holds. */
import { EventProcessor } from '@wb/platform';
import type { Logger, ObjectStore, PoolClient } from '@wb/platform';
import { EVENT_SCHEMAS } from '@wb/proto';
import type { EventEnvelope, EventType } from '@wb/proto';
import { releaseOrphans } from '../commands/storedBytes';
import type { FilesMetrics } from '../metrics';
import { lockQuota } from '../repositories/db';
import { removeLibrary } from '../repositories/registrations';

export class UserTerminatedProcessor extends EventProcessor {
  readonly name = 'files-user-terminated';
  readonly eventTypes: readonly EventType[] = ['auth.user.terminated.v1'];

  constructor(
    private readonly deps: {
      log: Logger;
      metrics: FilesMetrics;
      store: ObjectStore;
      env: { FILES_IMAGE_ID_SECRET: string };
    },
  ) {
    super();
  }

  async handle(event: EventEnvelope, client: PoolClient): Promise<void> {
    const { userId } = EVENT_SCHEMAS['auth.user.terminated.v1'].parse(event.data);
    await lockQuota(client, userId);
    // their boards' uploads go when boards purges those boards (boards.board.purged.v1)
    const removed = await removeLibrary(client, userId);
    const deleted = await releaseOrphans(this.deps, client, removed);
    this.deps.log.info(
      { userId, removed: removed.length, deleted: deleted.length, eventId: event.id },
      'terminated user’s files removed',
    );
  }
}
