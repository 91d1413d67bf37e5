/// <reference types="jest" />
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import type { BoardListItem } from '@wb/proto';
import { i18n, loadNamespace } from '../../i18n/i18n';
import { BoardList, type BoardLayout } from './BoardList';
import { BoardsToolbar } from './BoardsToolbar';

const ME = 1;
const many = (n: number): BoardListItem[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `board${i}`,
    user_id: i % 10 === 0 ? 2 : ME,
    title: `Board ${i}`,
    folder_id: i % 50,
    trashed: null,
    updated: '2026-01-01T00:00:00.000Z',
  }));

beforeAll(() => loadNamespace('boards', 'en'));

function renderList(
  boards: BoardListItem[],
  extra: { onOpen?: jest.Mock; onToggle?: jest.Mock; layout?: BoardLayout } = {},
) {
  const onOpen = extra.onOpen ?? jest.fn();
  const onToggle = extra.onToggle ?? jest.fn();
  render(
    <MemoryRouter>
      <I18nextProvider i18n={i18n}>
        <BoardList
          boards={boards}
          myId={ME}
          selected={new Set(['board1'])}
          onToggle={onToggle}
          onOpen={onOpen}
          onAction={jest.fn()}
          folderName={(id) => `Class ${id}`}
          label="All boards"
          layout={extra.layout}
        />
      </I18nextProvider>
    </MemoryRouter>,
  );
  return { onOpen, onToggle };
}

test('5,000 boards render only a window of rows (performance: the DOM stays small)', () => {
  const started = performance.now();
  renderList(many(5000));
  const took = performance.now() - started;
  const grid = screen.getByRole('grid', { name: 'All boards' });
  const rows = screen.getAllByRole('row');
  expect(grid.getAttribute('aria-rowcount')).toBe('5000');
  expect(rows.length).toBeGreaterThan(5);
  expect(rows.length).toBeLessThan(30);
  expect(grid.querySelectorAll('*').length).toBeLessThan(30 * 25);
  // generous: jsdom on a shared 2-core machine; the real figure is in the report
  expect(took).toBeLessThan(2000);
});

test('scrolling renders the rows of the new position only', async () => {
  renderList(many(5000));
  const grid = screen.getByRole('grid');
  Object.defineProperty(grid, 'scrollTop', { value: 72 * 2500, configurable: true });
  await act(async () => {
    fireEvent.scroll(grid);
    await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  });
  const indexes = screen.getAllByRole('row').map((r) => Number(r.getAttribute('aria-rowindex')));
  expect(Math.min(...indexes)).toBeGreaterThan(2490);
  expect(Math.max(...indexes)).toBeLessThan(2520);
  expect(screen.getByText('Board 2500')).toBeTruthy();
});

test('keyboard: one tab stop, arrows move it, Enter opens, Space selects own boards', () => {
  const { onOpen, onToggle } = renderList(many(100));
  const rows = screen.getAllByRole('row');
  expect(rows.filter((r) => r.tabIndex === 0)).toHaveLength(1);
  act(() => rows[0]!.focus());
  fireEvent.keyDown(rows[0]!, { key: 'ArrowDown' });
  const second = screen.getAllByRole('row').find((r) => r.getAttribute('aria-rowindex') === '2')!;
  expect(document.activeElement).toBe(second);
  expect(second.tabIndex).toBe(0);
  expect(second.getAttribute('aria-selected')).toBe('true');
  fireEvent.keyDown(second, { key: 'Enter' });
  expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 'board1' }));
  fireEvent.keyDown(second, { key: ' ' });
  expect(onToggle).toHaveBeenCalledWith('board1');
  fireEvent.keyDown(document.activeElement!, { key: 'End' });
  expect(document.activeElement?.getAttribute('aria-rowindex')).toBe('100');
});

test('shared boards name their owner; own boards their folder', () => {
  renderList(many(3));
  expect(screen.getByText(/^Shared with you by user #2/)).toBeTruthy(); // no name known: the id
  expect(screen.getByText(/^In Class 1 · Changed /)).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Board 1' }).getAttribute('href')).toBe('/boards/board1');
});

test('grid: a board with a preview shows it lazily at its own size; one without, or whose image fails, its letter', () => {
  const boards = many(3);
  boards[1] = { ...boards[1]!, preview: 42 };
  boards[2] = { ...boards[2]!, id: 'legacy/b 2', preview: 7 };
  renderList(boards, { layout: 'grid' });
  const rows = screen.getAllByRole('row');
  expect(rows[0]!.className).toContain('board-card');
  expect(rows[0]!.querySelector('img')).toBeNull();
  expect(rows[0]!.querySelector('.board-thumb')!.textContent).toBe('B');
  const img = rows[1]!.querySelector('img')!;
  expect(img.getAttribute('src')).toBe('/api/boards/board1/preview.webp?v=42');
  expect(img.getAttribute('loading')).toBe('lazy');
  expect(img.getAttribute('decoding')).toBe('async');
  expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['320', '200']);
  expect(img.getAttribute('alt')).toBe(''); // the title next to it names the board
  expect(rows[2]!.querySelector('img')!.getAttribute('src')).toBe('/api/boards/legacy/b%202/preview.webp?v=7');
  fireEvent.error(img);
  expect(rows[1]!.querySelector('img')).toBeNull();
  expect(rows[1]!.querySelector('.board-thumb')!.textContent).toBe('B');
});

test('list: the dense rows keep the letter tile (no images to load)', () => {
  const boards = many(2).map((b) => ({ ...b, preview: 3 }));
  renderList(boards, { layout: 'list' });
  expect(screen.getAllByRole('row')[0]!.className).toContain('board-row');
  expect(document.querySelector('img')).toBeNull();
});

test('the toolbar toggles grid and list', () => {
  const onLayout = jest.fn();
  render(
    <I18nextProvider i18n={i18n}>
      <BoardsToolbar
        query=""
        onQuery={jest.fn()}
        sort="recent"
        onSort={jest.fn()}
        layout="grid"
        onLayout={onLayout}
        limit={{ owned: 1, max: 10, reached: false, available: 9 }}
        onNewBoard={jest.fn()}
        onNewFolder={jest.fn()}
        trash={false}
      />
    </I18nextProvider>,
  );
  const group = screen.getByRole('group', { name: 'Layout' });
  expect(group).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Grid' }).getAttribute('aria-pressed')).toBe('true');
  fireEvent.click(screen.getByRole('button', { name: 'List' }));
  expect(onLayout).toHaveBeenCalledWith('list');
});
