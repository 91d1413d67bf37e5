/**
 * Where toasts may sit (issue 26 #15): never over a toolbar. Toasts stack at the bottom of the
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

export const OBSTACLE_SELECTOR = '[role="toolbar"], [data-toast-avoid]';

/** the boxes of the visible obstacles in `root` */
export function obstacleBoxes(root: ParentNode = document): Box[] {
  const out: Box[] = [];
  for (const el of root.querySelectorAll<HTMLElement>(OBSTACLE_SELECTOR)) {
    if (el.closest('.toasts')) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) out.push({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
  }
  return out;
}
