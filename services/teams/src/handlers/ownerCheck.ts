import { endpoint } from '@wb/platform';
import { teamsOperations } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { checkOwner } from '../commands/ownership';

/** asked by auth before terminating an account (no HTTP route) */
export const ownerCheckHandler = (deps: TeamsDeps) =>
  endpoint({
    operation: 'owner.check',
    ...teamsOperations['owner.check'],
    handler: (input) => checkOwner(deps, input),
  });
