/**
 * Collaboration minutes (issue 16; spec §4 "Board read-only", §9): the signed-in user's own
 * weekly figure, read from the same counter the boards lock uses (boards `collaboration.usage`).
 */
import { boardsOperations } from '@wb/proto';
import { defineRoutes } from './types';

export const collaborationRoutes = defineRoutes([
  {
    method: 'get',
    path: '/api/collaboration/usage',
    summary:
      'The caller’s collaboration minutes this week: used and plan limit in ms, the week (from Monday 00:00 UTC) and the next reset',
    tag: 'boards',
    auth: 'required',
    service: 'boards',
    operation: 'collaboration.usage',
    response: boardsOperations['collaboration.usage'].output,
  },
]);
