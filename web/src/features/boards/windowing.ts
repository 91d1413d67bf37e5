/** Which rows of a fixed-row-height list are on screen (plus overscan): pure, so it is unit tested. */
export interface WindowRange {
  /** first rendered index (inclusive) */
  start: number;
  /** last rendered index + 1 */
  end: number;
}

export function visibleRange(opts: {
  count: number;
  rowHeight: number;
  scrollTop: number;
  viewportHeight: number;
  overscan?: number;
}): WindowRange {
  const { count, rowHeight, scrollTop, viewportHeight, overscan = 4 } = opts;
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewportHeight)) / rowHeight);
  const start = Math.max(0, Math.min(count - 1, first - overscan));
  const end = Math.min(count, Math.max(start + 1, last + overscan));
  return { start, end };
}

/** The scrollTop that brings row `index` fully into view (unchanged when it already is). */
export function scrollToReveal(opts: {
  index: number;
  rowHeight: number;
  scrollTop: number;
  viewportHeight: number;
}): number {
  const { index, rowHeight, scrollTop, viewportHeight } = opts;
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewportHeight) return top + rowHeight - viewportHeight;
  return scrollTop;
}

/**
 * Row index after a navigation key, or undefined when the key is not one. `step`: how far the
 * arrows move (a line of cards in the grid layout).
 */
export function nextIndex(key: string, index: number, count: number, pageRows: number, step = 1): number | undefined {
  if (count === 0) return undefined;
  const clamp = (i: number) => Math.max(0, Math.min(count - 1, i));
  switch (key) {
    case 'ArrowDown':
      return clamp(index + step);
    case 'ArrowUp':
      return clamp(index - step);
    case 'PageDown':
      return clamp(index + Math.max(1, pageRows));
    case 'PageUp':
      return clamp(index - Math.max(1, pageRows));
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}
