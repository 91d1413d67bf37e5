/**
 * auth.user.terminated.v1: the account is gone and nobody can restore its boards, so they are
 * purged at once (not trashed), content included (purged events), with the user's folders and
 * their joins and grants on other people's boards. Runs inside the consumer's transaction.
 */
import { appendEvent } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import { deleteOwnedBoards } from '../repositories/boards';
import { deleteUserFolders } from '../repositories/folders';
import { deleteUserMemberships } from '../repositories/members';
import { SCHEMA } from './deps';

export async function removeTerminatedUser(client: PoolClient, userId: number): Promise<{ purged: number }> {
  const boardIds = await deleteOwnedBoards(client, userId);
  await deleteUserFolders(client, userId);
  await deleteUserMemberships(client, userId);
  for (const boardId of boardIds) {
    await appendEvent(client, SCHEMA, 'boards.board.purged.v1', {
      boardId,
      ownerId: userId,
      reason: 'owner_terminated',
    });
  }
  return { purged: boardIds.length };
}
