/**
 * Reads: the dashboard list, one board, the share dialog, and the access check the realtime
 * nodes make on every join (which also records the join for "shared with me").
 */
import { EncodedJson } from '@wb/platform';
import { AppError } from '@wb/proto';
import type {
  AccessCheckReply,
  BoardAccess,
  BoardDto,
  BoardListFormat,
  BoardShare,
  Plan,
  ReadOnlyReason,
  RequestActor,
} from '@wb/proto';
import { isGuest, requireUserId } from '../policies/actor';
import { mayBeReadOnly, readOnlyReasonOf, weekStartOf } from '../policies/readOnly';
import { readOnlyFacts } from '../repositories/collaboration';
import { accessOf, assertOwner, NO_GRANTS, ownerPlanNeeded } from '../policies/boardAccess';
import { presentBoard, presentBoardList, presentBoards, presentShare, presentSummary } from '../presenters/board';
import { findBoard, findBoardForUser, listJoined, listOwned, listVersion } from '../repositories/boards';
import type { BoardRow, JoinedBoardRow } from '../repositories/boards';
import { listMembers, recordJoin } from '../repositories/members';
import type { BoardsDeps } from './deps';

/**
 * GET /api/boards: every board the caller owns (trashed included: the web filters the views) and
 * the boards of others they joined and may still open. Answered from the list cache while the
 * caller's list version is unchanged; the version is read BEFORE the lists, so a write landing
 * in between can only make the cache reload once more, never keep a stale answer.
 */
/** The caller's board list in the format asked for, as encoded JSON (see VersionedReplyCache). */
export async function listBoards(
  deps: BoardsDeps,
  input: { format?: BoardListFormat },
  actor: RequestActor,
): Promise<EncodedJson> {
  const userId = requireUserId(actor);
  const format = input.format ?? 'boards';
  const version = await listVersion(deps.pool, userId);
  const cached = deps.lists.get(`${userId}:${format}`, version);
  if (cached) {
    deps.metrics.listCache.inc({ result: 'hit' });
    return cached;
  }
  deps.metrics.listCache.inc({ result: 'miss' });
  const [owned, joined] = await Promise.all([listOwned(deps.pool, userId), listJoined(deps.pool, userId)]);
  // logged-in users never need the owner's plan (only guests do)
  const shared: { row: JoinedBoardRow; access: BoardAccess }[] = [];
  for (const row of joined) {
    const access = accessOf(row, actor, row.grant ? new Map([[userId, row.grant]]) : NO_GRANTS, null);
    if (access !== 'none') shared.push({ row, access });
  }
  const names = await deps.names.namesOf(shared.map(({ row }) => row.user_id));
  const list =
    format === 'columns'
      ? presentBoardList(
          owned,
          shared.map(({ row }) => row),
          names ?? {},
        )
      : presentBoards(owned, shared, names ?? {});
  const weight = owned.length + shared.length;
  // without names the answer is served but not kept: the next request tries again
  return names ? await deps.lists.set(`${userId}:${format}`, version, list, weight) : EncodedJson.of(list);
}

interface Resolved {
  row: BoardRow;
  access: ReturnType<typeof accessOf>;
  /** the owner's plan when it was needed (guests), else null */
  ownerPlan: Plan | null;
}

async function resolveAccess(
  deps: BoardsDeps,
  boardId: string,
  actor: RequestActor,
  freshPlan = false,
): Promise<Resolved> {
  // guests have no grants: no board_users row has user id 0
  const row = await findBoardForUser(deps.pool, boardId, isGuest(actor) ? 0 : actor.userId);
  if (!row) throw new AppError('ERR_BOARD_NOT_FOUND');
  const grants = row.grant ? new Map([[actor.userId, row.grant]]) : NO_GRANTS;
  const ownerPlan = ownerPlanNeeded(row, actor) ? await deps.plans.planOf(row.user_id, { fresh: freshPlan }) : null;
  return { row, access: accessOf(row, actor, grants, ownerPlan), ownerPlan };
}

/** svc.boards.access.check: what the joining actor may do; with `record`, the join is remembered */
export async function checkAccess(
  deps: BoardsDeps,
  input: { boardId: string; record?: boolean; freshPlan?: boolean },
  actor: RequestActor,
): Promise<AccessCheckReply> {
  const { row, access } = await resolveAccess(deps, input.boardId, actor, input.freshPlan);
  if (input.record && access !== 'none' && !isGuest(actor) && actor.userId !== row.user_id) {
    await recordJoin(deps.pool, row.id, actor.userId, deps.now());
  }
  return {
    access,
    readOnlyReason: await readOnlyReason(deps, row, access, input.freshPlan),
    board: presentSummary(row),
  };
}

/** plan limits or used-up collaboration minutes of the owner (policies/readOnly) */
async function readOnlyReason(
  deps: BoardsDeps,
  row: BoardRow,
  access: BoardAccess,
  freshPlan = false,
): Promise<ReadOnlyReason | null> {
  if (!mayBeReadOnly(access)) return null;
  const [plan, facts] = await Promise.all([
    deps.plans.planOf(row.user_id, { fresh: freshPlan }),
    readOnlyFacts(deps.pool, { id: row.id, ownerId: row.user_id, createdAt: row.created_at }, weekStartOf(deps.now())),
  ]);
  return readOnlyReasonOf({ access, ...facts }, plan.limits);
}

/**
 * GET /api/boards/{id}: the board for anyone who may open it (guests included). The web asks it
 * before a guest picks a name, so a refusal says why: ERR_BOARD_NOT_FOUND (unknown or trashed),
 * ERR_FEATURE_NOT_ENABLED (a guest, and the owner's plan has no `guests` feature: signing in or
 * the owner upgrading helps) or ERR_FORBIDDEN (restricted).
 */
export async function getBoard(deps: BoardsDeps, input: { boardId: string }, actor: RequestActor): Promise<BoardDto> {
  const { row, access, ownerPlan } = await resolveAccess(deps, input.boardId, actor);
  if (access === 'none') {
    // a trashed board is gone for everyone but its owner
    if (row.trashed_at) throw new AppError('ERR_BOARD_NOT_FOUND');
    if (isGuest(actor) && ownerPlan && !ownerPlan.features.guests) {
      throw new AppError('ERR_FEATURE_NOT_ENABLED', GUESTS_NOT_ON_PLAN);
    }
    throw new AppError('ERR_FORBIDDEN');
  }
  return presentBoard(row, access);
}

const GUESTS_NOT_ON_PLAN = "Guests cannot join this board: its owner's plan does not include guest access";

/** GET /api/boards/{id}/share: the link and the members (owner only) */
export async function getShare(deps: BoardsDeps, input: { boardId: string }, actor: RequestActor): Promise<BoardShare> {
  const userId = requireUserId(actor);
  const row = await findBoard(deps.pool, input.boardId);
  if (!row) throw new AppError('ERR_BOARD_NOT_FOUND');
  assertOwner(row, userId);
  const members = await listMembers(deps.pool, row.id);
  return presentShare(deps.env.APP_URL, row, members, await deps.names.namesOf(members.map((m) => m.user_id)));
}
