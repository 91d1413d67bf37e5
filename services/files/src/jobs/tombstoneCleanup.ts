/**
 * The repeatable BullMQ job that removes the tombstones of failed conversions after an hour
 * (a job scheduler, one per deployment whichever replica upserts it; any replica's worker runs it).
 */
import type { Queue } from 'bullmq';

export const TOMBSTONE_QUEUE = 'files-tombstones';
export const TOMBSTONE_SCHEDULER = 'remove-expired-tombstones';
export type TombstoneJob = Record<string, never>;

export async function scheduleTombstoneCleanup(queue: Queue<TombstoneJob>, everyMs: number): Promise<void> {
  await queue.upsertJobScheduler(TOMBSTONE_SCHEDULER, { every: everyMs }, { name: 'cleanup', data: {} });
}
