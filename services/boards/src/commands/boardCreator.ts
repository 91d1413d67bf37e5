/**
 * POST /api/boards. The web applies the creator's new-board settings (background, permission,
 * collaboration control) and sends them; missing fields get the spec §3 defaults here.
 */
import { appendEvent, withTransaction } from '@wb/platform';
import { AppError, DEFAULT_BOARD_TITLE } from '@wb/proto';
import type { BoardBackground, BoardDto, BoardPermission, RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { assertFeature, assertWithinBoardLimit } from '../policies/planRules';
import { presentBoard } from '../presenters/board';
import { countActiveOwned, insertBoard } from '../repositories/boards';
import { lockOwner } from '../repositories/db';
import { findOwnFolder } from '../repositories/folders';
import { SCHEMA } from './deps';
import type { BoardsDeps } from './deps';

export interface CreateBoardInput {
  title?: string;
  background?: BoardBackground;
  defaultPermission?: BoardPermission;
  deleteOwnOnly?: boolean;
  folder?: number | null;
}

export async function createBoard(deps: BoardsDeps, input: CreateBoardInput, actor: RequestActor): Promise<BoardDto> {
  const userId = requireUserId(actor);
  // asked before the transaction: no lock is held while waiting on the auth service
  const plan = await deps.plans.planOf(userId);
  if (input.deleteOwnOnly) assertFeature(plan, 'collaborationControls', 'deleteOwnOnly');
  const folderId = input.folder ?? null;
  if (folderId !== null) assertFeature(plan, 'folders', 'folder');

  return withTransaction(deps.pool, async (client) => {
    await lockOwner(client, userId);
    assertWithinBoardLimit(plan, await countActiveOwned(client, userId), 1);
    if (folderId !== null && !(await findOwnFolder(client, folderId, userId))) {
      throw new AppError('ERR_INVALID_INPUT', 'Unknown folder', { folder: 'unknown folder' });
    }
    const row = await insertBoard(client, {
      id: deps.newBoardId(),
      userId,
      title: input.title ?? DEFAULT_BOARD_TITLE,
      folderId,
      background: input.background ?? 'empty',
      defaultPermission: input.defaultPermission ?? 'edit',
      deleteOwnOnly: input.deleteOwnOnly ?? false,
      now: deps.now(),
    });
    await appendEvent(client, SCHEMA, 'boards.board.created.v1', {
      boardId: row.id,
      ownerId: userId,
      title: row.title,
      folderId: row.folder_id,
      background: row.background,
      defaultPermission: row.default_permission,
      deleteOwnOnly: row.delete_own_only,
    });
    return presentBoard(row, 'own');
  });
}
