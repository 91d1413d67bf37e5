/**
 * Mail jobs on the BullMQ queue 'teams-mail'. A job names what to send, never a secret: the
 * worker creates the join link's token itself (stored hashed), so no usable token sits in Redis.
 */
import type { Queue } from 'bullmq';

export const MAIL_QUEUE = 'teams-mail';

export type MailJob =
  /** to the invited address: the join-team link */
  | { kind: 'invitation'; invitationId: number }
  /** to the owner: someone joined their team */
  | { kind: 'member_joined'; businessId: number; memberId: number };

export interface MailScheduler {
  /** rejects when the jobs could not be queued (Redis down) */
  enqueue(jobs: MailJob[]): Promise<void>;
}

export function queueMailScheduler(queue: Queue<MailJob>): MailScheduler {
  return {
    async enqueue(jobs) {
      if (jobs.length === 0) return;
      // 5 attempts over ~1 minute: an SMTP hiccup should not lose an invitation
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
