import { endpoint } from '@wb/platform';
import { callsOperations } from '@wb/proto';
import { joinCall } from '../commands/calls';
import type { CallsDeps } from '../commands/deps';

/** POST /api/boards/{boardId}/call/join (also the token refresh) */
export const joinHandler = (deps: CallsDeps) =>
  endpoint({
    operation: 'join',
    ...callsOperations.join,
    handler: (input, ctx) => joinCall(deps, input, ctx.actor),
  });
