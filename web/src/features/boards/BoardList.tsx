/**
 * The board list of one view, virtualised: only the rows in the scroll viewport (plus a few) are
 * in the DOM, so 5,000 boards cost as much as 20. Two layouts: dense rows (list) or cards with
 * each board's preview (grid; cards are laid out in lines and the lines are windowed like rows).
 * Keyboard: the list is a grid with one tab stop (the active board); arrows, Page Up/Down, Home
 * and End move it, Enter opens the board, Space selects it.
 */
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactElement,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { BoardListItem } from '@wb/proto';
import { LocalLink } from '../../app/prefix';
import { Icon } from '../../ui/icons';
import { boardActions, boardPath } from './boardViews';
import { nextIndex, scrollToReveal, visibleRange } from './windowing';

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** one formatter per language: creating them per row would cost more than the row */
function dateFormat(language: string): Intl.DateTimeFormat {
  let f = dateFormats.get(language);
  if (!f) dateFormats.set(language, (f = new Intl.DateTimeFormat(language, { dateStyle: 'medium' })));
  return f;
}

export const ROW_HEIGHT = 72;
/** grid layout: cards at least this wide, this tall, this far apart (px) */
export const CARD_MIN_WIDTH = 232;
export const CARD_HEIGHT = 232;
export const CARD_GAP = 16;
/** the preview's intrinsic size (services/realtime boardPreview.ts): no layout shift while it loads */
const PREVIEW_WIDTH = 320;
const PREVIEW_HEIGHT = 200;

export type BoardLayout = 'grid' | 'list';
export const BOARD_LAYOUTS: readonly BoardLayout[] = ['grid', 'list'];
/** jsdom and the first render have no layout: assume a typical viewport */
const FALLBACK_VIEWPORT = 640;

export type BoardAction = 'rename' | 'move' | 'share' | 'trash' | 'restore' | 'purge' | 'leave';
const ACTIONS: readonly BoardAction[] = ['share', 'rename', 'move', 'trash', 'restore', 'purge', 'leave'];
/** built once: a card mounts its icons' DOM, not their elements */
const ACTION_ICONS = Object.fromEntries(ACTIONS.map((a) => [a, <Icon key={a} name={a} />])) as Record<
  BoardAction,
  ReactElement
>;

/** what every row shows in the same words: translated once per language, not once per row */
interface RowText {
  t: TFunction<'boards'>;
  date: Intl.DateTimeFormat;
  actions: Record<BoardAction, string>;
}

interface BoardListProps {
  boards: readonly BoardListItem[];
  myId: number;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onOpen: (board: BoardListItem) => void;
  onAction: (action: BoardAction, board: BoardListItem) => void;
  folderName: (id: number | null) => string;
  label: string;
  layout?: BoardLayout;
}

/** The URL of a board's preview of this version (ids may hold slashes: each segment encoded). */
export function previewUrl(board: Pick<BoardListItem, 'id' | 'preview'>): string {
  return `/api/boards/${board.id.split('/').map(encodeURIComponent).join('/')}/preview.webp?v=${board.preview}`;
}

export function BoardList({
  boards,
  myId,
  selected,
  onToggle,
  onOpen,
  onAction,
  folderName,
  label,
  layout = 'list',
}: BoardListProps) {
  const { t, i18n } = useTranslation('boards');
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(FALLBACK_VIEWPORT);
  const [width, setWidth] = useState(0);
  const [active, setActive] = useState(0);
  const focusRow = useRef(false);
  const text = useMemo<RowText>(
    () => ({
      t,
      date: dateFormat(i18n.language),
      actions: Object.fromEntries(ACTIONS.map((a) => [a, t(`action.${a}`)])) as Record<BoardAction, string>,
    }),
    [t, i18n.language],
  );
  // the rows get callbacks that never change (so memo holds when the page re-renders) and call the latest props
  const latest = useRef({ onAction, onToggle });
  useLayoutEffect(() => {
    latest.current = { onAction, onToggle };
  });
  const act = useCallback((a: BoardAction, b: BoardListItem) => latest.current.onAction(a, b), []);
  const toggle = useCallback((id: string) => latest.current.onToggle(id), []);

  // the viewport height follows the window (ResizeObserver where there is one)
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return undefined;
    const measure = () => {
      setViewport(el.clientHeight || FALLBACK_VIEWPORT);
      setWidth(el.clientWidth);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // a shorter list (filter, search) keeps the active row in range
  const count = boards.length;
  const current = Math.min(active, Math.max(0, count - 1));
  // grid: cards per line from the width (jsdom has none: one per line); a line is windowed as a row
  const grid = layout === 'grid';
  const perLine = grid ? Math.max(1, Math.floor((width - CARD_GAP) / (CARD_MIN_WIDTH + CARD_GAP))) : 1;
  const lineHeight = grid ? CARD_HEIGHT + CARD_GAP : ROW_HEIGHT;
  const lines = Math.ceil(count / perLine);

  // the state is the scroll position at the top of its line: React renders only when the window
  // of lines changes, not on every scroll event (the same value bails out)
  const lineTop = (top: number) => Math.floor(top / lineHeight) * lineHeight;
  const onScroll = () => setScrollTop(lineTop(scroller.current?.scrollTop ?? 0));

  useEffect(() => {
    if (!focusRow.current) return;
    focusRow.current = false;
    scroller.current?.querySelector<HTMLElement>(`[data-row="${current}"]`)?.focus({ preventScroll: true });
  });

  const moveTo = (index: number) => {
    const el = scroller.current;
    if (el) {
      const top = scrollToReveal({
        index: Math.floor(index / perLine),
        rowHeight: lineHeight,
        scrollTop: el.scrollTop,
        viewportHeight: viewport,
      });
      if (top !== el.scrollTop) {
        el.scrollTop = top;
        setScrollTop(lineTop(top));
      }
    }
    focusRow.current = true;
    setActive(index);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const onRow = (e.target as HTMLElement).getAttribute('role') === 'row';
    // grid: up and down move a whole line, left and right one card
    const key = grid && e.key === 'ArrowRight' ? 'ArrowDown' : grid && e.key === 'ArrowLeft' ? 'ArrowUp' : e.key;
    const step = grid && (e.key === 'ArrowDown' || e.key === 'ArrowUp') ? perLine : 1;
    const to = nextIndex(key, current, count, (Math.floor(viewport / lineHeight) - 1) * perLine, step);
    if (to !== undefined && (onRow || e.key.startsWith('Arrow'))) {
      e.preventDefault();
      moveTo(to);
      return;
    }
    if (!onRow) return;
    const board = boards[current];
    if (!board) return;
    if (e.key === 'Enter' && boardActions(board, myId).open) {
      e.preventDefault();
      onOpen(board);
    } else if (e.key === ' ' && board.user_id === myId) {
      e.preventDefault();
      onToggle(board.id);
    }
  };

  // a line of cards is several rows' worth of DOM: one line of overscan is enough (scrollTop is
  // a line's top, so the window reaches a line further down to cover the viewport's bottom)
  const range = visibleRange({
    count: lines,
    rowHeight: lineHeight,
    scrollTop,
    viewportHeight: viewport + lineHeight,
    overscan: grid ? 1 : 4,
  });
  const start = range.start * perLine;
  const end = Math.min(count, range.end * perLine);
  const rows = [];
  for (let i = start; i < end; i++) {
    const board = boards[i]!;
    rows.push(
      <BoardRow
        key={board.id}
        index={i}
        board={board}
        layout={layout}
        mine={board.user_id === myId}
        active={i === current}
        selected={selected.has(board.id)}
        folder={board.folder_id === null ? '' : folderName(board.folder_id)}
        text={text}
        onToggle={toggle}
        onAction={act}
        onFocusRow={setActive}
      />,
    );
  }
  return (
    <div
      ref={scroller}
      className="board-scroller"
      role="grid"
      // WAI-ARIA grid: the grid is focusable but no tab stop; the tab stop is the active row (roving tabindex)
      tabIndex={-1}
      aria-label={label}
      aria-rowcount={count}
      aria-multiselectable="true"
      onScroll={onScroll}
      onKeyDown={onKeyDown}
    >
      <div className="board-spacer" style={{ height: lines * lineHeight }} role="presentation">
        <div
          role="rowgroup"
          className={grid ? 'board-grid' : undefined}
          style={{
            transform: `translateY(${range.start * lineHeight}px)`,
            ...(grid ? { gridTemplateColumns: `repeat(${perLine}, minmax(0, 1fr))` } : {}),
          }}
        >
          {rows}
        </div>
      </div>
    </div>
  );
}

interface RowProps {
  index: number;
  board: BoardListItem;
  layout: BoardLayout;
  mine: boolean;
  active: boolean;
  selected: boolean;
  folder: string;
  text: RowText;
  onToggle: (id: string) => void;
  onAction: (action: BoardAction, board: BoardListItem) => void;
  onFocusRow: (index: number) => void;
}

/**
 * A board's tile: its preview once it has one (loaded lazily as the card comes into view, at its
 * intrinsic size so nothing moves), else — or when the image fails — the first letter of its title.
 */
function BoardThumb({ board, preview }: { board: BoardListItem; preview: boolean }) {
  const [failed, setFailed] = useState<string | null>(null);
  const url = preview && board.preview ? previewUrl(board) : null;
  if (url && failed !== url)
    return (
      <img
        src={url}
        alt=""
        width={PREVIEW_WIDTH}
        height={PREVIEW_HEIGHT}
        loading="lazy"
        decoding="async"
        onError={() => setFailed(url)}
      />
    );
  return <span>{board.title.slice(0, 1).toLocaleUpperCase()}</span>;
}

/** One board: thumbnail, title (the link that opens it), owner or folder, actions. */
const BoardRow = memo(function BoardRow({
  index,
  board,
  layout,
  mine,
  active,
  selected,
  folder,
  text,
  onToggle,
  onAction,
  onFocusRow,
}: RowProps) {
  const { t, date } = text;
  const tab = active ? 0 : -1;
  const trashed = board.trashed !== null;
  const selectable = mine;
  const detail = !mine
    ? board.owner_name
      ? t('card.sharedByName', { owner: board.owner_name })
      : t('card.sharedBy', { owner: board.user_id })
    : trashed
      ? t('card.trashedAt', {
          date: date.format(new Date(board.trashed!)),
        })
      : folder
        ? t('card.inFolder', { folder })
        : t('card.unsorted');
  // on a narrow list only the icon shows (the label is hidden, the accessible name stays)
  const action = (a: BoardAction, danger = false) => (
    <button
      type="button"
      className={danger ? 'small board-action danger-text' : 'small board-action'}
      tabIndex={tab}
      onClick={() => onAction(a, board)}
      aria-label={`${text.actions[a]}: ${board.title}`}
      title={text.actions[a]}
    >
      {ACTION_ICONS[a]}
      {/* a card shows only the icon (aria-label names the button): no text for its layout to shape */}
      {layout === 'list' ? <span className="board-action-text">{text.actions[a]}</span> : null}
    </button>
  );
  return (
    <div
      role="row"
      aria-rowindex={index + 1}
      aria-selected={selectable ? selected : undefined}
      data-row={index}
      tabIndex={tab}
      className={`${layout === 'grid' ? 'board-card' : 'board-row'}${selected ? ' selected' : ''}${active ? ' active' : ''}`}
      style={{ height: layout === 'grid' ? CARD_HEIGHT : ROW_HEIGHT }}
      onFocus={() => onFocusRow(index)}
    >
      <div role="gridcell" className="board-check">
        {selectable ? (
          <input
            type="checkbox"
            tabIndex={tab}
            checked={selected}
            onChange={() => onToggle(board.id)}
            aria-label={t('card.select', { title: board.title })}
          />
        ) : null}
      </div>
      <div role="gridcell" className="board-thumb" aria-hidden="true">
        <BoardThumb board={board} preview={layout === 'grid'} />
      </div>
      <div role="gridcell" className="board-main">
        {/* long titles end in an ellipsis; the whole title is the tooltip */}
        {trashed ? (
          <span className="board-title" title={board.title}>
            {board.title}
          </span>
        ) : (
          <LocalLink className="board-title" to={boardPath(board.id)} tabIndex={tab} title={board.title}>
            {board.title}
          </LocalLink>
        )}
        <span className="board-detail muted">
          {detail}
          {trashed ? null : (
            <>
              {' · '}
              {t('card.changed', { date: date.format(new Date(board.updated)) })}
            </>
          )}
        </span>
      </div>
      <div role="gridcell" className="board-actions">
        {mine && !trashed ? (
          <>
            {action('share')}
            {action('rename')}
            {action('move')}
            {action('trash', true)}
          </>
        ) : null}
        {mine && trashed ? (
          <>
            {action('restore')}
            {action('purge', true)}
          </>
        ) : null}
        {!mine ? action('leave') : null}
      </div>
    </div>
  );
});
