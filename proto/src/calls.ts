/**
 * Audio/video calls (issue 16, spec §1 calls, §4 call states, §6 paid feature `call`): the SFU is
 * Janus (VideoRoom plugin), reached by the browser through the gateway's WebSocket path
 * (`CALL_JANUS_PATH`, subprotocol `janus-protocol`). The calls service (services/calls) creates
 * one VideoRoom per board on demand and hands out short-lived signed tokens: Janus checks the
 * token on every request (keepalives included) and the room only admits tokens on its `allowed`
 * list, so a token opens its own board's room and nothing else. Janus's api/admin secrets and the
 * room's `secret` never leave the server side.
 *
 * Browser flow: POST join → open `janusUrl` (same origin) → `create` session with `token` →
 * `attach` janus.plugin.videoroom with `token` → `join` {room, ptype:'publisher', display,
 * token} (the same string is the room's allowed-list entry) → publish/subscribe. Every Janus
 * request (keepalives too) carries `token`; POST join again before `expiresAt` (e.g. at 80 % of
 * the lifetime) and use the new token from then on.
 */
import { z } from 'zod';
import { boardIdSchema } from './boards';

/** the plan feature (of the BOARD OWNER's plan) that calls need; without it ERR_FEATURE_NOT_ENABLED (403) */
export const CALL_FEATURE = 'call' as const;
/**
 * Lifetime of a call token. Short, because a token is a bearer credential that also keeps a Janus
 * session alive: after someone loses access to the board (removed, board trashed, plan
 * downgraded) their session dies at most this long after their last refresh, since the refresh is
 * refused. Long enough that a refresh every few minutes costs nothing.
 */
export const CALL_TOKEN_TTL_MS = 10 * 60_000;
/** the gateway path of the Janus WebSocket (same origin as the app) */
export const CALL_JANUS_PATH = '/janus';
/** the WebSocket subprotocol Janus speaks */
export const CALL_JANUS_SUBPROTOCOL = 'janus-protocol';
/** the Janus plugin the token is signed for */
export const CALL_JANUS_PLUGIN = 'janus.plugin.videoroom';
/**
 * A call token names its room: the descriptor `room<id>` after the plugin (Janus ignores
 * descriptors that are not plugins, and checks the signature over all of them, so the room cannot
 * be changed without the secret). The gateway's /janus proxy lets a request carrying the token
 * reach that room only (calls README "Tokens and rooms").
 */
export const CALL_TOKEN_ROOM_PREFIX = 'room';
/** the room a call token was signed for, or null (not a token of ours, or one without a room) */
export function callTokenRoom(token: string): number | null {
  const colon = token.lastIndexOf(':');
  if (colon < 0) return null;
  for (const part of token.slice(0, colon).split(',').slice(2)) {
    const m = /^room(\d{1,15})$/.exec(part);
    if (m) return Number(m[1]);
  }
  return null;
}
/**
 * The VideoRoom requests a browser may send through /janus, each only for its token's room. The
 * others (list, create, destroy, edit, allowed, kick, moderate, recording, forwarders) are the
 * service's, with its secrets.
 */
export const CALL_BROWSER_REQUESTS = [
  'join',
  'joinandconfigure',
  'configure',
  'publish',
  'unpublish',
  'start',
  'pause',
  'switch',
  'update',
  'leave',
  'listparticipants',
  'exists',
] as const;
/** a room holds the teacher, 30 students and a screen share, with headroom for reconnects */
export const CALL_MAX_PUBLISHERS = 40;
export const CALL_ROLES = ['host', 'member'] as const;
export type CallRole = (typeof CALL_ROLES)[number];
/** longest display name shown on a tile */
export const CALL_DISPLAY_MAX = 60;

/** POST /api/boards/{boardId}/call/join: the board id comes from the path */
export const callJoinBodySchema = z.strictObject({
  /** guests only: the name shown on their tile (signed-in users always show their account name) */
  name: z.string().trim().min(1).max(CALL_DISPLAY_MAX).optional(),
});
/** svc.calls.join */
export const callJoinInputSchema = callJoinBodySchema.extend({ boardId: boardIdSchema });
export type CallJoinInput = z.infer<typeof callJoinInputSchema>;

export const iceServerSchema = z.object({
  urls: z.array(z.string()),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof iceServerSchema>;

export const callJoinReplySchema = z.object({
  /** the VideoRoom id of this board (derived from the board id; the same for every participant) */
  room: z.number().int().positive(),
  /** `<expiry>,janus,janus.plugin.videoroom,<nonce>:<signature>` (opaque to the browser): send it as `token` in every Janus request and in the VideoRoom join */
  token: z.string(),
  /** ISO time the token stops working: join again before it */
  expiresAt: z.string(),
  /** the gateway's WebSocket path to Janus (same origin), e.g. "/janus" */
  janusUrl: z.string(),
  /** for RTCPeerConnection: STUN/TURN (TURN credentials expire with the token) */
  iceServers: z.array(iceServerSchema),
  /** host: the board's owner (may mute everyone and share the screen) */
  role: z.enum(CALL_ROLES),
  /** the name to join with (the account's name, or the guest's chosen name) */
  display: z.string(),
});
export type CallJoinReply = z.infer<typeof callJoinReplySchema>;

/** POST /api/boards/{boardId}/call/mute-all (host only) */
export const callMuteAllBodySchema = z.strictObject({
  /** the host's own publisher ids (camera, screen share): left alone */
  keep: z.array(z.number().int().positive()).max(10).optional(),
  /** false: lift the mute again (default true) */
  mute: z.boolean().optional(),
});
export const callMuteAllInputSchema = callMuteAllBodySchema.extend({ boardId: boardIdSchema });
export const callMuteAllReplySchema = z.object({
  /** how many other publishers' audio was muted */
  muted: z.number().int().nonnegative(),
});
export type CallMuteAllReply = z.infer<typeof callMuteAllReplySchema>;

/** Every calls operation (svc.calls.<op>) with its schemas. */
export const callsOperations = {
  join: { input: callJoinInputSchema, output: callJoinReplySchema },
  muteAll: { input: callMuteAllInputSchema, output: callMuteAllReplySchema },
} as const;
export type CallsOperation = keyof typeof callsOperations;
