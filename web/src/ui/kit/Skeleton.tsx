import type { CSSProperties } from 'react';

export interface SkeletonProps {
  /** text: lines of text; block: a box (a preview, a card); circle: an avatar */
  shape?: 'text' | 'block' | 'circle';
  /** text only: how many lines (the last is shorter) */
  lines?: number;
  width?: CSSProperties['width'];
  height?: CSSProperties['height'];
}

/**
 * A grey placeholder where content is loading. Decorative: the region that is loading says so
 * (aria-busy, or a Loading status). The shimmer stops for people who ask for reduced motion.
 */
export function Skeleton({ shape = 'text', lines = 1, width, height }: SkeletonProps) {
  if (shape === 'text') {
    return (
      <span className="skeleton-lines" aria-hidden="true" style={{ width }}>
        {Array.from({ length: lines }, (_, i) => (
          <span
            key={i}
            className="skeleton skeleton-text"
            style={lines > 1 && i === lines - 1 ? { width: '60%' } : undefined}
          />
        ))}
      </span>
    );
  }
  return <span className={`skeleton skeleton-${shape}`} aria-hidden="true" style={{ width, height }} />;
}
