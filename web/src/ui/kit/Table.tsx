import { useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { Icon } from './Icon';

export type SortDirection = 'ascending' | 'descending';
export interface SortState {
  key: string;
  direction: SortDirection;
}

export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** makes the column sortable: the value rows are ordered by */
  sortValue?: (row: T) => string | number;
  /** numbers and dates line up at the end */
  align?: 'start' | 'end';
  /** a CSS width (e.g. "8rem"); the others share the rest */
  width?: string;
}

export interface TableProps<T> {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** the table's accessible name (also names its scrolling box); shown unless `captionHidden` */
  caption: ReactNode;
  captionHidden?: boolean;
  /** shown in place of the rows when there are none */
  empty?: ReactNode;
  /** the order at first; the table sorts on its own from there */
  initialSort?: SortState;
  /** a row opens something: click, or Enter on the focused row */
  onRowClick?: (row: T) => void;
  /** the box's height: the header stays in view while the rows scroll inside it */
  maxHeight?: string;
}

/**
 * A data table: sortable columns (a header button; aria-sort says the order; equal values keep
 * their order), a sticky header, an empty state. Wider than its box (phones) it scrolls sideways
 * inside the box, not the page.
 */
export function Table<T>({
  columns,
  rows,
  rowKey,
  caption,
  captionHidden,
  empty,
  initialSort,
  onRowClick,
  maxHeight,
}: TableProps<T>) {
  const { i18n } = useTranslation();
  const captionId = useId();
  const [sort, setSort] = useState<SortState | undefined>(initialSort);
  const sorted = useMemo(() => {
    const column = sort && columns.find((c) => c.key === sort.key);
    if (!sort || !column?.sortValue) return rows;
    const value = column.sortValue;
    const collator = new Intl.Collator(i18n.language, { numeric: true, sensitivity: 'base' });
    const sign = sort.direction === 'ascending' ? 1 : -1;
    // Array.prototype.sort is stable: rows with equal values keep their given order
    return [...rows].sort((a, b) => {
      const x = value(a);
      const y = value(b);
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
      return sign * order;
    });
  }, [rows, columns, sort, i18n.language]);

  const toggle = (key: string) =>
    setSort((s) => ({ key, direction: s?.key === key && s.direction === 'ascending' ? 'descending' : 'ascending' }));
  const onRowKey = (e: KeyboardEvent, row: T) => {
    if (e.key === 'Enter' && e.target === e.currentTarget) onRowClick?.(row);
  };

  return (
    <div
      className="table-box"
      style={maxHeight ? { maxHeight } : undefined}
      role="region"
      aria-labelledby={captionId}
      // focusable, so a keyboard can scroll it when it is wider or taller than its box
      tabIndex={0}
    >
      <table className={onRowClick ? 'table table-clickable' : 'table'}>
        <caption id={captionId} className={captionHidden ? 'sr-only' : undefined}>
          {caption}
        </caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const direction = sort?.key === c.key ? sort.direction : undefined;
              return (
                <th
                  key={c.key}
                  scope="col"
                  style={c.width ? { width: c.width } : undefined}
                  className={c.align === 'end' ? 'align-end' : undefined}
                  aria-sort={c.sortValue ? (direction ?? 'none') : undefined}
                >
                  {c.sortValue ? (
                    <button type="button" className="table-sort" onClick={() => toggle(c.key)}>
                      {c.header}
                      <Icon
                        icon={
                          direction === 'ascending' ? ArrowUp : direction === 'descending' ? ArrowDown : ArrowUpDown
                        }
                        size={14}
                      />
                    </button>
                  ) : (
                    c.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="table-empty">
                {empty}
              </td>
            </tr>
          ) : (
            sorted.map((row) => (
              <tr
                key={rowKey(row)}
                tabIndex={onRowClick ? 0 : undefined}
                onClick={onRowClick ? () => onRowClick(row) : undefined}
                onKeyDown={onRowClick ? (e) => onRowKey(e, row) : undefined}
              >
                {columns.map((c) => (
                  <td key={c.key} className={c.align === 'end' ? 'align-end' : undefined}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
