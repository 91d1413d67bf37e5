/**
 * The repeatable BullMQ job that keeps time-bound billing state true: plans whose trial or paid
 * period ended are taken away (commands/lapseExpirer), and pending provider operations are
 * finished or rolled back from the provider's truth (commands/operations), and subscriptions of
 * terminated accounts and closed businesses that the provider has not yet confirmed cancelled are
 * cancelled again (commands/accountClosures). A job scheduler (one
 * per deployment, whichever replica upserts it) adds one job every BILLING_JOB_EVERY_MS; any
 * replica's worker runs it. The job carries no data: the clock comes from the worker's deps, so
 * a test runs the same processor with a clock days ahead.
 */
import type { Queue } from 'bullmq';
import type { BillingDeps } from '../commands/deps';
import { enforceCancellations } from '../commands/accountClosures';
import type { EnforceResult } from '../commands/accountClosures';
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
): Promise<{ lapsed: number; reconciled: Record<string, number>; cancellations: EnforceResult }> {
  const reconciled = await reconcileAll(deps);
  // after reconciliation: a payment it completed for a terminated account is cancelled at once
  const cancellations = await enforceCancellations(deps);
  const lapsed = await expireLapsed(deps);
  return { lapsed, reconciled, cancellations };
}
