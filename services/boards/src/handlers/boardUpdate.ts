import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { updateBoardMeta } from '../commands/boardUpdater';

/** PUT /api/boards/{boardId} */
export const boardUpdateHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'board.update',
    ...boardsOperations['board.update'],
    handler: (input, ctx) => updateBoardMeta(deps, input, ctx.actor),
  });
