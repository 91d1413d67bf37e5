/**
 * The one answer to "what may user U (or a guest holding the link) do on board B" (spec §4, §6):
 * own ⊃ edit ⊃ view, or none. The realtime nodes ask it on every join (access.check); the
 * dashboard calls and the "shared with me" list use it too.
 *
 *  - the owner: own (trashed or not; the owner can always delete anything);
 *  - anyone else on a trashed board: none (non-owners stop seeing trashed boards);
 *  - a guest (userId 0): the board's default permission, but only when the OWNER's plan has the
 *    `guests` feature, else none; grants never apply to guests (they have no id);
 *  - a logged-in user: their explicit grant if there is one, else the default permission.
 */
import { AppError } from '@wb/proto';
import type { BoardAccess, BoardPermission, Plan, RequestActor } from '@wb/proto';
import { isGuest } from './actor';

export interface BoardAccessFacts {
  user_id: number;
  default_permission: BoardPermission;
  trashed_at: Date | null;
}

/** explicit permissions by user id */
export type BoardGrants = ReadonlyMap<number, BoardPermission>;
export const NO_GRANTS: BoardGrants = new Map();

/**
 * `ownerPlan` is only consulted for guests (see ownerPlanNeeded); null = not known, which denies
 * guests (fail closed).
 */
export function accessOf(
  board: BoardAccessFacts,
  actor: Pick<RequestActor, 'userId'>,
  grants: BoardGrants,
  ownerPlan: Pick<Plan, 'features'> | null,
): BoardAccess {
  if (!isGuest(actor) && actor.userId === board.user_id) return 'own';
  if (board.trashed_at !== null) return 'none';
  if (isGuest(actor)) return ownerPlan?.features.guests ? board.default_permission : 'none';
  return grants.get(actor.userId) ?? board.default_permission;
}

/** whether accessOf needs the owner's plan for this actor (so callers ask auth only then) */
export function ownerPlanNeeded(
  board: Pick<BoardAccessFacts, 'user_id'>,
  actor: Pick<RequestActor, 'userId'>,
): boolean {
  return isGuest(actor) && board.user_id > 0;
}

/**
 * Board metadata (rename, settings, grants, share link, trash, restore, purge, move) is the
 * owner's alone. Unknown boards answer ERR_BOARD_NOT_FOUND before this is asked.
 */
export function assertOwner(board: Pick<BoardAccessFacts, 'user_id'>, userId: number): void {
  if (board.user_id !== userId) throw new AppError('ERR_FORBIDDEN', 'Only the owner of the board can do this');
}
