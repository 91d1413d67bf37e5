import { endpoint } from '@wb/platform';
import { teamsOperations } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { cancelInvitation } from '../commands/invitations';

/** DELETE /api/business/invitations/{invitationId} */
export const invitationCancelHandler = (deps: TeamsDeps) =>
  endpoint({
    operation: 'invitation.cancel',
    ...teamsOperations['invitation.cancel'],
    handler: (input, ctx) => cancelInvitation(deps, input, ctx.actor),
  });
