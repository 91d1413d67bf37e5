import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { leaveBoards } from '../commands/boardBatch';

/** POST /api/boards/leave */
export const boardsLeaveHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'boards.leave',
    ...boardsOperations['boards.leave'],
    handler: (input, ctx) => leaveBoards(deps, input, ctx.actor),
  });
