/**
 * boards.board.purged.v1 → the board's journal and snapshots are deleted (SPEC H3); one node of
 * the deployment does it (shared durable). The room is closed by the owner node's own
 * RoomEventsProcessor; this node also closes it if it happens to hold it.
 * The rows go in the consumer's transaction; snapshot files after it commits (a crash in between
 * leaves orphan files, never a board pointing at a missing snapshot).
 */
import { EventProcessor } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import type { EventEnvelope, EventType } from '@wb/proto';
import { EVENT_SCHEMAS } from '@wb/proto';
import { purgeBoard } from '../repositories/journal';
import { purgeChat } from '../repositories/chat';
import { purgeLessonState } from '../repositories/lesson';

export interface PurgeTarget {
  dropPurged(boardId: string): void;
}
export interface PurgeFiles {
  delete(keys: string[]): Promise<void>;
  /** every object of the board, orphans included */
  deleteBoard(boardId: string): Promise<void>;
}

export class BoardPurgedProcessor extends EventProcessor {
  readonly name = 'realtime-board-purged';
  readonly eventTypes: readonly EventType[] = ['boards.board.purged.v1'];
  constructor(
    private readonly rooms: PurgeTarget,
    private readonly files: PurgeFiles,
    private readonly afterCommit: (fn: () => Promise<void>) => void = (fn) => void fn(),
  ) {
    super();
  }
  async handle(event: EventEnvelope, client: PoolClient): Promise<void> {
    const { boardId } = EVENT_SCHEMAS['boards.board.purged.v1'].parse(event.data);
    const keys = await purgeBoard(client, boardId);
    await purgeChat(client, boardId); // SPEC C9: the chat goes with the board
    await purgeLessonState(client, boardId);
    this.rooms.dropPurged(boardId);
    this.afterCommit(async () => {
      await this.files.delete(keys);
      await this.files.deleteBoard(boardId);
    });
  }
}
