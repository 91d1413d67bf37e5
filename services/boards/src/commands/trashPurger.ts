/**
 * Spec §4/§9: boards trashed more than a month (30 days) ago are deleted for good, their content
 * with them (the realtime side consumes boards.board.purged.v1). Run by the repeatable BullMQ
 * job (jobs/trashPurge.ts) with the injected clock. Works in batches, one transaction each, so a
 * big backlog never holds thousands of row locks at once.
 */
import { appendEvent, withTransaction } from '@wb/platform';
import type { Logger, Pool } from '@wb/platform';
import { trashExpiryCutoff } from '../policies/trash';
import { deleteExpiredTrash } from '../repositories/boards';
import type { BoardsMetrics } from '../metrics';
import { SCHEMA } from './deps';

export interface TrashPurgeDeps {
  pool: Pool;
  log: Logger;
  metrics: BoardsMetrics;
  now(): Date;
  batchSize: number;
}

/** returns how many boards were purged */
export async function purgeExpiredTrash(deps: TrashPurgeDeps): Promise<number> {
  const cutoff = trashExpiryCutoff(deps.now());
  let total = 0;
  for (;;) {
    const deleted = await withTransaction(deps.pool, async (client) => {
      const rows = await deleteExpiredTrash(client, cutoff, deps.batchSize);
      for (const r of rows) {
        await appendEvent(client, SCHEMA, 'boards.board.purged.v1', {
          boardId: r.id,
          ownerId: r.user_id,
          reason: 'expired',
        });
      }
      return rows.length;
    });
    total += deleted;
    deps.metrics.purged.inc({ reason: 'expired' }, deleted);
    if (deleted < deps.batchSize) break;
  }
  if (total > 0) deps.log.info({ purged: total, cutoff: cutoff.toISOString() }, 'expired trash purged');
  return total;
}
