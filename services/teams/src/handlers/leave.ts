import { endpoint } from '@wb/platform';
import { teamsOperations } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { leaveTeam } from '../commands/members';

/** POST /api/business/leave */
export const leaveHandler = (deps: TeamsDeps) =>
  endpoint({
    operation: 'leave',
    ...teamsOperations['leave'],
    handler: (input, ctx) => leaveTeam(deps, input, ctx.actor),
  });
