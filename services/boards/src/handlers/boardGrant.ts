import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { grantPermission } from '../commands/boardUpdater';

/** POST /api/boards/grant */
export const boardGrantHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'board.grant',
    ...boardsOperations['board.grant'],
    handler: (input, ctx) => grantPermission(deps, input, ctx.actor),
  });
