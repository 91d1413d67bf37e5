/**
 * Mail jobs on the BullMQ queue 'courses-mail'. A job names the invitation, never a secret: the
 * worker makes the join link's token itself (stored hashed), so no usable token sits in Redis.
 */
import type { Queue } from 'bullmq';

export const MAIL_QUEUE = 'courses-mail';

export type MailJob = { kind: 'invitation'; invitationId: number };

export interface MailScheduler {
  /** rejects when the jobs could not be queued (Redis down) */
  enqueue(jobs: MailJob[]): Promise<void>;
}

export function queueMailScheduler(queue: Queue<MailJob>): MailScheduler {
  return {
    async enqueue(jobs) {
      if (jobs.length === 0) return;
      await queue.addBulk(
        jobs.map((job) => ({
          name: job.kind,
          data: job,
          opts: { attempts: 5, backoff: { type: 'exponential', delay: 2000 } },
        })),
      );
    },
  };
}
