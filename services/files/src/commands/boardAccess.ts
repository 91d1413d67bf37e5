/**
 * The caller's access to a board, asked of the boards service (`access.check` with the caller
 * as actor, as the realtime nodes do). Not cached: an upload is rare next to its bytes, and a
 * revoked edit right must stop the next upload. Unknown board → ERR_BOARD_NOT_FOUND (boards' answer).
 */
import type { Bus } from '@wb/platform';
import { accessCheckReplySchema } from '@wb/proto';
import type { AccessCheckReply } from '@wb/proto';
import type { BoardAccessSource } from './deps';

export class BoardAccessLookup implements BoardAccessSource {
  constructor(private readonly bus: Pick<Bus, 'request'>) {}

  async accessOf(boardId: string, userId: number): Promise<AccessCheckReply> {
    const reply = await this.bus.request('boards', 'access.check', { boardId }, { userId });
    return accessCheckReplySchema.parse(reply.data);
  }
}
