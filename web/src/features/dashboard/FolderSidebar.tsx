import { useTranslation } from 'react-i18next';
import type { FolderDto } from '@wb/proto';
import { LocalNavLink } from '../../app/prefix';
import { Icon } from '../../ui/icons';
import { FOLDER_VIEWS } from './folderViews';

interface FolderSidebarProps {
  folders: readonly FolderDto[];
  /** boards per view key / folder id (countByView) */
  counts: ReadonlyMap<string, number>;
  onNewFolder: () => void;
  onRenameFolder: (folder: FolderDto) => void;
  onDeleteFolder: (folder: FolderDto) => void;
}

/** The dashboard's folder views (spec §2) with board counts, then the user's own folders. */
export function FolderSidebar({ folders, counts, onNewFolder, onRenameFolder, onDeleteFolder }: FolderSidebarProps) {
  const { t } = useTranslation();
  const { t: tb } = useTranslation('boards');
  const count = (key: string) => {
    const n = counts.get(key);
    return n ? <span className="count">{n}</span> : null;
  };
  return (
    <nav aria-label={t('dashboard.folders')} className="sidebar folder-sidebar">
      <ul>
        {FOLDER_VIEWS.map((v) => (
          <li key={v.key}>
            <LocalNavLink to={v.to}>
              {t(v.label)} {count(v.key)}
            </LocalNavLink>
          </li>
        ))}
      </ul>
      <div className="sidebar-heading-row">
        <h2 className="sidebar-heading">{t('dashboard.myFolders')}</h2>
        <button type="button" className="small" onClick={onNewFolder}>
          {tb('folder.new')}
        </button>
      </div>
      {folders.length === 0 ? (
        <p className="muted">{t('dashboard.noFolders')}</p>
      ) : (
        <ul className="folder-list">
          {folders.map((f) => (
            <li key={f.id}>
              <LocalNavLink to={`/dashboard/boards/${f.id}`}>
                {f.name} {count(String(f.id))}
              </LocalNavLink>
              <span className="folder-tools">
                <button
                  type="button"
                  className="icon"
                  aria-label={tb('folder.renameNamed', { name: f.name })}
                  title={tb('folder.rename')}
                  onClick={() => onRenameFolder(f)}
                >
                  <Icon name="rename" />
                </button>
                <button
                  type="button"
                  className="icon"
                  aria-label={tb('folder.deleteNamed', { name: f.name })}
                  title={tb('folder.delete')}
                  onClick={() => onDeleteFolder(f)}
                >
                  <Icon name="trash" />
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
