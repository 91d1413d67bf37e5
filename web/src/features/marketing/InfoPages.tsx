/** Marketing, legal and support pages (pricing lives in features/billing). */
import { useTranslation } from 'react-i18next';
import { LocalLink } from '../../app/prefix';
import { Page } from '../../ui/EmptyState';

export function ForSchoolPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('title.forSchool')}>
      <p className="lead">{t('marketing.forSchoolText')}</p>
      <LocalLink to="/signup" className="button primary">
        {t('home.getStarted')}
      </LocalLink>
    </Page>
  );
}

export function FeaturesPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('title.features')}>
      <p className="lead">{t('marketing.featuresText')}</p>
      <ul className="feature-list">
        {(['f1', 'f2', 'f3', 'f4'] as const).map((k) => (
          <li key={k}>{t(`home.${k}`)}</li>
        ))}
      </ul>
    </Page>
  );
}

export function TermsPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('title.terms')}>
      <p>{t('legal.termsText')}</p>
    </Page>
  );
}

export function PrivacyPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('title.privacy')}>
      <p>{t('legal.privacyText')}</p>
    </Page>
  );
}

export function ContactPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('title.contact')}>
      <p>{t('contact.text')}</p>
    </Page>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('title.notFound')}>
      <p>{t('notFound.text')}</p>
      <LocalLink to="/">{t('notFound.home')}</LocalLink>
    </Page>
  );
}

export function PlaceholderPage() {
  const { t } = useTranslation();
  return <Page title={t('app.placeholder')} />;
}
