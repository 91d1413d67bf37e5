import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from './icons';

export type Dock = 'bottom' | 'right';

interface DrawerProps {
  title: ReactNode;
  dock: Dock;
  onDockChange: (dock: Dock) => void;
  onClose: () => void;
  children: ReactNode;
}

/** A panel docked at the bottom or the right; closes on a route change. */
export function Drawer({ title, dock, onDockChange, onClose, children }: DrawerProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const openedAt = useRef(location.key);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  useEffect(() => {
    if (location.key !== openedAt.current) onCloseRef.current();
  }, [location.key]);
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
