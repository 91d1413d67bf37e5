/**
 * The repeatable BullMQ job that keeps time-bound billing state true: plans whose trial or paid
 * period ended are taken away (commands/lapseExpirer), and pending provider operations are
 * finished or rolled back from the provider's truth (commands/operations). A job scheduler (one
 * per deployment, whichever replica upserts it) adds one job every BILLING_JOB_EVERY_MS; any
 * replica's worker runs it. The job carries no data: the clock comes from the worker's deps, so
 * a test runs the same processor with a clock days ahead.
 */
import type { Queue } from 'bullmq';
import type { BillingDeps } from '../commands/deps';
import { expireLapsed } from '../commands/lapseExpirer';
import { reconcileAll } from '../commands/operations';

export const MAINTENANCE_QUEUE = 'billing-maintenance';
export const MAINTENANCE_SCHEDULER = 'billing-maintenance';
export type MaintenanceJob = Record<string, never>;

export async function scheduleMaintenance(queue: Queue<MaintenanceJob>, everyMs: number): Promise<void> {
  await queue.upsertJobScheduler(MAINTENANCE_SCHEDULER, { every: everyMs }, { name: 'maintain', data: {} });
}

/** the worker's processor */
export async function processMaintenanceJob(
  deps: BillingDeps,
): Promise<{ lapsed: number; reconciled: Record<string, number> }> {
  const reconciled = await reconcileAll(deps);
  const lapsed = await expireLapsed(deps);
  return { lapsed, reconciled };
}
