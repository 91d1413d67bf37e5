import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { checkpoint, ownUsage } from '../commands/collaboration';

/** GET /api/collaboration/usage: the signed-in user's collaboration minutes this week */
export const collaborationUsageHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'collaboration.usage',
    ...boardsOperations['collaboration.usage'],
    handler: (input, ctx) => ownUsage(deps, input, ctx.actor),
  });

/** asked by the realtime nodes' minute meters (no HTTP route) */
export const collaborationCheckpointHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'collaboration.checkpoint',
    ...boardsOperations['collaboration.checkpoint'],
    handler: (input, ctx) => checkpoint(deps, input, ctx.actor),
  });
