import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { listBoards } from '../commands/boardReader';

/** GET /api/boards */
export const boardsListHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'boards.list',
    ...boardsOperations['boards.list'],
    handler: (input, ctx) => listBoards(deps, input, ctx.actor),
  });
