import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { restoreBoards } from '../commands/boardBatch';

/** POST /api/boards/restore */
export const boardsRestoreHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'boards.restore',
    ...boardsOperations['boards.restore'],
    handler: (input, ctx) => restoreBoards(deps, input, ctx.actor),
  });
