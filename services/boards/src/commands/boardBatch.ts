/**
 * The batch calls: trash, restore, purge (spec §7), leave, and moveBoards. Each is all or
 * nothing: every id is checked first (known, the caller's own board, in the right state) inside
 * one transaction holding the rows FOR UPDATE, and any bad id fails the whole call with the
 * offending ids in `fields` ({ <id>: reason }). Ids named twice count once.
 */
import { appendEvent, withTransaction } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { BoardListItem, RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { assertFeature, assertWithinBoardLimit } from '../policies/planRules';
import { presentListItem } from '../presenters/board';
import {
  clearTrashed,
  countActiveOwned,
  deleteBoards,
  findBoards,
  lockBoards,
  markTrashed,
  setFolder,
} from '../repositories/boards';
import type { BoardRow } from '../repositories/boards';
import { lockOwner } from '../repositories/db';
import { findOwnFolder } from '../repositories/folders';
import { leaveBoards as leaveBoardRows } from '../repositories/members';
import { SCHEMA } from './deps';
import type { BoardsDeps } from './deps';

const unique = (ids: string[]): string[] => [...new Set(ids)];

function refuse(
  code: 'ERR_BOARD_NOT_FOUND' | 'ERR_FORBIDDEN' | 'ERR_INVALID_INPUT',
  ids: string[],
  reason: string,
): never {
  const fields = Object.fromEntries(ids.map((id) => [id, reason]));
  throw new AppError(code, `${reason}: ${ids.join(', ')}`, fields);
}

/** Unknown ids → ERR_BOARD_NOT_FOUND; boards of others → ERR_FORBIDDEN (only the owner manages a board). */
function assertAllOwned(ids: string[], rows: BoardRow[], userId: number): void {
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) refuse('ERR_BOARD_NOT_FOUND', missing, 'board not found');
  const foreign = rows.filter((r) => r.user_id !== userId).map((r) => r.id);
  if (foreign.length) refuse('ERR_FORBIDDEN', foreign, 'not your board');
}

async function lockOwned(client: PoolClient, ids: string[], userId: number): Promise<BoardRow[]> {
  const rows = await lockBoards(client, ids);
  assertAllOwned(ids, rows, userId);
  return rows;
}

/** the answer in the order the ids were asked, with the rows' latest state */
function inOrder(ids: string[], ...rowSets: BoardRow[][]): BoardListItem[] {
  const byId = new Map<string, BoardRow>();
  for (const rows of rowSets) for (const r of rows) byId.set(r.id, r);
  return ids.map((id) => presentListItem(byId.get(id)!));
}

/** Trash: sets the time and counts it (spec §4). Boards already in the trash stay as they are. */
export async function trashBoards(
  deps: BoardsDeps,
  input: { ids: string[] },
  actor: RequestActor,
): Promise<{ boards: BoardListItem[] }> {
  const userId = requireUserId(actor);
  const ids = unique(input.ids);
  return withTransaction(deps.pool, async (client) => {
    const rows = await lockOwned(client, ids, userId);
    const trashed = await markTrashed(
      client,
      rows.filter((r) => r.trashed_at === null).map((r) => r.id),
      deps.now(),
    );
    for (const r of trashed) {
      await appendEvent(client, SCHEMA, 'boards.board.trashed.v1', {
        boardId: r.id,
        ownerId: r.user_id,
        trashedAt: r.trashed_at!.toISOString(),
        trashedCount: r.trashed_count,
      });
    }
    return { boards: inOrder(ids, rows, trashed) };
  });
}

/** Restore: clears the trash time; the restored boards must fit under maxBoards (spec §5). */
export async function restoreBoards(
  deps: BoardsDeps,
  input: { ids: string[] },
  actor: RequestActor,
): Promise<{ boards: BoardListItem[] }> {
  const userId = requireUserId(actor);
  const ids = unique(input.ids);
  const plan = await deps.plans.planOf(userId);
  return withTransaction(deps.pool, async (client) => {
    await lockOwner(client, userId);
    const rows = await lockOwned(client, ids, userId);
    const trashed = rows.filter((r) => r.trashed_at !== null);
    const toRestore = trashed.map((r) => r.id);
    // course copies are outside the limit (board.duplicate)
    const counted = trashed.filter((r) => r.copied_from === null).length;
    assertWithinBoardLimit(plan, await countActiveOwned(client, userId), counted);
    const restored = await clearTrashed(client, toRestore, deps.now());
    for (const r of restored) {
      await appendEvent(client, SCHEMA, 'boards.board.restored.v1', { boardId: r.id, ownerId: r.user_id });
    }
    return { boards: inOrder(ids, rows, restored) };
  });
}

/** Purge: only boards in the trash; gone for good, their content with them (purged event). */
export async function purgeBoards(
  deps: BoardsDeps,
  input: { ids: string[] },
  actor: RequestActor,
): Promise<{ ids: string[] }> {
  const userId = requireUserId(actor);
  const ids = unique(input.ids);
  const purged = await withTransaction(deps.pool, async (client) => {
    const rows = await lockOwned(client, ids, userId);
    const notTrashed = rows.filter((r) => r.trashed_at === null).map((r) => r.id);
    if (notTrashed.length) refuse('ERR_INVALID_INPUT', notTrashed, 'not in the trash');
    const deleted = await deleteBoards(client, ids);
    for (const r of deleted) {
      await appendEvent(client, SCHEMA, 'boards.board.purged.v1', {
        boardId: r.id,
        ownerId: r.user_id,
        reason: 'owner',
      });
    }
    return deleted.map((r) => r.id);
  });
  deps.metrics.purged.inc({ reason: 'owner' }, purged.length);
  return { ids: purged };
}

/** Leave: boards shared with the caller disappear from their list (until they join again). */
export async function leaveBoards(
  deps: BoardsDeps,
  input: { ids: string[] },
  actor: RequestActor,
): Promise<{ ids: string[] }> {
  const userId = requireUserId(actor);
  const ids = unique(input.ids);
  return withTransaction(deps.pool, async (client) => {
    const rows = await findBoards(client, ids);
    const found = new Set(rows.map((r) => r.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) refuse('ERR_BOARD_NOT_FOUND', missing, 'board not found');
    const own = rows.filter((r) => r.user_id === userId).map((r) => r.id);
    if (own.length) refuse('ERR_INVALID_INPUT', own, 'your own board: trash it instead');
    return { ids: await leaveBoardRows(client, userId, ids) };
  });
}

/** POST /api/folders/moveBoards: into one of the caller's folders (folders feature) or unsorted (null). */
export async function moveBoards(
  deps: BoardsDeps,
  input: { folder: number | null; boards: string[] },
  actor: RequestActor,
): Promise<{ boards: BoardListItem[] }> {
  const userId = requireUserId(actor);
  const ids = unique(input.boards);
  if (input.folder !== null) assertFeature(await deps.plans.planOf(userId), 'folders', 'folder');
  return withTransaction(deps.pool, async (client) => {
    if (input.folder !== null && !(await findOwnFolder(client, input.folder, userId))) {
      throw new AppError('ERR_INVALID_INPUT', 'Unknown folder', { folder: 'unknown folder' });
    }
    const rows = await lockOwned(client, ids, userId);
    const moving = rows.filter((r) => r.folder_id !== input.folder);
    const moved = await setFolder(
      client,
      moving.map((r) => r.id),
      input.folder,
      deps.now(),
    );
    const previous = new Map(moving.map((r) => [r.id, r.folder_id]));
    for (const r of moved) {
      await appendEvent(client, SCHEMA, 'boards.board.moved.v1', {
        boardId: r.id,
        ownerId: r.user_id,
        folderId: r.folder_id,
        previousFolderId: previous.get(r.id) ?? null,
      });
    }
    return { boards: inOrder(ids, rows, moved) };
  });
}
