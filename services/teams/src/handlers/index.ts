/** Every endpoint of the teams service, one per operation in `teamsOperations` (proto). */
import { countOutcomes } from '@wb/platform';
import type { Endpoint } from '@wb/platform';
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

export function buildEndpoints(deps: TeamsDeps): Endpoint[] {
  return Object.values(HANDLERS).map((make) => countOutcomes(make(deps), deps.metrics.commands));
}
