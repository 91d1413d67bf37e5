/**
 * The repeatable BullMQ job that purges month-old trash. A job scheduler (one per deployment,
 * whichever replica upserts it) adds one job every TRASH_PURGE_EVERY_MS; any replica's worker
 * runs it. The job carries no data: the clock comes from the worker's deps, so a test can run
 * the same processor with a clock a month ahead.
 */
import type { Queue } from 'bullmq';
import { purgeExpiredTrash } from '../commands/trashPurger';
import type { TrashPurgeDeps } from '../commands/trashPurger';

export const TRASH_PURGE_QUEUE = 'boards-trash-purge';
export const TRASH_PURGE_SCHEDULER = 'purge-expired-trash';
export type TrashPurgeJob = Record<string, never>;

export async function scheduleTrashPurge(queue: Queue<TrashPurgeJob>, everyMs: number): Promise<void> {
  await queue.upsertJobScheduler(TRASH_PURGE_SCHEDULER, { every: everyMs }, { name: 'purge', data: {} });
}

/** the worker's processor */
export async function processTrashPurgeJob(deps: TrashPurgeDeps): Promise<{ purged: number }> {
  return { purged: await purgeExpiredTrash(deps) };
}
