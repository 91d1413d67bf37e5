/** Consumes boards.board.purged.v1: the board's uploads go, and the bytes nobody else holds. */
import { EventProcessor } from '@wb/platform';
import type { Logger, ObjectStore, PoolClient } from '@wb/platform';
import { EVENT_SCHEMAS } from '@wb/proto';
import type { EventEnvelope, EventType } from '@wb/proto';
import { releaseOrphans } from '../commands/storedBytes';
import type { FilesMetrics } from '../metrics';
import { lockQuota } from '../repositories/db';
import { removeBoard } from '../repositories/registrations';

export class BoardPurgedProcessor extends EventProcessor {
  readonly name = 'files-board-purged';
  readonly eventTypes: readonly EventType[] = ['boards.board.purged.v1'];

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
    const { boardId, ownerId } = EVENT_SCHEMAS['boards.board.purged.v1'].parse(event.data);
    if (ownerId > 0) await lockQuota(client, ownerId);
    const removed = await removeBoard(client, boardId);
    const deleted = await releaseOrphans(this.deps, client, removed);
    if (removed.length)
      this.deps.log.info({ boardId, removed: removed.length, deleted: deleted.length }, 'purged board’s files removed');
  }
}
