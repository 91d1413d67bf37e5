/**
 * Before a guest picks a name, the board page asks GET /api/boards/{id} (the boards service
 * answers guests too) so that a board the guest cannot join shows its lock screen at once instead
 * of after the name prompt.
 */
import type { BoardDto } from '@wb/proto';
import { api } from '../../app/api';
import { isApiError } from '../../app/apiClient';
import { boardUrl } from '../boards/boardsApi';
import type { LockScreenReason } from './LockScreen';

export const boardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBoard: build.query<BoardDto, string>({ query: (boardId) => boardUrl(boardId) }),
  }),
});

export const { useGetBoardQuery } = boardApi;

/**
 * The lock screen a refusal of board.get means for a guest, or null: let the guest pick a name
 * (a failure that says nothing about the board, e.g. the network, leaves it to the realtime join).
 */
export function guestLock(error: unknown): LockScreenReason | null {
  if (!isApiError(error)) return null;
  // a malformed id (ERR_INVALID_INPUT: the id is the only input) names no board either
  if (error.code === 'ERR_BOARD_NOT_FOUND' || error.code === 'ERR_INVALID_INPUT' || error.status === 404)
    return 'notFound';
  if (error.code === 'ERR_FEATURE_NOT_ENABLED') return 'guestsNotOnPlan';
  if (error.code === 'ERR_FORBIDDEN') return 'restricted';
  return null;
}
