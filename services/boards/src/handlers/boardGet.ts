import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { getBoard } from '../commands/boardReader';

/** GET /api/boards/{boardId} */
export const boardGetHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'board.get',
    ...boardsOperations['board.get'],
    handler: (input, ctx) => getBoard(deps, input, ctx.actor),
  });
