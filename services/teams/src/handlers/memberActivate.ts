import { endpoint } from '@wb/platform';
import { teamsOperations } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { changeMember } from '../commands/members';

/** POST /api/business/members/{userId}/activate */
export const memberActivateHandler = (deps: TeamsDeps) =>
  endpoint({
    operation: 'member.activate',
    ...teamsOperations['member.activate'],
    handler: (input, ctx) => changeMember(deps, 'activate', input, ctx.actor),
  });
