import { endpoint } from '@wb/platform';
import { callsOperations } from '@wb/proto';
import { muteAll } from '../commands/calls';
import type { CallsDeps } from '../commands/deps';

/** POST /api/boards/{boardId}/call/mute-all (host only) */
export const muteAllHandler = (deps: CallsDeps) =>
  endpoint({
    operation: 'muteAll',
    ...callsOperations.muteAll,
    handler: (input, ctx) => muteAll(deps, input, ctx.actor),
  });
