/**
 * The conversion worker's BullMQ queue as the files service uses it: one job per document
 * (jobId = the document id, so a second ask never converts twice) and profile pictures awaited
 * through QueueEvents.
 */
import type { Queue, QueueEvents } from 'bullmq';
import type { FilesConvertJob } from '@wb/proto';
import type { ConversionQueue } from './deps';

export class BullConversionQueue implements ConversionQueue {
  constructor(
    private readonly queue: Queue<FilesConvertJob>,
    private readonly events: QueueEvents,
  ) {}

  async enqueue(job: FilesConvertJob): Promise<void> {
    await this.clearFinished(job.docId);
    // the worker reports the outcome through conversion.report: nothing to keep in Redis
    await this.queue.add('convert', job, { jobId: job.docId, removeOnComplete: true, removeOnFail: true });
  }

  async runDisplayImage(job: FilesConvertJob, timeoutMs: number): Promise<void> {
    const jobId = `display-${job.docId}`;
    await this.clearFinished(jobId);
    // one attempt: the person is waiting and can try again
    const added = await this.queue.add('displayImage', job, {
      jobId,
      attempts: 1,
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 3600 },
    });
    await added.waitUntilFinished(this.events, timeoutMs);
  }

  /** a finished job under this id would make add() a no-op (the bytes were deleted and came back) */
  private async clearFinished(jobId: string): Promise<void> {
    const old = await this.queue.getJob(jobId);
    if (old && ((await old.isCompleted()) || (await old.isFailed()))) await old.remove();
  }
}
