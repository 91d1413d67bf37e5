import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { duplicateBoard } from '../commands/boardCopier';

/** NATS only (the courses service's copy for each student); the gateway has no route for it */
export const boardDuplicateHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'board.duplicate',
    ...boardsOperations['board.duplicate'],
    handler: (input, ctx) => duplicateBoard(deps, input, ctx.actor),
  });
