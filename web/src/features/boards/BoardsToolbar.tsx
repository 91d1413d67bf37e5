import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LayoutGrid, List } from 'lucide-react';
import { IconButton } from '../../ui/kit/Button';
import { Icon } from '../../ui/kit/Icon';
import { BOARD_LAYOUTS, type BoardLayout } from './BoardList';
import { SORT_KEYS, isSortKey, type BoardLimit, type SortKey } from './boardViews';

const LAYOUT_ICONS = { grid: LayoutGrid, list: List } as const;

interface ToolbarProps {
  query: string;
  onQuery: (q: string) => void;
  sort: SortKey;
  onSort: (s: SortKey) => void;
  layout: BoardLayout;
  onLayout: (l: BoardLayout) => void;
  limit: BoardLimit;
  onNewBoard: () => void;
  onNewFolder: () => void;
  /** trash view: no "new board" */
  trash: boolean;
}

/** New board / new folder, search, sort and the grid / list layout. */
export function BoardsToolbar({
  query,
  onQuery,
  sort,
  onSort,
  layout,
  onLayout,
  limit,
  onNewBoard,
  onNewFolder,
  trash,
}: ToolbarProps) {
  const { t } = useTranslation('boards');
  const searchId = useId();
  const sortId = useId();
  return (
    <div className="boards-toolbar">
      {!trash ? (
        <>
          <button type="button" className="primary" onClick={onNewBoard}>
            {t('toolbar.newBoard')}
          </button>
          <button type="button" onClick={onNewFolder}>
            {t('folder.new')}
          </button>
        </>
      ) : null}
      <span className={`board-usage${limit.reached ? ' reached' : ''}`}>
        {t('toolbar.usage', { count: limit.owned, max: limit.max })}
      </span>
      <div className="toolbar-right">
        <label htmlFor={searchId} className="sr-only">
          {t('toolbar.search')}
        </label>
        <input
          id={searchId}
          type="search"
          value={query}
          placeholder={t('toolbar.search')}
          onChange={(e) => onQuery(e.target.value)}
        />
        <label htmlFor={sortId} className="sr-only">
          {t('toolbar.sort')}
        </label>
        <select id={sortId} value={sort} onChange={(e) => isSortKey(e.target.value) && onSort(e.target.value)}>
          {SORT_KEYS.map((k) => (
            <option key={k} value={k}>
              {t(`sort.${k}`)}
            </option>
          ))}
        </select>
        <div className="layout-toggle" role="group" aria-label={t('layout.label')}>
          {BOARD_LAYOUTS.map((l) => (
            <IconButton
              key={l}
              size="sm"
              label={t(`layout.${l}`)}
              icon={<Icon icon={LAYOUT_ICONS[l]} />}
              aria-pressed={layout === l}
              onClick={() => onLayout(l)}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

interface SelectionBarProps {
  count: number;
  /** owned boards shown that can be selected */
  selectable: number;
  allSelected: boolean;
  onSelectAll: (on: boolean) => void;
  trash: boolean;
  onMove: () => void;
  onTrash: () => void;
  onRestore: () => void;
  onPurge: () => void;
}

/** Multi-select: select all, then move / trash, or restore / purge in the trash. */
export function SelectionBar({
  count,
  selectable,
  allSelected,
  onSelectAll,
  trash,
  onMove,
  onTrash,
  onRestore,
  onPurge,
}: SelectionBarProps) {
  const { t } = useTranslation('boards');
  if (selectable === 0) return null;
  return (
    <div className="selection-bar" role="toolbar" aria-label={t('selection.label')}>
      <label>
        <input
          type="checkbox"
          checked={allSelected}
          ref={(el) => {
            if (el) el.indeterminate = count > 0 && !allSelected;
          }}
          onChange={(e) => onSelectAll(e.target.checked)}
        />{' '}
        {t('selection.all')}
      </label>
      <span aria-live="polite">{count > 0 ? t('selection.count', { count }) : null}</span>
      {count > 0 ? (
        trash ? (
          <>
            <button type="button" onClick={onRestore}>
              {t('action.restore')}
            </button>
            <button type="button" className="danger" onClick={onPurge}>
              {t('action.purge')}
            </button>
          </>
        ) : (
          <>
            <button type="button" onClick={onMove}>
              {t('selection.move')}
            </button>
            <button type="button" className="danger" onClick={onTrash}>
              {t('action.trash')}
            </button>
          </>
        )
      ) : null}
    </div>
  );
}
