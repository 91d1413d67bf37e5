/**
 * Folders (spec §3: id, name). Creating and renaming need the `folders` plan feature; deleting
 * never does (a user who lost the feature can still tidy up). Deleting a folder makes its boards
 * unsorted (spec §4). Another user's folder is "not found".
 */
import { appendEvent, withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { FolderDto, RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { assertFeature } from '../policies/planRules';
import { presentFolder } from '../presenters/board';
import { unsortFolder } from '../repositories/boards';
import {
  deleteFolder as deleteFolderRow,
  findOwnFolder,
  insertFolder,
  listFolders as listFolderRows,
  renameFolder as renameFolderRow,
} from '../repositories/folders';
import { SCHEMA } from './deps';
import type { BoardsDeps } from './deps';

export async function listFolders(deps: BoardsDeps, actor: RequestActor): Promise<FolderDto[]> {
  const userId = requireUserId(actor);
  return (await listFolderRows(deps.pool, userId)).map(presentFolder);
}

export async function createFolder(deps: BoardsDeps, input: { name: string }, actor: RequestActor): Promise<FolderDto> {
  const userId = requireUserId(actor);
  assertFeature(await deps.plans.planOf(userId), 'folders');
  return withTransaction(deps.pool, async (client) => {
    const row = await insertFolder(client, userId, input.name, deps.now());
    await appendEvent(client, SCHEMA, 'boards.folder.created.v1', {
      folderId: row.id,
      ownerId: userId,
      name: row.name,
    });
    return presentFolder(row);
  });
}

export async function renameFolder(
  deps: BoardsDeps,
  input: { folderId: number; name: string },
  actor: RequestActor,
): Promise<FolderDto> {
  const userId = requireUserId(actor);
  assertFeature(await deps.plans.planOf(userId), 'folders');
  return withTransaction(deps.pool, async (client) => {
    const folder = await findOwnFolder(client, input.folderId, userId, { forUpdate: true });
    if (!folder) throw new AppError('ERR_NOT_FOUND', 'Folder not found');
    const row = await renameFolderRow(client, folder.id, input.name);
    await appendEvent(client, SCHEMA, 'boards.folder.renamed.v1', {
      folderId: row.id,
      ownerId: userId,
      name: row.name,
    });
    return presentFolder(row);
  });
}

export async function deleteFolder(
  deps: BoardsDeps,
  input: { folderId: number },
  actor: RequestActor,
): Promise<{ ok: true; boardIds: string[] }> {
  const userId = requireUserId(actor);
  return withTransaction(deps.pool, async (client) => {
    const folder = await findOwnFolder(client, input.folderId, userId, { forUpdate: true });
    if (!folder) throw new AppError('ERR_NOT_FOUND', 'Folder not found');
    const boardIds = await unsortFolder(client, folder.id, deps.now());
    await deleteFolderRow(client, folder.id);
    await appendEvent(client, SCHEMA, 'boards.folder.deleted.v1', { folderId: folder.id, ownerId: userId, boardIds });
    return { ok: true as const, boardIds };
  });
}
