/**
 * A panel docked at the bottom or the right (spec §3: dock toggle, closes on a route change). Not
 * modal: the page beside it stays usable (files are dragged from it onto the board), so no focus
 * trap, no backdrop and no Escape (its own search and page views use it); on closing, a focus left
 * inside goes back to where it was.
 */
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';
import { useCloseOnRouteChange } from './Dialog';

export type Dock = 'bottom' | 'right';

export interface DrawerProps {
  title: ReactNode;
  dock: Dock;
  onDockChange: (dock: Dock) => void;
  onClose: () => void;
  children: ReactNode;
}

export function Drawer({ title, dock, onDockChange, onClose, children }: DrawerProps) {
  const { t } = useTranslation();
  useCloseOnRouteChange(onClose);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    return () => {
      // back to the opener only if the focus was in the drawer (not if the user moved on)
      if (!document.activeElement || document.activeElement === document.body) before?.focus?.();
    };
  }, []);
  const other: Dock = dock === 'bottom' ? 'right' : 'bottom';
  return (
    <aside className={`drawer drawer-${dock}`} aria-label={typeof title === 'string' ? title : undefined}>
      <header className="drawer-head">
        <h2>{title}</h2>
        <button type="button" onClick={() => onDockChange(other)}>
          {other === 'bottom' ? t('drawer.dockBottom') : t('drawer.dockRight')}
        </button>
        <button type="button" className="icon" aria-label={t('app.close')} onClick={onClose}>
          <Icon name="close" />
        </button>
      </header>
      <div className="drawer-body">{children}</div>
    </aside>
  );
}
