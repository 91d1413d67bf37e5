/**
 * Boards and folders endpoints (services/boards README). The list arrives as columns and is
 * expanded here once per fetch; every write invalidates the list (the server's list version
 * makes the refetch cheap).
 */
import {
  expandBoardList,
  type BoardBackground,
  type BoardDto,
  type BoardList,
  type BoardListItem,
  type BoardPermission,
  type BoardShare,
  type FolderDto,
} from '@wb/proto';
import { api } from '../../app/api';

export interface CreateBoardInput {
  title?: string;
  background?: BoardBackground;
  defaultPermission?: BoardPermission;
  deleteOwnOnly?: boolean;
  folder?: number | null;
}

export interface UpdateBoardInput {
  boardId: string;
  title?: string;
  background?: BoardBackground;
  defaultPermission?: BoardPermission;
  deleteOwnOnly?: boolean;
}

/** Board ids may contain slashes: each segment is encoded, the slashes stay (wildcard route). */
export const boardUrl = (id: string) => `api/boards/${id.split('/').map(encodeURIComponent).join('/')}`;

const withTags = api.enhanceEndpoints({ addTagTypes: ['Boards', 'Folders', 'Share'] });

export const boardsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    /** arg: the caller's id (expandBoardList needs it to mark owned boards) */
    getBoards: build.query<BoardListItem[], number>({
      // columns: half the bytes of the default list of boards, and cheaper to decode (proto BoardList)
      query: () => 'api/boards?format=columns',
      transformResponse: (list: BoardList, _meta, userId) => expandBoardList(list, userId),
      providesTags: ['Boards'],
    }),
    getFolders: build.query<FolderDto[], void>({
      query: () => 'api/folders',
      providesTags: ['Folders'],
    }),
    createBoard: build.mutation<BoardDto, CreateBoardInput>({
      query: (body) => ({ url: 'api/boards', method: 'POST', body }),
      invalidatesTags: ['Boards'],
    }),
    updateBoard: build.mutation<BoardDto, UpdateBoardInput>({
      query: ({ boardId, ...body }) => ({ url: boardUrl(boardId), method: 'PUT', body }),
      invalidatesTags: ['Boards', 'Share'],
    }),
    getShare: build.query<BoardShare, string>({
      query: (boardId) => `${boardUrl(boardId)}/share`,
      providesTags: ['Share'],
    }),
    /** one person's explicit permission (null: back to the board's default); answers the share */
    grantPermission: build.mutation<
      BoardShare,
      { boardId: string; userId: number; permission: BoardPermission | null }
    >({
      query: (body) => ({ url: 'api/boards/grant', method: 'POST', body }),
      invalidatesTags: ['Share', 'Boards'],
    }),
    trashBoards: build.mutation<{ boards: BoardListItem[] }, string[]>({
      query: (ids) => ({ url: 'api/boards/trash', method: 'POST', body: { ids } }),
      invalidatesTags: ['Boards'],
    }),
    restoreBoards: build.mutation<{ boards: BoardListItem[] }, string[]>({
      query: (ids) => ({ url: 'api/boards/restore', method: 'POST', body: { ids } }),
      invalidatesTags: ['Boards'],
    }),
    purgeBoards: build.mutation<{ ids: string[] }, string[]>({
      query: (ids) => ({ url: 'api/boards/purge', method: 'POST', body: { ids } }),
      invalidatesTags: ['Boards'],
    }),
    leaveBoards: build.mutation<{ ids: string[] }, string[]>({
      query: (ids) => ({ url: 'api/boards/leave', method: 'POST', body: { ids } }),
      invalidatesTags: ['Boards'],
    }),
    moveBoards: build.mutation<{ boards: BoardListItem[] }, { folder: number | null; boards: string[] }>({
      query: (body) => ({ url: 'api/folders/moveBoards', method: 'POST', body }),
      invalidatesTags: ['Boards'],
    }),
    createFolder: build.mutation<FolderDto, { name: string }>({
      query: (body) => ({ url: 'api/folders', method: 'POST', body }),
      invalidatesTags: ['Folders'],
    }),
    renameFolder: build.mutation<FolderDto, { folderId: number; name: string }>({
      query: ({ folderId, name }) => ({ url: `api/folders/${folderId}`, method: 'PUT', body: { name } }),
      invalidatesTags: ['Folders'],
    }),
    deleteFolder: build.mutation<{ ok: true; boardIds: string[] }, number>({
      query: (folderId) => ({ url: `api/folders/${folderId}`, method: 'DELETE' }),
      invalidatesTags: ['Folders', 'Boards'],
    }),
  }),
});

export const {
  useGetBoardsQuery,
  useGetFoldersQuery,
  useCreateBoardMutation,
  useUpdateBoardMutation,
  useGetShareQuery,
  useGrantPermissionMutation,
  useTrashBoardsMutation,
  useRestoreBoardsMutation,
  usePurgeBoardsMutation,
  useLeaveBoardsMutation,
  useMoveBoardsMutation,
  useCreateFolderMutation,
  useRenameFolderMutation,
  useDeleteFolderMutation,
} = boardsApi;
