/**
 * The app's icons are lucide-react's (named imports, so the bundle carries only the ones used),
 * drawn in the text colour so they follow the theme. Emoji glyphs are not used because systems
 * without an emoji font draw them as empty boxes.
 *
 * `<Icon name="trash" />` for the few app-wide names below; any other lucide icon is passed as a
 * component (`<Icon icon={ChevronUp} />`), so a page's icons stay in that page's chunk — every
 * name added to ICONS is loaded by every page.
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

export type IconProps = ({ name: IconName; icon?: never } | { icon: LucideIcon; name?: never }) & {
  size?: number;
  /** a meaning of its own (a status icon with no words beside it); by default decorative */
  label?: string;
};

export function Icon({ name, icon, size = 16, label }: IconProps) {
  const Component = icon ?? ICONS[name!];
  if (!label) return <Component {...ICON_PROPS} size={size} />;
  return <Component {...ICON_PROPS} aria-hidden={undefined} role="img" aria-label={label} size={size} />;
}
