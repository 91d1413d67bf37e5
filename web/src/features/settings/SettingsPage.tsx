import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/pageProps';
import { LocalNavLink } from '../../app/prefix';
import { SETTINGS_PAGES, type SettingsPage as SettingsKey } from '../../app/routes';
import { EmptyState, Loading } from '../../ui/EmptyState';
import { AuthenticationSettings, EmailOptionsSettings, ProfileSettings, TerminateSettings } from './AccountSettings';
import { PreferencesSettings } from './PreferencesSettings';
import { useNamespace } from '../../i18n/useNamespace';
import {
  InvoicesSettings,
  SubscriptionOverview,
  UpdateSettings,
  UpgradeSettings,
} from '../billing/SubscriptionSettings';
import { CloseBusinessSettings, LeaveBusinessSettings, TeamView, UsersSettings } from '../billing/TeamSettings';
import { useTeam } from '../billing/useBilling';

/** Sections shown in the settings sidebar: subscription and users for the owner (or no team), team for members. */
function navFor(team: { isOwner: boolean } | null): SettingsKey[] {
  return [
    'profile',
    'preferences',
    'email-options',
    'authentication',
    ...(team && !team.isOwner ? [] : (['subscription'] as const)),
    ...(team?.isOwner ? (['users'] as const) : []),
    'team',
    'tutor-profile',
    'terminate',
  ];
}

function Section({ page }: { page: SettingsKey }) {
  const { t } = useTranslation();
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
      return <SubscriptionOverview />;
    case 'subscription/upgrade':
      return <UpgradeSettings />;
    case 'subscription/update':
      return <UpdateSettings />;
    case 'subscription/invoices':
      return <InvoicesSettings />;
    case 'users':
      return <UsersSettings />;
    case 'team':
      return <TeamView />;
    case 'leave-business':
      return <LeaveBusinessSettings />;
    case 'close-business':
      return <CloseBusinessSettings />;
    case 'tutor-profile':
      return <EmptyState title={t('settings.noTutorProfile')} />;
    default:
      return null;
  }
}

export function SettingsPage({ match }: PageProps) {
  const { t } = useTranslation();
  const ready = useNamespace('billing');
  const team = useTeam();
  const page = match.route.pattern.slice('settings/'.length) as SettingsKey;
  if (!SETTINGS_PAGES.includes(page)) return null;
  return (
    <div className="with-sidebar">
      <nav aria-label={t('settings.nav')} className="sidebar">
        <ul>
          {navFor(team).map((p) => (
            <li key={p}>
              <LocalNavLink to={`/settings/${p}`}>{t(`settings.${p}`)}</LocalNavLink>
            </li>
          ))}
        </ul>
      </nav>
      <section className="page settings">
        <h1>{t(`settings.${page}`)}</h1>
        {ready ? <Section page={page} /> : <Loading />}
      </section>
    </div>
  );
}
