import { endpoint } from '@wb/platform';
import { teamsOperations } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { requestSeats } from '../commands/seats';

/** PUT /api/business/seats */
export const seatsUpdateHandler = (deps: TeamsDeps) =>
  endpoint({
    operation: 'seats.update',
    ...teamsOperations['seats.update'],
    handler: (input, ctx) => requestSeats(deps, input, ctx.actor),
  });
