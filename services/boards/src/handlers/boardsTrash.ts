import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { trashBoards } from '../commands/boardBatch';

/** POST /api/boards/trash */
export const boardsTrashHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'boards.trash',
    ...boardsOperations['boards.trash'],
    handler: (input, ctx) => trashBoards(deps, input, ctx.actor),
  });
