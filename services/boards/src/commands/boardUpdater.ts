/**
 * PUT /api/boards/{id} (rename, spec §7; background, default permission, collaboration control)
 * and per-user grants. Board metadata is the owner's alone.
 */
import { appendEvent, withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { BoardBackground, BoardDto, BoardPermission, BoardShare, RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { assertOwner } from '../policies/boardAccess';
import { assertFeature } from '../policies/planRules';
import { presentBoard, presentShare } from '../presenters/board';
import { findBoard, updateBoard } from '../repositories/boards';
import { listMembers, setGrant } from '../repositories/members';
import { SCHEMA } from './deps';
import type { BoardsDeps } from './deps';

export interface UpdateBoardInput {
  boardId: string;
  title?: string;
  background?: BoardBackground;
  defaultPermission?: BoardPermission;
  deleteOwnOnly?: boolean;
}

export async function updateBoardMeta(
  deps: BoardsDeps,
  input: UpdateBoardInput,
  actor: RequestActor,
): Promise<BoardDto> {
  const userId = requireUserId(actor);
  // only the owner may update, so the owner's plan is the caller's; asked outside the transaction
  const plan = input.deleteOwnOnly === true ? await deps.plans.planOf(userId) : null;
  return withTransaction(deps.pool, async (client) => {
    const before = await findBoard(client, input.boardId, { forUpdate: true });
    if (!before) throw new AppError('ERR_BOARD_NOT_FOUND');
    assertOwner(before, userId);
    // restricting deletions to creators needs a paid plan; lifting the restriction never does
    if (plan && !before.delete_own_only) assertFeature(plan, 'collaborationControls', 'deleteOwnOnly');
    const row = await updateBoard(client, before.id, { ...input, now: deps.now() });

    const base = { boardId: row.id, ownerId: row.user_id };
    if (row.title !== before.title) {
      await appendEvent(client, SCHEMA, 'boards.board.renamed.v1', {
        ...base,
        title: row.title,
        previousTitle: before.title,
      });
    }
    if (row.default_permission !== before.default_permission) {
      await appendEvent(client, SCHEMA, 'boards.board.permissions_changed.v1', {
        ...base,
        defaultPermission: row.default_permission,
        grant: null,
      });
    }
    if (row.background !== before.background || row.delete_own_only !== before.delete_own_only) {
      await appendEvent(client, SCHEMA, 'boards.board.settings_changed.v1', {
        ...base,
        background: row.background,
        deleteOwnOnly: row.delete_own_only,
      });
    }
    return presentBoard(row, 'own');
  });
}

/** POST /api/boards/grant: one user's explicit permission (null: back to the default) */
async function assertUserExists(deps: BoardsDeps, userId: number): Promise<void> {
  const names = await deps.names.namesOf([userId]);
  if (names === null) throw new AppError('ERR_TEMPORARY_PROBLEM');
  if (names[String(userId)] === undefined) {
    throw new AppError('ERR_USER_NOT_FOUND', undefined, { userId: 'there is no such user' });
  }
}

export async function grantPermission(
  deps: BoardsDeps,
  input: { boardId: string; userId: number; permission: BoardPermission | null },
  actor: RequestActor,
): Promise<BoardShare> {
  const userId = requireUserId(actor);
  // a grant names an account: refuse ids auth does not know (removing a grant needs no account)
  if (input.permission !== null) await assertUserExists(deps, input.userId);
  const { row, members } = await withTransaction(deps.pool, async (client) => {
    const row = await findBoard(client, input.boardId, { forUpdate: true });
    if (!row) throw new AppError('ERR_BOARD_NOT_FOUND');
    assertOwner(row, userId);
    if (input.userId === row.user_id) {
      throw new AppError('ERR_INVALID_INPUT', 'The owner always has full access', {
        userId: 'the owner always has full access',
      });
    }
    await setGrant(client, row.id, input.userId, input.permission);
    const members = await listMembers(client, row.id);
    await appendEvent(client, SCHEMA, 'boards.board.permissions_changed.v1', {
      boardId: row.id,
      ownerId: row.user_id,
      defaultPermission: row.default_permission,
      grant: { userId: input.userId, permission: input.permission },
    });
    return { row, members };
  });
  // names are asked of auth after the commit: no transaction held open across a NATS round trip
  return presentShare(deps.env.APP_URL, row, members, await deps.names.namesOf(members.map((m) => m.user_id)));
}
