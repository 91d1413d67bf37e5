/**
 * Calls (issue 16): the join that hands out a short-lived Janus token for the board's VideoRoom
 * (also the token refresh) and the host's mute-all, forwarded to the calls service
 * (`callsOperations` in proto). The Janus WebSocket itself is proxied by ../calls/janusProxy.ts.
 */
import { z } from 'zod';
import { boardIdSchema, callJoinBodySchema, callMuteAllBodySchema, callsOperations } from '@wb/proto';
import { defineRoutes } from './types';

const boardParams = z.object({ boardId: boardIdSchema });

export const callsRoutes = defineRoutes([
  {
    method: 'post',
    path: '/api/boards/:boardId(*)/call/join',
    summary:
      'Join (or stay in) the board’s call: a Janus token for its room (refresh it before expiresAt by joining again), the ICE servers and the caller’s role',
    tag: 'calls',
    // guests may join the calls of boards they may open
    auth: 'optional',
    service: 'calls',
    operation: 'join',
    params: boardParams,
    body: callJoinBodySchema,
    response: callsOperations.join.output,
    errors: [
      'ERR_BOARD_NOT_FOUND',
      'ERR_FORBIDDEN',
      'ERR_FEATURE_NOT_ENABLED',
      'ERR_SERVICE_UNAVAILABLE',
      'ERR_INVALID_INPUT',
    ],
  },
  {
    method: 'post',
    path: '/api/boards/:boardId(*)/call/mute-all',
    summary: 'Mute (or, with mute: false, allow again) the audio of everyone else in the board’s call (the owner only)',
    tag: 'calls',
    auth: 'required',
    service: 'calls',
    operation: 'muteAll',
    params: boardParams,
    body: callMuteAllBodySchema,
    response: callsOperations.muteAll.output,
    errors: ['ERR_BOARD_NOT_FOUND', 'ERR_FORBIDDEN', 'ERR_SERVICE_UNAVAILABLE', 'ERR_INVALID_INPUT'],
  },
]);
