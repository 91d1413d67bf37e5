/// <reference types="jest" />
import type { BoardListItem } from '@wb/proto';
import {
  boardLimit,
  boardPath,
  canRestore,
  chunkIds,
  countByView,
  inView,
  parseViewKey,
  pruneSelection,
  selectBoards,
  sortBoards,
  viewPath,
} from './boardViews';
import { nextIndex, scrollToReveal, visibleRange } from './windowing';

const ME = 7;
const b = (id: string, over: Partial<BoardListItem> = {}): BoardListItem => ({
  id,
  user_id: ME,
  title: id,
  folder_id: null,
  trashed: null,
  updated: '2026-01-01T00:00:00.000Z',
  ...over,
});
const boards: BoardListItem[] = [
  b('a', { title: 'Fractions', updated: '2026-01-04T00:00:00.000Z' }),
  b('b', { title: 'algebra', folder_id: 1, updated: '2026-01-03T00:00:00.000Z' }),
  b('c', { title: 'Cells', folder_id: 2, updated: '2026-01-05T00:00:00.000Z' }),
  // trashing is a change: updated is the trash time
  b('d', { title: 'Old', trashed: '2025-01-02T00:00:00.000Z', updated: '2025-01-02T00:00:00.000Z' }),
  b('e', { title: 'Older', folder_id: 1, trashed: '2025-01-01T00:00:00.000Z', updated: '2025-01-01T00:00:00.000Z' }),
  b('s', { title: 'Shared one', user_id: 99, updated: '2026-01-01T00:00:00.000Z' }),
];
const ids = (list: BoardListItem[]) => list.map((x) => x.id);
const view = (key: Parameters<typeof inView>[1]) => ids(boards.filter((x) => inView(x, key, ME)));

describe('view keys', () => {
  test('parse fixed keys and folder ids; reject others', () => {
    expect(parseViewKey(undefined)).toBe('all');
    expect(parseViewKey('trashed')).toBe('trashed');
    expect(parseViewKey('12')).toEqual({ folder: 12 });
    expect(parseViewKey('0')).toBeUndefined();
    expect(parseViewKey('nope')).toBeUndefined();
    expect(viewPath({ folder: 12 })).toBe('/dashboard/boards/12');
    expect(viewPath('shared')).toBe('/dashboard/boards/shared');
  });

  test('spec §4: all, owned, shared, unsorted, folder, trashed', () => {
    expect(view('all')).toEqual(['a', 'b', 'c', 's']);
    expect(view('owned')).toEqual(['a', 'b', 'c']);
    expect(view('shared')).toEqual(['s']);
    expect(view('unsorted')).toEqual(['a']);
    expect(view({ folder: 1 })).toEqual(['b']);
    expect(view('trashed')).toEqual(['d', 'e']);
  });

  test('counts per view in one pass match the filters', () => {
    const counts = countByView(boards, ME);
    for (const key of ['all', 'owned', 'shared', 'unsorted', 'trashed'] as const)
      expect([key, counts.get(key) ?? 0]).toEqual([key, view(key).length]);
    expect(counts.get('1')).toBe(1);
    expect(counts.get('2')).toBe(1);
  });
});

describe('search and sort', () => {
  test('search is case-insensitive and trims', () => {
    expect(ids(selectBoards(boards, { key: 'all', myId: ME, query: '  CELL ', sort: 'recent' }))).toEqual(['c']);
    expect(ids(selectBoards(boards, { key: 'all', myId: ME, query: '', sort: 'recent' }))).toHaveLength(4);
  });

  test('title sorts ignore case; recent puts the last changed (or latest trashed) first', () => {
    const all = boards.filter((x) => x.trashed === null);
    expect(ids(sortBoards(all, 'titleAsc'))).toEqual(['b', 'c', 'a', 's']);
    expect(ids(sortBoards(all, 'titleDesc'))).toEqual(['s', 'a', 'c', 'b']);
    expect(ids(sortBoards(all, 'recent'))).toEqual(['c', 'a', 'b', 's']);
    const trash = [boards[4]!, boards[3]!];
    expect(ids(sortBoards(trash, 'recent'))).toEqual(['d', 'e']);
  });

  test('numeric titles sort naturally', () => {
    const list = [b('x', { title: 'Board 10' }), b('y', { title: 'Board 9' })];
    expect(ids(sortBoards(list, 'titleAsc'))).toEqual(['y', 'x']);
  });
});

describe('board limit (spec §5)', () => {
  test('non-trashed owned boards count; reached at or above max', () => {
    expect(boardLimit(boards, ME, 5)).toEqual({ owned: 3, max: 5, reached: false, available: 2 });
    expect(boardLimit(boards, ME, 3)).toEqual({ owned: 3, max: 3, reached: true, available: 0 });
    expect(boardLimit(boards, ME, 0)).toEqual({ owned: 3, max: 0, reached: true, available: 0 });
  });

  test('restore must fit as a whole', () => {
    const limit = boardLimit(boards, ME, 5);
    expect(canRestore(limit, 2)).toBe(true);
    expect(canRestore(limit, 3)).toBe(false);
  });
});

describe('helpers', () => {
  test('batches of at most 100 ids', () => {
    const many = Array.from({ length: 250 }, (_, i) => String(i));
    expect(chunkIds(many).map((c) => c.length)).toEqual([100, 100, 50]);
    expect(chunkIds([])).toEqual([]);
  });

  test('selection keeps only shown boards, same object when nothing changed', () => {
    const sel = new Set(['a', 'z']);
    expect([...pruneSelection(sel, boards)]).toEqual(['a']);
    const kept = new Set(['a']);
    expect(pruneSelection(kept, boards)).toBe(kept);
  });

  test('board paths keep slashes of legacy ids and encode each segment', () => {
    expect(boardPath('abc')).toBe('/boards/abc');
    expect(boardPath('legacy/x y')).toBe('/boards/legacy/x%20y');
  });
});

describe('windowing', () => {
  test('only the rows in the viewport plus overscan', () => {
    expect(visibleRange({ count: 5000, rowHeight: 72, scrollTop: 0, viewportHeight: 720, overscan: 4 })).toEqual({
      start: 0,
      end: 14,
    });
    expect(
      visibleRange({ count: 5000, rowHeight: 72, scrollTop: 72 * 1000, viewportHeight: 720, overscan: 4 }),
    ).toEqual({ start: 996, end: 1014 });
    expect(visibleRange({ count: 5000, rowHeight: 72, scrollTop: 72 * 5000, viewportHeight: 720 }).end).toBe(5000);
    expect(visibleRange({ count: 0, rowHeight: 72, scrollTop: 0, viewportHeight: 720 })).toEqual({ start: 0, end: 0 });
  });

  test('reveal scrolls just enough', () => {
    expect(scrollToReveal({ index: 0, rowHeight: 10, scrollTop: 50, viewportHeight: 100 })).toBe(0);
    expect(scrollToReveal({ index: 20, rowHeight: 10, scrollTop: 50, viewportHeight: 100 })).toBe(110);
    expect(scrollToReveal({ index: 10, rowHeight: 10, scrollTop: 50, viewportHeight: 100 })).toBe(50);
  });

  test('navigation keys clamp to the list', () => {
    expect(nextIndex('ArrowDown', 4, 5, 10)).toBe(4);
    expect(nextIndex('ArrowUp', 0, 5, 10)).toBe(0);
    expect(nextIndex('PageDown', 0, 50, 10)).toBe(10);
    expect(nextIndex('End', 0, 50, 10)).toBe(49);
    expect(nextIndex('Home', 30, 50, 10)).toBe(0);
    expect(nextIndex('x', 0, 50, 10)).toBeUndefined();
  });
});
