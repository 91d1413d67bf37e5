import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { moveBoards } from '../commands/boardBatch';

/** POST /api/folders/moveBoards */
export const boardsMoveHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'boards.move',
    ...boardsOperations['boards.move'],
    handler: (input, ctx) => moveBoards(deps, input, ctx.actor),
  });
