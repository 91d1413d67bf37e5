import type { ReactNode } from 'react';

export interface EmptyStateProps {
  title?: ReactNode;
  /** the explanation and, usually, the action that fills the list */
  children?: ReactNode;
  /** a decorative glyph or icon element */
  icon?: ReactNode;
}

/** What a list or feature shows when it has nothing yet. */
export function EmptyState({ title, children, icon = '◇' }: EmptyStateProps) {
  return (
    <div className="empty-state">
      <div className="empty-icon" aria-hidden="true">
        {icon}
      </div>
      {title ? <p className="empty-title">{title}</p> : null}
      {children}
    </div>
  );
}
