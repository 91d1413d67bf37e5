import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { createBoard } from '../commands/boardCreator';

/** POST /api/boards */
export const boardCreateHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'board.create',
    ...boardsOperations['board.create'],
    handler: (input, ctx) => createBoard(deps, input, ctx.actor),
  });
