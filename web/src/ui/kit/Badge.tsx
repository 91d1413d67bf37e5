import type { HTMLAttributes } from 'react';

export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone;
}

/** A short status word (Draft, Paid, Overdue). The word says it: the colour only repeats it. */
export function Badge({ tone = 'neutral', className, ...rest }: BadgeProps) {
  return <span className={['badge', `badge-${tone}`, className].filter(Boolean).join(' ')} {...rest} />;
}
