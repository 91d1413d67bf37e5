/**
 * Line icons drawn in the text colour (so they follow the theme). Always decorative: the button
 * or link that holds one carries the words (visible text or aria-label). Emoji glyphs are not
 * used because systems without an emoji font draw them as empty boxes.
 */
const PATHS = {
  menu: 'M3 6h18M3 12h18M3 18h18',
  share:
    'M21 5a3 3 0 1 1-6 0 3 3 0 0 1 6 0ZM9 12a3 3 0 1 1-6 0 3 3 0 0 1 6 0ZM21 19a3 3 0 1 1-6 0 3 3 0 0 1 6 0ZM8.6 13.5l6.8 4M15.4 6.5l-6.8 4',
  rename: 'M17 3a2.8 2.8 0 0 1 4 4L7.5 20.5 2 22l1.5-5.5Z',
  move: 'M22 19a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h5l2 3h9a2 2 0 0 1 2 2ZM9 13h7m-3-3 3 3-3 3',
  trash: 'M3 6h18M8 6V4h8v2m3 0-1 14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2L5 6m5 5v6m4-6v6',
  restore: 'M3 12a9 9 0 1 0 3-6.7L3 8m0-5v5h5',
  purge: 'M18 6 6 18M6 6l12 12',
  leave: 'M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4m7 14 5-5-5-5m5 5H9',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 16 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="icon-svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
