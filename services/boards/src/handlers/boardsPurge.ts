import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { purgeBoards } from '../commands/boardBatch';

/** POST /api/boards/purge */
export const boardsPurgeHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'boards.purge',
    ...boardsOperations['boards.purge'],
    handler: (input, ctx) => purgeBoards(deps, input, ctx.actor),
  });
