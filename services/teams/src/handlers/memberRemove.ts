import { endpoint } from '@wb/platform';
import { teamsOperations } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { changeMember } from '../commands/members';

/** DELETE /api/business/members/{userId} */
export const memberRemoveHandler = (deps: TeamsDeps) =>
  endpoint({
    operation: 'member.remove',
    ...teamsOperations['member.remove'],
    handler: (input, ctx) => changeMember(deps, 'remove', input, ctx.actor),
  });
