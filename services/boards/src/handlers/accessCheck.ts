import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { checkAccess } from '../commands/boardReader';

/** asked by the realtime nodes on every join (no HTTP route) */
export const accessCheckHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'access.check',
    ...boardsOperations['access.check'],
    handler: (input, ctx) => checkAccess(deps, input, ctx.actor),
  });
