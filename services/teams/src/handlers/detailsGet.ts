import { endpoint } from '@wb/platform';
import { teamsOperations } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { getDetails } from '../commands/businessDetails';

/** GET /api/business */
export const detailsGetHandler = (deps: TeamsDeps) =>
  endpoint({
    operation: 'details.get',
    ...teamsOperations['details.get'],
    handler: (_input, ctx) => getDetails(deps, ctx.actor),
  });
