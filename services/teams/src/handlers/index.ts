/** Every endpoint of the teams service, one per operation in `teamsOperations` (proto). */
import type { Endpoint } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { TeamsOperation } from '@wb/proto';
import type { TeamsDeps } from '../commands/deps';
import { closeHandler } from './close';
import { detailsGetHandler } from './detailsGet';
import { detailsUpdateHandler } from './detailsUpdate';
import { infoGetHandler } from './infoGet';
import { invitationCancelHandler } from './invitationCancel';
import { invitationsCreateHandler } from './invitationsCreate';
import { joinHandler } from './join';
import { leaveHandler } from './leave';
import { memberActivateHandler } from './memberActivate';
import { memberDeactivateHandler } from './memberDeactivate';
import { memberRemoveHandler } from './memberRemove';
import { ownerCheckHandler } from './ownerCheck';
import { seatsCheckHandler } from './seatsCheck';
import { seatsUpdateHandler } from './seatsUpdate';

/** keyed by operation so the compiler says when one is missing */
const HANDLERS: Record<TeamsOperation, (deps: TeamsDeps) => Endpoint> = {
  'details.get': detailsGetHandler,
  'details.update': detailsUpdateHandler,
  'info.get': infoGetHandler,
  'invitations.create': invitationsCreateHandler,
  'invitation.cancel': invitationCancelHandler,
  join: joinHandler,
  'member.deactivate': memberDeactivateHandler,
  'member.activate': memberActivateHandler,
  'member.remove': memberRemoveHandler,
  'seats.update': seatsUpdateHandler,
  leave: leaveHandler,
  close: closeHandler,
  'owner.check': ownerCheckHandler,
  'seats.check': seatsCheckHandler,
};

/** counts every outcome (ok or the error code) per operation: teams_commands_total */
function counted(deps: TeamsDeps, ep: Endpoint): Endpoint {
  const handler = ep.handler.bind(ep);
  return {
    ...ep,
    async handler(input, ctx) {
      try {
        const out = await handler(input, ctx);
        deps.metrics.commands.inc({ operation: ep.operation, outcome: 'ok' });
        return out;
      } catch (err) {
        deps.metrics.commands.inc({
          operation: ep.operation,
          outcome: err instanceof AppError ? err.code : 'ERR_UNKNOWN',
        });
        throw err;
      }
    },
  };
}

export function buildEndpoints(deps: TeamsDeps): Endpoint[] {
  return Object.values(HANDLERS).map((make) => counted(deps, make(deps)));
}
