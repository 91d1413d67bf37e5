import { avatarColor } from '@wb/proto';

export type AvatarSize = 'sm' | 'md' | 'lg';

export interface AvatarProps {
  /** the person's name: the initials, and the image's alt text when `label` is set */
  name: string;
  /** the colour comes from the id (proto avatarColor), so it is the same everywhere and after reload */
  userId?: number;
  /** a picture instead of the initials */
  src?: string;
  size?: AvatarSize;
  /** name the avatar for screen readers; by default it is decorative (the name is shown beside it) */
  label?: boolean;
}

/** The first letters of the first and last word (one letter for a one-word name). */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase();
}

export function Avatar({ name, userId, src, size = 'md', label = false }: AvatarProps) {
  const className = `kit-avatar kit-avatar-${size}`;
  const a11y = label ? { role: 'img', 'aria-label': name } : { 'aria-hidden': true };
  if (src) {
    return (
      <span className={className} {...a11y}>
        <img src={src} alt="" />
      </span>
    );
  }
  const background = userId === undefined ? undefined : avatarColor(userId);
  return (
    <span className={className} style={background ? { background } : undefined} {...a11y}>
      {initials(name)}
    </span>
  );
}
