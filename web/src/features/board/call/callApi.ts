/** POST call/join (a token for the board's VideoRoom; again before it expires) and call/mute-all (host). */
import type { CallJoinReply, CallMuteAllReply } from '@wb/proto';
import { api } from '../../../app/api';

const callUrl = (boardId: string, op: 'join' | 'mute-all') => `/api/boards/${encodeURIComponent(boardId)}/call/${op}`;

export const callApi = api.injectEndpoints({
  endpoints: (build) => ({
    callJoin: build.mutation<CallJoinReply, { boardId: string; name?: string }>({
      query: ({ boardId, name }) => ({ url: callUrl(boardId, 'join'), method: 'POST', body: name ? { name } : {} }),
    }),
    /** keep: the host's own publisher ids (camera, screen); mute false lifts it again */
    callMuteAll: build.mutation<CallMuteAllReply, { boardId: string; keep: number[]; mute: boolean }>({
      query: ({ boardId, keep, mute }) => ({ url: callUrl(boardId, 'mute-all'), method: 'POST', body: { keep, mute } }),
    }),
  }),
});

export const { useCallJoinMutation, useCallMuteAllMutation } = callApi;
