import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/pageProps';
import { LocalNavLink } from '../../app/prefix';
import { HELP_PAGES } from '../../app/routes';

export function HelpPage({ match }: PageProps) {
  const { t } = useTranslation();
  const current = match.route.pattern.slice('help/'.length);
  return (
    <div className="with-sidebar">
      <nav aria-label={t('help.topics')} className="sidebar">
        <ul>
          {HELP_PAGES.map((p) => (
            <li key={p}>
              <LocalNavLink to={`/help/${p}`}>{t(`help.${p}`)}</LocalNavLink>
            </li>
          ))}
        </ul>
      </nav>
      <section className="page">
        <h1>{t(`help.${current}`)}</h1>
        <p>{current === 'center' ? t('meta.help') : t('help.comingSoon')}</p>
      </section>
    </div>
  );
}
