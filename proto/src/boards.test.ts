import { describe, expect, it } from '@jest/globals';
import {
  accessIncludes,
  BOARD_ID_PATTERN,
  boardIdSchema,
  boardListSchema,
  boardUpdateInputSchema,
  expandBoardList,
  folderIdParamSchema,
} from './boards';

describe('board ids (spec §2, §9)', () => {
  it('accept the 64-character alphabet and slashes between segments', () => {
    for (const id of ['V1StGXR8_Z5jdHi6B-myT', 'legacy/2019/abc', 'a']) expect(BOARD_ID_PATTERN.test(id)).toBe(true);
    for (const id of ['', '/a', 'a/', 'a//b', 'a b', '../x', 'ä'])
      expect(boardIdSchema.safeParse(id).success).toBe(false);
    expect(boardIdSchema.safeParse('x'.repeat(201)).success).toBe(false);
  });
  it('folder ids in paths are positive integers', () => {
    expect(folderIdParamSchema.parse('42')).toBe(42);
    for (const v of ['0', '-1', '1.5', 'abc', '99999999999'])
      expect(folderIdParamSchema.safeParse(v).success).toBe(false);
  });
});

describe('board update input', () => {
  it('trims titles, refuses empty ones and empty updates', () => {
    expect(boardUpdateInputSchema.parse({ boardId: 'b', title: '  T  ' }).title).toBe('T');
    expect(boardUpdateInputSchema.safeParse({ boardId: 'b', title: '   ' }).success).toBe(false);
    expect(boardUpdateInputSchema.safeParse({ boardId: 'b' }).success).toBe(false);
  });
});

describe('expandBoardList', () => {
  it('turns the columns back into one object per board (owned, then shared)', () => {
    const list = boardListSchema.parse({
      owned: {
        id: ['a', 'b'],
        title: ['A', 'B'],
        folder_id: [3, null],
        updated: [1767398400, 1767312000], // unix seconds
        trashed: { b: '2026-01-02T00:00:00.000Z' },
      },
      shared: { id: ['c'], title: ['C'], user_id: [9], owner_name: ['Nine'], updated: [1767225600] },
    });
    expect(expandBoardList(list, 7)).toEqual([
      { id: 'a', user_id: 7, title: 'A', folder_id: 3, trashed: null, updated: '2026-01-03T00:00:00.000Z' },
      {
        id: 'b',
        user_id: 7,
        title: 'B',
        folder_id: null,
        trashed: '2026-01-02T00:00:00.000Z',
        updated: '2026-01-02T00:00:00.000Z',
      },
      {
        id: 'c',
        user_id: 9,
        title: 'C',
        folder_id: null,
        trashed: null,
        updated: '2026-01-01T00:00:00.000Z',
        owner_name: 'Nine',
      },
    ]);
  });
});

describe('access levels', () => {
  it('own ⊃ edit ⊃ view ⊃ none', () => {
    expect(accessIncludes('own', 'view')).toBe(true);
    expect(accessIncludes('view', 'edit')).toBe(false);
    expect(accessIncludes('none', 'none')).toBe(true);
  });
});
