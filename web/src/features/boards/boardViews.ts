/**
 * The dashboard's board list logic, free of React (spec §4 "board list views by key", §5 board
 * limit): which boards a view shows, search, sort, the board limit and batching.
 */
import type { BoardListItem, FolderDto } from '@wb/proto';
import { BOARD_BATCH_MAX } from '@wb/proto';

/** A view key of the URL `dashboard/boards/{key}`: a fixed key or a folder id. */
export type ViewKey = 'all' | 'owned' | 'shared' | 'unsorted' | 'trashed' | { folder: number };

export const FIXED_VIEW_KEYS = ['all', 'owned', 'shared', 'unsorted', 'trashed'] as const;

/** The URL segment (`all`, `12`, …) → a view key; unknown segments are undefined. */
export function parseViewKey(segment: string | undefined): ViewKey | undefined {
  if (segment === undefined || segment === '') return 'all';
  if ((FIXED_VIEW_KEYS as readonly string[]).includes(segment)) return segment as ViewKey;
  if (/^[1-9]\d{0,9}$/.test(segment)) return { folder: Number(segment) };
  return undefined;
}

export function viewPath(key: ViewKey): string {
  return `/dashboard/boards/${typeof key === 'object' ? key.folder : key}`;
}

export function sameView(a: ViewKey, b: ViewKey): boolean {
  return typeof a === 'object' && typeof b === 'object' ? a.folder === b.folder : a === b;
}

/** Spec §4: all (not trashed), owned, shared (not mine), unsorted (no folder), a folder id, trashed. */
export function inView(board: BoardListItem, key: ViewKey, myId: number): boolean {
  const mine = board.user_id === myId;
  if (key === 'trashed') return mine && board.trashed !== null;
  if (board.trashed !== null) return false;
  switch (key) {
    case 'all':
      return true;
    case 'owned':
      return mine;
    case 'shared':
      return !mine;
    case 'unsorted':
      // shared boards always carry folder null; "unsorted" is about my own boards
      return mine && board.folder_id === null;
    default:
      return mine && board.folder_id === key.folder;
  }
}

/** Case-insensitive substring match on the title; blank queries match everything. */
export function matchesSearch(board: BoardListItem, query: string): boolean {
  const q = query.trim().toLocaleLowerCase();
  return q === '' || board.title.toLocaleLowerCase().includes(q);
}

/** `recent`: last change first (trashing is a change, so the trash shows the latest trashed first). */
export const SORT_KEYS = ['recent', 'titleAsc', 'titleDesc'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export function isSortKey(value: unknown): value is SortKey {
  return typeof value === 'string' && (SORT_KEYS as readonly string[]).includes(value);
}

export function sortBoards(boards: BoardListItem[], sort: SortKey, locale = 'en'): BoardListItem[] {
  if (sort === 'recent') {
    return [...boards].sort((a, b) => b.updated.localeCompare(a.updated));
  }
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  const dir = sort === 'titleAsc' ? 1 : -1;
  return [...boards].sort((a, b) => dir * collator.compare(a.title, b.title));
}

/** What one view shows: filtered, searched and sorted. */
export function selectBoards(
  boards: readonly BoardListItem[],
  opts: { key: ViewKey; myId: number; query: string; sort: SortKey; locale?: string },
): BoardListItem[] {
  const shown = boards.filter((b) => inView(b, opts.key, opts.myId) && matchesSearch(b, opts.query));
  return sortBoards(shown, opts.sort, opts.locale);
}

/** Boards per sidebar entry (fixed keys and folders), in one pass over the list. */
export function countByView(boards: readonly BoardListItem[], myId: number): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (k: string) => counts.set(k, (counts.get(k) ?? 0) + 1);
  for (const b of boards) {
    const mine = b.user_id === myId;
    if (b.trashed !== null) {
      if (mine) add('trashed');
      continue;
    }
    add('all');
    if (!mine) {
      add('shared');
      continue;
    }
    add('owned');
    add(b.folder_id === null ? 'unsorted' : String(b.folder_id));
  }
  return counts;
}

export interface BoardLimit {
  /** non-trashed owned boards */
  owned: number;
  max: number;
  /** spec §5: reached when owned ≥ maxBoards */
  reached: boolean;
  /** spec §5: limit − owned (never below 0) */
  available: number;
}

export function boardLimit(boards: readonly BoardListItem[], myId: number, maxBoards: number): BoardLimit {
  let owned = 0;
  for (const b of boards) if (b.user_id === myId && b.trashed === null) owned++;
  return { owned, max: maxBoards, reached: owned >= maxBoards, available: Math.max(0, maxBoards - owned) };
}

/** Whether restoring `count` trashed boards fits under the limit (the server checks it as a whole). */
export function canRestore(limit: BoardLimit, count: number): boolean {
  return limit.owned + count <= limit.max;
}

/** Batch calls take at most BOARD_BATCH_MAX ids; larger selections go in several calls. */
export function chunkIds(ids: readonly string[], size = BOARD_BATCH_MAX): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

/** Which actions a board offers: only the owner manages a board (the boards service rules). */
export function boardActions(
  board: BoardListItem,
  myId: number,
): {
  open: boolean;
  manage: boolean;
  restore: boolean;
} {
  const mine = board.user_id === myId;
  const trashed = board.trashed !== null;
  return { open: !trashed, manage: mine && !trashed, restore: mine && trashed };
}

/** Folder name by id, for labels ("in Class 5"); folders come sorted by name from the API. */
export function folderNames(folders: readonly FolderDto[]): Map<number, string> {
  return new Map(folders.map((f) => [f.id, f.name]));
}

/** Keeps only the selected ids still shown (after a filter change or a refetch). */
export function pruneSelection(selected: ReadonlySet<string>, shown: readonly BoardListItem[]): Set<string> {
  if (selected.size === 0) return selected as Set<string>;
  const visible = new Set(shown.map((b) => b.id));
  const next = new Set<string>();
  for (const id of selected) if (visible.has(id)) next.add(id);
  return next.size === selected.size ? (selected as Set<string>) : next;
}

/** Path of a board: ids may contain slashes, each segment is encoded on its own. */
export function boardPath(id: string): string {
  return `/boards/${id.split('/').map(encodeURIComponent).join('/')}`;
}
