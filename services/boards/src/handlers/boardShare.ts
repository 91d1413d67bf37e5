import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { getShare } from '../commands/boardReader';

/** GET /api/boards/{boardId}/share */
export const boardShareHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'board.share',
    ...boardsOperations['board.share'],
    handler: (input, ctx) => getShare(deps, input, ctx.actor),
  });
