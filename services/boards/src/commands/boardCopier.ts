/**
 * board.duplicate (NATS only, the courses service: a participant's own copy of a teacher's
 * board, issue 29). The content is copied first (realtime, under a fresh id nobody knows yet),
 * then the row and its created event are written in one transaction: a failed copy leaves no
 * board behind, and no board exists without its content. The copy is the teacher's material, so
 * it is made outside the owner's board limit (`copied_from`; countActiveOwned, readOnlyFacts).
 */
import { appendEvent, withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { findBoard, insertBoard } from '../repositories/boards';
import { SCHEMA } from './deps';
import type { BoardsDeps } from './deps';

export async function duplicateBoard(
  deps: BoardsDeps,
  input: { sourceBoardId: string; ownerId: number; title: string },
  actor: RequestActor,
): Promise<{ boardId: string }> {
  requireUserId(actor);
  const source = await findBoard(deps.pool, input.sourceBoardId);
  // a trashed board is gone for everyone but its owner (board.get)
  if (!source || source.trashed_at) throw new AppError('ERR_BOARD_NOT_FOUND');
  const id = deps.newBoardId();
  await deps.content.copy(source.id, id);
  return withTransaction(deps.pool, async (client) => {
    const row = await insertBoard(client, {
      id,
      userId: input.ownerId,
      title: input.title,
      folderId: null,
      background: source.background,
      defaultPermission: source.default_permission,
      deleteOwnOnly: source.delete_own_only,
      now: deps.now(),
      copiedFrom: source.id,
    });
    await appendEvent(client, SCHEMA, 'boards.board.created.v1', {
      boardId: row.id,
      ownerId: row.user_id,
      title: row.title,
      folderId: null,
      background: row.background,
      defaultPermission: row.default_permission,
      deleteOwnOnly: row.delete_own_only,
      copiedFrom: source.id,
    });
    return { boardId: row.id };
  });
}
