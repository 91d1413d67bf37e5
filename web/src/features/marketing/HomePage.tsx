import { useTranslation } from 'react-i18next';
import { LocalLink } from '../../app/prefix';

export function HomePage() {
  const { t } = useTranslation();
  return (
    <section className="hero">
      <h1>{t('home.heroTitle')}</h1>
      <p className="lead">{t('home.heroText')}</p>
      <p className="muted">{t('footer.claim')}</p>
      <LocalLink to="/signup" className="button primary">
        {t('home.getStarted')}
      </LocalLink>
      <ul className="feature-list">
        {(['f1', 'f2', 'f3', 'f4'] as const).map((k) => (
          <li key={k}>{t(`home.${k}`)}</li>
        ))}
      </ul>
    </section>
  );
}
