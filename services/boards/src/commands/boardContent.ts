/**
 * Board content is the realtime nodes' (journal + snapshots): a copy is asked of any node
 * (svc.realtime.board.copy, queue group). No node answering is a temporary problem, not a 500.
 */
import type { Bus, Logger } from '@wb/platform';
import { AppError, boardCopyReplySchema } from '@wb/proto';
import type { ContentSource } from './deps';

export class RealtimeContent implements ContentSource {
  constructor(
    private readonly bus: Pick<Bus, 'request'>,
    private readonly log: Logger,
    private readonly timeoutMs: number,
  ) {}

  async copy(from: string, to: string): Promise<void> {
    try {
      const reply = await this.bus.request(
        'realtime',
        'board.copy',
        { from, to },
        { userId: 0 },
        { timeoutMs: this.timeoutMs },
      );
      boardCopyReplySchema.parse(reply.data);
    } catch (err) {
      if (err instanceof AppError && err.statusCode < 500) throw err;
      this.log.warn({ err, from, to }, 'realtime board.copy failed');
      throw new AppError('ERR_TEMPORARY_PROBLEM');
    }
  }
}
