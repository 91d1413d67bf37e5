import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/pageProps';
import { LocalLink } from '../../app/prefix';

/** Full-screen board view; the editor itself arrives with the realtime feature. */
export function BoardPage({ match }: PageProps) {
  const { t } = useTranslation();
  return (
    <main id="main" className="board-view">
      <h1 className="sr-only">{t('board.label', { id: match.params.id })}</h1>
      <div className="board-canvas" role="img" aria-label={t('board.label', { id: match.params.id })}>
        <p>{t('board.preparing')}</p>
        <LocalLink to="/dashboard">{t('board.backToDashboard')}</LocalLink>
      </div>
    </main>
  );
}
