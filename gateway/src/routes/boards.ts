/**
 * Boards routes (spec §7 and the boards issue). Paths are the web's; operations and schemas come
 * from `boardsOperations` in proto. Board ids may contain slashes, so `{boardId}` is a wildcard
 * param (`:boardId(*)`, joined back into one string by forward.ts). Express tries routes in
 * order: the `/share` route must come before `GET /api/boards/:boardId(*)`, which would
 * otherwise take `…/share` as part of the id.
 */
import { z } from 'zod';
import {
  boardIdSchema,
  boardsListInputSchema,
  boardsOperations,
  boardUpdateBodySchema,
  folderIdParamSchema,
  folderRenameBodySchema,
} from '@wb/proto';
import type { BoardsOperation, ErrorCode } from '@wb/proto';
import { defineRoutes } from './types';
import type { HttpMethod, RouteDef } from './types';

const boardParams = z.object({ boardId: boardIdSchema });
const folderParams = z.object({ folderId: folderIdParamSchema });

function route(
  method: HttpMethod,
  path: string,
  operation: BoardsOperation,
  summary: string,
  extra: Partial<RouteDef> & Pick<RouteDef, 'auth'>,
): RouteDef {
  const op = boardsOperations[operation];
  return {
    method,
    path,
    summary,
    tag: 'boards',
    service: 'boards',
    operation,
    ...(method === 'get' || method === 'delete' ? {} : { body: op.input }),
    response: op.output,
    ...extra,
  };
}

const batchErrors: ErrorCode[] = ['ERR_BOARD_NOT_FOUND', 'ERR_FORBIDDEN', 'ERR_INVALID_INPUT'];

export const boardsRoutes = defineRoutes([
  route(
    'get',
    '/api/boards',
    'boards.list',
    'The caller’s boards (trashed included) and the boards shared with them: a list of boards, or columns with format=columns',
    { auth: 'required', query: boardsListInputSchema, errors: ['ERR_INVALID_INPUT'] },
  ),
  route('get', '/api/folders', 'folders.list', 'The caller’s folders', { auth: 'required' }),
  route('post', '/api/boards', 'board.create', 'Create a board', {
    auth: 'required',
    errors: ['ERR_MAX_BOARDS_REACHED', 'ERR_FEATURE_NOT_ENABLED', 'ERR_INVALID_INPUT'],
  }),
  route('post', '/api/boards/trash', 'boards.trash', 'Move boards to the trash (owner only; all or nothing)', {
    auth: 'required',
    errors: batchErrors,
  }),
  route('post', '/api/boards/restore', 'boards.restore', 'Restore trashed boards (owner only; within maxBoards)', {
    auth: 'required',
    errors: [...batchErrors, 'ERR_MAX_BOARDS_REACHED'],
  }),
  route('post', '/api/boards/purge', 'boards.purge', 'Delete trashed boards for good, content included', {
    auth: 'required',
    errors: batchErrors,
  }),
  route('post', '/api/boards/leave', 'boards.leave', 'Remove boards shared with the caller from their list', {
    auth: 'required',
    errors: batchErrors,
  }),
  route(
    'post',
    '/api/boards/grant',
    'board.grant',
    'Give one user an explicit permission on a board (null removes it; owner only)',
    { auth: 'required', errors: ['ERR_BOARD_NOT_FOUND', 'ERR_FORBIDDEN', 'ERR_INVALID_INPUT'] },
  ),
  route('get', '/api/boards/:boardId(*)/share', 'board.share', 'The board’s share link and members (owner only)', {
    auth: 'required',
    params: boardParams,
    errors: ['ERR_BOARD_NOT_FOUND', 'ERR_FORBIDDEN'],
  }),
  route('get', '/api/boards/:boardId(*)', 'board.get', 'One board with the caller’s access (guests too)', {
    auth: 'optional',
    params: boardParams,
    // ERR_FEATURE_NOT_ENABLED: a guest, and the owner's plan has no guest access
    errors: ['ERR_BOARD_NOT_FOUND', 'ERR_FORBIDDEN', 'ERR_FEATURE_NOT_ENABLED'],
  }),
  route(
    'put',
    '/api/boards/:boardId(*)',
    'board.update',
    'Rename a board and/or change its background, default permission or collaboration control (owner only)',
    {
      auth: 'required',
      params: boardParams,
      body: boardUpdateBodySchema,
      errors: ['ERR_BOARD_NOT_FOUND', 'ERR_FORBIDDEN', 'ERR_FEATURE_NOT_ENABLED', 'ERR_INVALID_INPUT'],
    },
  ),
  route('post', '/api/folders', 'folder.create', 'Create a folder (folders feature)', {
    auth: 'required',
    errors: ['ERR_FEATURE_NOT_ENABLED', 'ERR_INVALID_INPUT'],
  }),
  route('post', '/api/folders/moveBoards', 'boards.move', 'Move boards into a folder (null: unsorted)', {
    auth: 'required',
    errors: [...batchErrors, 'ERR_FEATURE_NOT_ENABLED'],
  }),
  route('put', '/api/folders/:folderId', 'folder.rename', 'Rename a folder (folders feature)', {
    auth: 'required',
    params: folderParams,
    body: folderRenameBodySchema,
    errors: ['ERR_NOT_FOUND', 'ERR_FEATURE_NOT_ENABLED', 'ERR_INVALID_INPUT'],
  }),
  route('delete', '/api/folders/:folderId', 'folder.delete', 'Delete a folder; its boards become unsorted', {
    auth: 'required',
    params: folderParams,
    errors: ['ERR_NOT_FOUND'],
  }),
]);
