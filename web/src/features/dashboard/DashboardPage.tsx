import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/pageProps';
import { LocalNavLink } from '../../app/prefix';
import { EmptyState } from '../../ui/EmptyState';
import { FOLDER_VIEWS } from './folderViews';

/** Folder sidebar and the board list of the selected view (boards arrive with the boards feature). */
export function DashboardPage({ match }: PageProps) {
  const { t } = useTranslation();
  const folderId = match.params.folderId ?? 'all';
  const view = FOLDER_VIEWS.find((v) => v.key === folderId);
  return (
    <div className="with-sidebar">
      <nav aria-label={t('dashboard.folders')} className="sidebar">
        <ul>
          {FOLDER_VIEWS.map((v) => (
            <li key={v.key}>
              <LocalNavLink to={v.to}>{t(v.label)}</LocalNavLink>
            </li>
          ))}
        </ul>
        <h2 className="sidebar-heading">{t('dashboard.myFolders')}</h2>
        <p className="muted">{t('dashboard.noFolders')}</p>
      </nav>
      <section className="page" aria-labelledby="board-list-title">
        <h1 id="board-list-title">{view ? t(view.label) : t('title.dashboard')}</h1>
        <EmptyState title={folderId === 'trashed' ? t('dashboard.trashEmpty') : t('dashboard.emptyTitle')}>
          {folderId === 'trashed' ? null : <p>{t('dashboard.emptyText')}</p>}
        </EmptyState>
      </section>
    </div>
  );
}
