import { endpoint } from '@wb/platform';
import { teamsOperations } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { checkSeats } from '../commands/seats';

/** asked by billing before changing a subscription's seats (no HTTP route) */
export const seatsCheckHandler = (deps: TeamsDeps) =>
  endpoint({
    operation: 'seats.check',
    ...teamsOperations['seats.check'],
    handler: (input, ctx) => checkSeats(deps, input, ctx.actor),
  });
