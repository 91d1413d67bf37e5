/**
 * Where floating messages may sit (issue 26 #15): toasts and the cookie banner never cover a
 * toolbar. Where toasts may sit: Toasts stack at the bottom of the
 * window (the right-hand column on wide screens, the whole width on phones); every visible
 * toolbar (`[role="toolbar"]`, or anything marked `data-toast-avoid`) in the lower half of the
 * window whose box meets that column lifts them above it. No DOM here beyond reading boxes.
 */

/** phones: toasts span the width and go sooner (spec §9's 7 s is for wider screens) */
export const PHONE_QUERY = '(max-width: 640px)';
/** how long an info or warning toast stays on a phone, where it takes the width of the screen */
export const PHONE_TOAST_DURATION_MS = 4000;
/** gap between toasts and the window's edge or a toolbar, px */
export const TOAST_MARGIN = 16;
/** the toasts' column on wide screens: 24rem */
export const TOAST_COLUMN = 384;

export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The horizontal band the toasts occupy in a window `width` px wide. */
export function toastColumn(width: number, phone: boolean): { left: number; right: number } {
  const margin = phone ? 8 : TOAST_MARGIN;
  return phone
    ? { left: margin, right: width - margin }
    : { left: Math.max(margin, width - margin - TOAST_COLUMN), right: width - margin };
}

/**
 * The toasts' distance from the window's bottom edge, px: above every obstacle in the lower half
 * of the window that meets their column (a toolbar on the top half is left alone: toasts grow
 * upwards from below it).
 */
export function toastBottom(
  viewport: { width: number; height: number },
  phone: boolean,
  obstacles: readonly Box[],
): number {
  const column = toastColumn(viewport.width, phone);
  const margin = phone ? 8 : TOAST_MARGIN;
  let bottom = margin;
  for (const o of obstacles) {
    if (o.bottom <= o.top || o.right <= o.left) continue; // hidden
    if (o.right <= column.left || o.left >= column.right) continue; // beside the column
    if (o.top < viewport.height / 2) continue; // the upper half: not in the way of a stack from below
    bottom = Math.max(bottom, viewport.height - o.top + margin);
  }
  return Math.round(bottom);
}

/**
 * The page's chrome: toolbars (the board's tool bar, zoom corner and selection bar, the
 * dashboard's selection bar), the board's top bar, side panels and minimap, the app's header, and
 * anything marked `data-toast-avoid`.
 */
export const OBSTACLE_SELECTOR =
  '[role="toolbar"], [data-toast-avoid], .board-topbar, .board-panel, .minimap, header.topbar';

/** the boxes of the visible obstacles in `root`, except those inside `skip` (a selector) */
export function obstacleBoxes(root: ParentNode = document, skip = '.toasts'): Box[] {
  const out: Box[] = [];
  for (const el of root.querySelectorAll<HTMLElement>(OBSTACLE_SELECTOR)) {
    if (el.closest(skip)) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) out.push({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
  }
  return out;
}

const meets = (a: Box, b: Box, gap: number) =>
  a.left < b.right + gap && b.left < a.right + gap && a.top < b.bottom + gap && b.top < a.bottom + gap;

/**
 * A place for a card of `size` that covers no obstacle: the lowest one, left before centre before
 * right (the cookie banner's corner first), `margin` px from the window's edges and from every
 * obstacle. Null when there is none (the caller keeps its default corner).
 */
export function freeSpot(
  viewport: { width: number; height: number },
  size: { width: number; height: number },
  obstacles: readonly Box[],
  margin = TOAST_MARGIN,
  step = 8,
): { left: number; top: number } | null {
  const w = Math.min(size.width, viewport.width - 2 * margin);
  const xs = [margin, Math.round((viewport.width - w) / 2), viewport.width - margin - w];
  for (let top = viewport.height - margin - size.height; top >= margin; top -= step) {
    for (const left of xs) {
      const box = { left, right: left + w, top, bottom: top + size.height };
      if (!obstacles.some((o) => o.bottom > o.top && o.right > o.left && meets(box, o, margin / 2))) {
        return { left, top };
      }
    }
  }
  return null;
}

/**
 * Calls `measure` now and again (once per frame at most) whenever the page's chrome may have moved:
 * elements added or removed, a class or `hidden` changed, the window resized. Returns the stop.
 */
export function followChrome(measure: () => void): () => void {
  let frame = 0;
  const run = () => {
    frame = 0;
    measure();
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(run);
  };
  measure();
  const observer = new MutationObserver(schedule);
  observer.observe(document.body, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['class', 'hidden'],
  });
  window.addEventListener('resize', schedule);
  return () => {
    observer.disconnect();
    window.removeEventListener('resize', schedule);
    if (frame) cancelAnimationFrame(frame);
  };
}
