import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/pageProps';
import { LocalNavLink } from '../../app/prefix';
import { SETTINGS_PAGES, type SettingsPage as SettingsKey } from '../../app/routes';
import { EmptyState } from '../../ui/EmptyState';
import { useSession } from '../session/useSession';
import { AuthenticationSettings, EmailOptionsSettings, ProfileSettings, TerminateSettings } from './AccountSettings';
import { PreferencesSettings } from './PreferencesSettings';

/** Sections shown in the settings sidebar (team pages appear with the teams feature). */
const NAV: SettingsKey[] = [
  'profile',
  'preferences',
  'email-options',
  'authentication',
  'subscription',
  'tutor-profile',
  'team',
  'terminate',
];

function Section({ page }: { page: SettingsKey }) {
  const { t } = useTranslation();
  const { plan } = useSession();
  switch (page) {
    case 'profile':
      return <ProfileSettings />;
    case 'preferences':
      return <PreferencesSettings />;
    case 'email-options':
      return <EmailOptionsSettings />;
    case 'authentication':
      return <AuthenticationSettings />;
    case 'terminate':
      return <TerminateSettings />;
    case 'subscription':
    case 'subscription/upgrade':
    case 'subscription/update':
      return <EmptyState title={t('settings.currentPlan', { plan: t(`plans.${plan.name}`) })} />;
    case 'subscription/invoices':
      return <EmptyState title={t('settings.noInvoices')} />;
    case 'tutor-profile':
      return <EmptyState title={t('settings.noTutorProfile')} />;
    default:
      return <EmptyState title={t('settings.noTeam')} />;
  }
}

export function SettingsPage({ match }: PageProps) {
  const { t } = useTranslation();
  const page = match.route.pattern.slice('settings/'.length) as SettingsKey;
  if (!SETTINGS_PAGES.includes(page)) return null;
  return (
    <div className="with-sidebar">
      <nav aria-label={t('settings.nav')} className="sidebar">
        <ul>
          {NAV.map((p) => (
            <li key={p}>
              <LocalNavLink to={`/settings/${p}`}>{t(`settings.${p}`)}</LocalNavLink>
            </li>
          ))}
        </ul>
      </nav>
      <section className="page settings">
        <h1>{t(`settings.${page}`)}</h1>
        <Section page={page} />
      </section>
    </div>
  );
}
