/**
 * Dashboard (spec §2): folder sidebar and the board list of the selected view, with create,
 * rename, move, share, trash, restore and purge. Boards and folders load on entry.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { BoardListItem, FolderDto } from '@wb/proto';
import type { PageProps } from '../../app/pageProps';
import { LocalLink, useLocalPath } from '../../app/prefix';
import { isApiError } from '../../app/apiClient';
import { useAppDispatch } from '../../app/store';
import { ConfirmDialog } from '../../ui/kit/Dialog';
import { EmptyState, Loading } from '../../ui/EmptyState';
import { reportError } from '../../ui/reportError';
import { notify } from '../../ui/toastsSlice';
import { useCodeText } from '../../ui/useCodeText';
import { Button } from '../../ui/kit/Button';
import { useSession } from '../session/useSession';
import {
  useCreateBoardMutation,
  useCreateFolderMutation,
  useDeleteFolderMutation,
  useGetBoardsQuery,
  useGetFoldersQuery,
  useLeaveBoardsMutation,
  useMoveBoardsMutation,
  usePurgeBoardsMutation,
  useRenameFolderMutation,
  useRestoreBoardsMutation,
  useTrashBoardsMutation,
  useUpdateBoardMutation,
  type CreateBoardInput,
} from '../boards/boardsApi';
import {
  CreateBoardDialog,
  MoveDialog,
  NameDialog,
  ShareDialog,
  UpgradeDialog,
  BOARD_NAME_MAX,
  FOLDER_NAME_MAX,
  type UpgradeReason,
} from '../boards/BoardDialogs';
import { BoardList, type BoardAction, type BoardLayout } from '../boards/BoardList';
import { BoardsToolbar, SelectionBar } from '../boards/BoardsToolbar';
import {
  boardLimit,
  boardPath,
  canRestore,
  chunkIds,
  countByView,
  folderNames,
  isSortKey,
  parseViewKey,
  pruneSelection,
  selectBoards,
  type SortKey,
  type ViewKey,
} from '../boards/boardViews';
import { useBoardsStrings } from '../boards/useBoardsStrings';
import { FolderSidebar } from './FolderSidebar';
import { FOLDER_VIEWS } from './folderViews';
import '../boards/boards.css';

type Dialog =
  | { kind: 'create' }
  | { kind: 'renameBoard'; board: BoardListItem }
  | { kind: 'move'; ids: string[]; current: number | null | undefined }
  | { kind: 'share'; board: BoardListItem }
  | { kind: 'trash' | 'purge' | 'leave'; ids: string[]; title: string }
  | { kind: 'newFolder' }
  | { kind: 'renameFolder'; folder: FolderDto }
  | { kind: 'deleteFolder'; folder: FolderDto }
  | { kind: 'upgrade'; reason: UpgradeReason };

type Result = { data: unknown } | { error: unknown };

const SORT_STORAGE = 'wb.boardSort';
function storedSort(): SortKey {
  try {
    const v = localStorage.getItem(SORT_STORAGE);
    return isSortKey(v) ? v : 'recent';
  } catch {
    return 'recent';
  }
}

/** grid or list, per person (the key names the user: another account on this browser keeps its own) */
const layoutStorage = (userId: number) => `wb.boardLayout.${userId}`;
function storedLayout(userId: number): BoardLayout {
  try {
    const v = localStorage.getItem(layoutStorage(userId));
    return v === 'list' ? 'list' : 'grid';
  } catch {
    return 'grid';
  }
}

export function DashboardPage(props: PageProps) {
  const ready = useBoardsStrings();
  const key = parseViewKey(props.match.params.folderId);
  const lp = useLocalPath();
  if (!key) return <Navigate to={lp('/dashboard/boards/all')} replace />;
  return ready ? <Dashboard viewKey={key} /> : <Loading />;
}

function Dashboard({ viewKey }: { viewKey: ViewKey }) {
  const { t, i18n } = useTranslation();
  const { t: tb } = useTranslation('boards');
  const dispatch = useAppDispatch();
  const codeText = useCodeText();
  const navigate = useNavigate();
  const lp = useLocalPath();
  const { user, settings, plan } = useSession();
  const myId = user?.id ?? 0;

  const boardsQuery = useGetBoardsQuery(myId, { skip: !myId });
  const foldersQuery = useGetFoldersQuery(undefined, { skip: !myId });
  const boards = boardsQuery.data;
  const folders = useMemo(() => foldersQuery.data ?? [], [foldersQuery.data]);

  const [query, setQuery] = useState('');
  const [sort, setSortState] = useState<SortKey>(storedSort);
  const [layout, setLayoutState] = useState<BoardLayout>(() => storedLayout(myId));
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<Dialog>();
  const close = useCallback(() => setDialog(undefined), []);

  const viewId = typeof viewKey === 'object' ? String(viewKey.folder) : viewKey;
  useEffect(() => setSelected(new Set()), [viewId]);

  const setSort = (s: SortKey) => {
    setSortState(s);
    try {
      localStorage.setItem(SORT_STORAGE, s);
    } catch {
      // private mode: the choice lasts for this page only
    }
  };

  const setLayout = (l: BoardLayout) => {
    setLayoutState(l);
    try {
      localStorage.setItem(layoutStorage(myId), l);
    } catch {
      // private mode: the choice lasts for this page only
    }
  };

  const shown = useMemo(
    () => (boards ? selectBoards(boards, { key: viewKey, myId, query, sort, locale: i18n.language }) : []),
    [boards, viewKey, myId, query, sort, i18n.language],
  );
  const counts = useMemo(() => countByView(boards ?? [], myId), [boards, myId]);
  const limit = useMemo(() => boardLimit(boards ?? [], myId, plan.limits.maxBoards), [boards, myId, plan]);
  const names = useMemo(() => folderNames(folders), [folders]);
  const sel = useMemo(() => pruneSelection(new Set(selected), shown), [selected, shown]);
  const selectableIds = useMemo(() => shown.filter((b) => b.user_id === myId).map((b) => b.id), [shown, myId]);

  const folder = typeof viewKey === 'object' ? folders.find((f) => f.id === viewKey.folder) : undefined;
  const trashView = viewKey === 'trashed';

  /** Runs a call; plan errors open the upgrade prompt, others show a toast (spec §8). */
  const run = async (call: () => Promise<Result>, success?: string, feature: UpgradeReason = 'feature') => {
    const result = await call();
    if ('error' in result) {
      const error = result.error;
      if (isApiError(error) && error.code === 'ERR_MAX_BOARDS_REACHED')
        setDialog({ kind: 'upgrade', reason: 'boardLimit' });
      else if (isApiError(error) && error.code === 'ERR_FEATURE_NOT_ENABLED')
        setDialog({ kind: 'upgrade', reason: feature });
      else reportError(dispatch, error, codeText);
      return false;
    }
    if (success) dispatch(notify({ type: 'info', message: success }));
    return true;
  };
  /** Batch calls take at most 100 ids: larger selections go chunk by chunk. */
  const runBatch = async (
    ids: string[],
    call: (chunk: string[]) => Promise<Result>,
    success: string,
    feature?: UpgradeReason,
  ) => {
    for (const [i, chunk] of chunkIds(ids).entries()) {
      const last = i === Math.ceil(ids.length / 100) - 1;
      if (!(await run(() => call(chunk), last ? success : undefined, feature))) return false;
    }
    setSelected(new Set());
    return true;
  };

  const [createBoard] = useCreateBoardMutation();
  const [updateBoard] = useUpdateBoardMutation();
  const [trash] = useTrashBoardsMutation();
  const [restore] = useRestoreBoardsMutation();
  const [purge] = usePurgeBoardsMutation();
  const [leave] = useLeaveBoardsMutation();
  const [move] = useMoveBoardsMutation();
  const [createFolder] = useCreateFolderMutation();
  const [renameFolder] = useRenameFolderMutation();
  const [deleteFolder] = useDeleteFolderMutation();

  const openBoard = useCallback((b: BoardListItem) => void navigate(lp(boardPath(b.id))), [navigate, lp]);
  const toggle = useCallback(
    (id: string) =>
      setSelected((prev) => {
        const next = new Set(prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );
  const tryRestore = (ids: string[]) => {
    if (!canRestore(limit, ids.length)) {
      setDialog({ kind: 'upgrade', reason: 'boardLimit' });
      return;
    }
    void runBatch(ids, (c) => restore(c), tb('done.restored', { count: ids.length }));
  };
  const onAction = (action: BoardAction, board: BoardListItem) => {
    switch (action) {
      case 'rename':
        return setDialog({ kind: 'renameBoard', board });
      case 'move':
        return setDialog({ kind: 'move', ids: [board.id], current: board.folder_id });
      case 'share':
        return setDialog({ kind: 'share', board });
      case 'restore':
        return tryRestore([board.id]);
      default:
        return setDialog({ kind: action, ids: [board.id], title: board.title });
    }
  };

  const newBoard = () => setDialog(limit.reached ? { kind: 'upgrade', reason: 'boardLimit' } : { kind: 'create' });
  const newFolder = () =>
    setDialog(plan.features.folders ? { kind: 'newFolder' } : { kind: 'upgrade', reason: 'folders' });
  const selectedIds = [...sel];
  const sameFolder = (ids: string[]) => {
    const set = new Set(ids.map((id) => boards?.find((b) => b.id === id)?.folder_id ?? null));
    return set.size === 1 ? [...set][0] : undefined;
  };

  const viewTitle = folder
    ? folder.name
    : typeof viewKey === 'object'
      ? tb('view.folder')
      : t(FOLDER_VIEWS.find((v) => v.key === viewKey)!.label);

  let body;
  if (boardsQuery.isLoading || (boardsQuery.isUninitialized && !boards)) body = <Loading />;
  else if (boardsQuery.isError || !boards)
    body = (
      <EmptyState title={tb('list.loadFailed')}>
        <button type="button" onClick={() => void boardsQuery.refetch()}>
          {tb('list.retry')}
        </button>
      </EmptyState>
    );
  else if (typeof viewKey === 'object' && foldersQuery.isSuccess && !folder)
    body = (
      <EmptyState title={tb('view.unknownFolder')}>
        <LocalLink to="/dashboard/boards/all">{t('dashboard.all')}</LocalLink>
      </EmptyState>
    );
  else if (shown.length === 0)
    body = query.trim() ? (
      <EmptyState title={tb('list.noMatch', { query: query.trim() })} />
    ) : trashView ? (
      <EmptyState title={t('dashboard.trashEmpty')} />
    ) : viewKey === 'shared' || viewKey === 'unsorted' || typeof viewKey === 'object' ? (
      <EmptyState title={tb(`empty.${typeof viewKey === 'object' ? 'folder' : viewKey}Title`)}>
        <p>{tb(`empty.${typeof viewKey === 'object' ? 'folder' : viewKey}Text`)}</p>
      </EmptyState>
    ) : (
      <EmptyState title={t('dashboard.emptyTitle')}>
        <p>{t('dashboard.emptyText')}</p>
        {/* its own words: the tool bar's "New board" is on the page too */}
        {!limit.reached ? (
          <Button variant="primary" onClick={newBoard}>
            {tb('empty.createFirst')}
          </Button>
        ) : null}
      </EmptyState>
    );
  else
    body = (
      <BoardList
        boards={shown}
        myId={myId}
        selected={sel}
        onToggle={toggle}
        onOpen={openBoard}
        onAction={onAction}
        folderName={(id) => (id === null ? '' : (names.get(id) ?? ''))}
        label={viewTitle}
        layout={layout}
      />
    );

  return (
    <div className="with-sidebar dashboard">
      <FolderSidebar
        folders={folders}
        counts={counts}
        onNewFolder={newFolder}
        onRenameFolder={(f) => setDialog({ kind: 'renameFolder', folder: f })}
        onDeleteFolder={(f) => setDialog({ kind: 'deleteFolder', folder: f })}
      />
      <section className="page boards-page" aria-labelledby="board-list-title">
        <h1 id="board-list-title">{viewTitle}</h1>
        <BoardsToolbar
          query={query}
          onQuery={setQuery}
          sort={sort}
          onSort={setSort}
          layout={layout}
          onLayout={setLayout}
          limit={limit}
          onNewBoard={newBoard}
          onNewFolder={newFolder}
          trash={trashView}
        />
        {limit.reached && !trashView ? (
          <p className="limit-note" role="status">
            {tb('toolbar.limitReached', { max: limit.max })}{' '}
            <button type="button" className="link" onClick={() => setDialog({ kind: 'upgrade', reason: 'boardLimit' })}>
              {tb('toolbar.moreBoards')}
            </button>
          </p>
        ) : null}
        <SelectionBar
          count={sel.size}
          selectable={selectableIds.length}
          allSelected={selectableIds.length > 0 && sel.size === selectableIds.length}
          onSelectAll={(on) => setSelected(new Set(on ? selectableIds : []))}
          trash={trashView}
          onMove={() => setDialog({ kind: 'move', ids: selectedIds, current: sameFolder(selectedIds) })}
          onTrash={() => setDialog({ kind: 'trash', ids: selectedIds, title: '' })}
          onRestore={() => tryRestore(selectedIds)}
          onPurge={() => setDialog({ kind: 'purge', ids: selectedIds, title: '' })}
        />
        {body}
      </section>
      {dialog?.kind === 'create' ? (
        <CreateBoardDialog
          settings={settings}
          plan={plan}
          folder={folder}
          onClose={close}
          onCreate={async (input: CreateBoardInput) => {
            let created: string | undefined;
            const ok = await run(
              async () => {
                const result = await createBoard(input);
                if ('data' in result && result.data) created = result.data.id;
                return result;
              },
              tb('done.created'),
              input.folder ? 'folders' : 'collaborationControls',
            );
            // a new board is for drawing on: open it (spec §2)
            if (ok && created) void navigate(lp(boardPath(created)));
            return ok;
          }}
        />
      ) : null}
      {dialog?.kind === 'renameBoard' ? (
        <NameDialog
          title={tb('rename.title')}
          label={tb('rename.label')}
          submitLabel={tb('rename.submit')}
          initial={dialog.board.title}
          maxLength={BOARD_NAME_MAX}
          onClose={close}
          onSave={(title) => run(() => updateBoard({ boardId: dialog.board.id, title }), tb('done.renamed'))}
        />
      ) : null}
      {dialog?.kind === 'move' ? (
        <MoveDialog
          count={dialog.ids.length}
          folders={folders}
          current={dialog.current}
          onClose={close}
          onMove={(target) =>
            runBatch(
              dialog.ids,
              (c) => move({ folder: target, boards: c }),
              tb('done.moved', {
                count: dialog.ids.length,
                folder: target === null ? tb('move.unsorted') : (names.get(target) ?? ''),
              }),
              'folders',
            )
          }
        />
      ) : null}
      {dialog?.kind === 'share' ? (
        <ShareDialog
          boardId={dialog.board.id}
          boardTitle={dialog.board.title}
          plan={plan}
          onClose={close}
          onError={(error) =>
            void run(async () => ({ error }), undefined, 'collaborationControls').then(() => undefined)
          }
        />
      ) : null}
      {dialog?.kind === 'trash' || dialog?.kind === 'purge' || dialog?.kind === 'leave' ? (
        <ConfirmDialog
          title={tb(`confirm.${dialog.kind}Title`, { count: dialog.ids.length })}
          confirmLabel={tb(`action.${dialog.kind}`)}
          onCancel={close}
          onConfirm={() => {
            const { kind, ids } = dialog;
            close();
            const call = kind === 'trash' ? trash : kind === 'purge' ? purge : leave;
            void runBatch(ids, (c) => call(c), tb(`done.${kind}`, { count: ids.length }));
          }}
        >
          <p>
            {dialog.ids.length === 1 && dialog.title
              ? tb(`confirm.${dialog.kind}One`, { title: dialog.title })
              : tb(`confirm.${dialog.kind}Many`, { count: dialog.ids.length })}
          </p>
        </ConfirmDialog>
      ) : null}
      {dialog?.kind === 'newFolder' ? (
        <NameDialog
          title={tb('folder.newTitle')}
          label={tb('folder.name')}
          submitLabel={tb('folder.create')}
          initial=""
          maxLength={FOLDER_NAME_MAX}
          onClose={close}
          onSave={(name) => run(() => createFolder({ name }), tb('done.folderCreated'), 'folders')}
        />
      ) : null}
      {dialog?.kind === 'renameFolder' ? (
        <NameDialog
          title={tb('folder.rename')}
          label={tb('folder.name')}
          submitLabel={tb('rename.submit')}
          initial={dialog.folder.name}
          maxLength={FOLDER_NAME_MAX}
          onClose={close}
          onSave={(name) =>
            run(() => renameFolder({ folderId: dialog.folder.id, name }), tb('done.folderRenamed'), 'folders')
          }
        />
      ) : null}
      {dialog?.kind === 'deleteFolder' ? (
        <ConfirmDialog
          title={tb('confirm.folderTitle', { name: dialog.folder.name })}
          confirmLabel={tb('folder.delete')}
          onCancel={close}
          onConfirm={() => {
            const { folder: f } = dialog;
            close();
            void run(() => deleteFolder(f.id), tb('done.folderDeleted')).then((ok) => {
              if (ok && typeof viewKey === 'object' && viewKey.folder === f.id)
                void navigate(lp('/dashboard/boards/all'));
            });
          }}
        >
          <p>{tb('confirm.folderText')}</p>
        </ConfirmDialog>
      ) : null}
      {dialog?.kind === 'upgrade' ? (
        <UpgradeDialog reason={dialog.reason} maxBoards={limit.max} onClose={close} />
      ) : null}
    </div>
  );
}
