/**
 * Mail jobs on the BullMQ queue 'auth-mail'. A job names what to send, never a secret: the worker
 * creates the link token itself (stored hashed), so no usable token sits in Redis.
 */
import type { Queue } from 'bullmq';
import type { EmailStatus } from '../repositories/users';

export const MAIL_QUEUE = 'auth-mail';

export type MailJob =
  | { kind: 'verify_email'; userId: number; email: string }
  | { kind: 'password_recovery'; userId: number; email: string }
  /** to the NEW address: confirm the change */
  | { kind: 'change_email_confirm'; userId: number; oldEmail: string; newEmail: string }
  /** to the OLD address: "this was not me" → revert */
  | { kind: 'change_email_revert'; userId: number; oldEmail: string; newEmail: string; oldStatus: EmailStatus };

export interface MailScheduler {
  /** rejects when the job could not be queued (Redis down) */
  enqueue(job: MailJob): Promise<void>;
}

export function queueMailScheduler(queue: Queue<MailJob>): MailScheduler {
  return {
    async enqueue(job) {
      // 5 attempts over ~1 minute: an SMTP hiccup should not lose a recovery mail
      await queue.add(job.kind, job, { attempts: 5, backoff: { type: 'exponential', delay: 2000 } });
    },
  };
}
