/**
 * The app's icons are lucide-react's (named imports, so the bundle carries only the ones used),
 * drawn in the text colour so they follow the theme. Always decorative: the button or link that
 * holds one carries the words (visible text or aria-label). Emoji glyphs are not used because
 * systems without an emoji font draw them as empty boxes.
 */
import { ArchiveRestore, FolderInput, LogOut, Menu, Pencil, Share2, Trash2, X, type LucideIcon } from 'lucide-react';

const ICONS = {
  menu: Menu,
  share: Share2,
  rename: Pencil,
  move: FolderInput,
  trash: Trash2,
  restore: ArchiveRestore,
  purge: X,
  close: X,
  leave: LogOut,
} as const satisfies Record<string, LucideIcon>;

export type IconName = keyof typeof ICONS;

/** The props every decorative lucide icon gets (the board chrome uses the components directly). */
export const ICON_PROPS = {
  className: 'icon-svg',
  strokeWidth: 2,
  'aria-hidden': true,
  focusable: false,
} as const;

export function Icon({ name, size = 16 }: { name: IconName; size?: number }) {
  const Component = ICONS[name];
  return <Component {...ICON_PROPS} size={size} />;
}
