import { endpoint } from '@wb/platform';
import { teamsOperations } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { getInfo } from '../commands/teamReader';

/** GET /api/business/info */
export const infoGetHandler = (deps: TeamsDeps) =>
  endpoint({
    operation: 'info.get',
    ...teamsOperations['info.get'],
    handler: (_input, ctx) => getInfo(deps, ctx.actor),
  });
