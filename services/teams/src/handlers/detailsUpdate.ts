import { endpoint } from '@wb/platform';
import { teamsOperations } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { updateDetails } from '../commands/businessDetails';

/** PUT /api/business */
export const detailsUpdateHandler = (deps: TeamsDeps) =>
  endpoint({
    operation: 'details.update',
    ...teamsOperations['details.update'],
    handler: (input, ctx) => updateDetails(deps, input, ctx.actor),
  });
