import { endpoint } from '@wb/platform';
import { teamsOperations } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { createInvitations } from '../commands/invitations';

/** POST /api/business/invitations */
export const invitationsCreateHandler = (deps: TeamsDeps) =>
  endpoint({
    operation: 'invitations.create',
    ...teamsOperations['invitations.create'],
    handler: (input, ctx) => createInvitations(deps, input, ctx.actor),
  });
