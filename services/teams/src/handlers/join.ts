import { endpoint } from '@wb/platform';
import { teamsOperations } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { joinTeam } from '../commands/joining';

/** POST /api/business/join */
export const joinHandler = (deps: TeamsDeps) =>
  endpoint({
    operation: 'join',
    ...teamsOperations['join'],
    handler: (input, ctx) => joinTeam(deps, input, ctx.actor),
  });
