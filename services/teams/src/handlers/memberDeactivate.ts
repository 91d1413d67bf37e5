import { endpoint } from '@wb/platform';
import { teamsOperations } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { changeMember } from '../commands/members';

/** POST /api/business/members/{userId}/deactivate */
export const memberDeactivateHandler = (deps: TeamsDeps) =>
  endpoint({
    operation: 'member.deactivate',
    ...teamsOperations['member.deactivate'],
    handler: (input, ctx) => changeMember(deps, 'deactivate', input, ctx.actor),
  });
