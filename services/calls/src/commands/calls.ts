/**
 * svc.calls.join and svc.calls.muteAll: the access and plan rules (policies/joinRules), then the
 * token, the TURN credentials and the room (commands/rooms).
 */
import { randomBytes } from 'node:crypto';
import { AppError, CALL_DISPLAY_MAX, CALL_JANUS_PATH } from '@wb/proto';
import type { CallJoinInput, CallJoinReply, CallMuteAllReply, IceServer, RequestActor } from '@wb/proto';
import { JanusUnavailable } from '../janus/errors';
import { roomIdOf, signJanusToken, turnCredentials } from '../janus/tokens';
import { assertHost, joinDecision, refusalError } from '../policies/joinRules';
import type { CallsDeps } from './deps';

const GUEST_NAME = 'Guest';

export async function joinCall(deps: CallsDeps, input: CallJoinInput, actor: RequestActor): Promise<CallJoinReply> {
  try {
    const check = await deps.boards.accessOf(input.boardId, actor);
    const plan = await deps.plans.planOf(check.board.ownerId);
    const decision = joinDecision({ access: check.access, ownerFeatures: plan.features });
    if (!decision.ok) {
      deps.metrics.joins.inc({ outcome: decision.reason });
      throw refusalError(decision.reason, check.access);
    }
    const display = await displayOf(deps, input, actor);
    const expiresAt = deps.now() + deps.env.CALL_TOKEN_TTL_MS;
    const token = signJanusToken(deps.env.JANUS_TOKEN_SECRET, expiresAt, { room: roomIdOf(input.boardId) });
    const room = await deps.rooms.admit(input.boardId, token);
    deps.metrics.joins.inc({ outcome: 'ok' });
    return {
      room,
      token,
      expiresAt: new Date(expiresAt).toISOString(),
      janusUrl: CALL_JANUS_PATH,
      iceServers: iceServers(deps, actor, expiresAt),
      role: decision.role,
      display,
    };
  } catch (err) {
    if (err instanceof JanusUnavailable) deps.metrics.joins.inc({ outcome: 'janus_unavailable' });
    else if (err instanceof AppError && err.code === 'ERR_BOARD_NOT_FOUND')
      deps.metrics.joins.inc({ outcome: 'board_not_found' });
    throw err;
  }
}

/** signed-in users show their account name; guests the name they chose (or "Guest") */
async function displayOf(deps: CallsDeps, input: CallJoinInput, actor: RequestActor): Promise<string> {
  if (actor.userId === 0) return input.name ?? GUEST_NAME;
  const name = await deps.names.nameOf(actor).catch((err: unknown) => {
    deps.log.warn({ err, userId: actor.userId }, 'display name lookup failed');
    return undefined;
  });
  return (name?.trim() || input.name || `User ${actor.userId}`).slice(0, CALL_DISPLAY_MAX);
}

/** STUN as configured; TURN with REST credentials that expire with the token */
function iceServers(deps: CallsDeps, actor: RequestActor, expiresAt: number): IceServer[] {
  const out: IceServer[] = [];
  if (deps.env.STUN_URLS.length) out.push({ urls: deps.env.STUN_URLS });
  if (deps.env.TURN_URLS.length && deps.env.TURN_SECRET) {
    // guests have no stable id: a random key keeps their credentials apart in coturn's logs
    const userKey = actor.userId === 0 ? `guest-${randomBytes(6).toString('hex')}` : `u${actor.userId}`;
    out.push({ urls: deps.env.TURN_URLS, ...turnCredentials(deps.env.TURN_SECRET, userKey, expiresAt) });
  }
  return out;
}

export async function muteAll(
  deps: CallsDeps,
  input: { boardId: string; keep?: number[]; mute?: boolean },
  actor: RequestActor,
): Promise<CallMuteAllReply> {
  const check = await deps.boards.accessOf(input.boardId, actor);
  assertHost(check.access);
  return { muted: await deps.rooms.muteAll(input.boardId, input.keep ?? [], input.mute ?? true) };
}
