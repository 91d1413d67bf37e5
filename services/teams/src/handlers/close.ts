import { endpoint } from '@wb/platform';
import { teamsOperations } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { closeBusiness } from '../commands/closing';

/** POST /api/business/close */
export const closeHandler = (deps: TeamsDeps) =>
  endpoint({
    operation: 'close',
    ...teamsOperations['close'],
    handler: (input, ctx) => closeBusiness(deps, input, ctx.actor),
  });
