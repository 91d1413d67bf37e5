/**
 * The account button and its menu (kit Menu: links to the settings and "Sign out"). Loaded lazily
 * by Header for a signed-in user only, so react-aria stays out of the logged-out pages' JS.
 */
import { useNavigate, useHref } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-aria-components';
import { useLocalPath } from '../app/prefix';
import { useLogoutMutation } from '../features/auth/authApi';
import { useTeam } from '../features/billing/useBilling';
import { MenuItem, MenuSection, MenuTrigger } from './kit/Menu';
import { AccountButton } from './AccountButton';

export default function AccountMenu({ name, userId }: { name: string; userId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const lp = useLocalPath();
  const [logout] = useLogoutMutation();
  const team = useTeam();
  const signOut = async () => {
    await logout();
    window.location.assign('/');
  };
  return (
    // menu links go through the router (no page reload)
    <RouterProvider navigate={(to) => void navigate(to)} useHref={useHref}>
      <MenuTrigger
        label={t('nav.userMenu')}
        placement="bottom end"
        className="account-menu"
        trigger={<AccountButton name={name} userId={userId} />}
      >
        {/* the name heads the menu where the bar shows only the avatar (styles.css) */}
        <MenuSection title={name}>
          <MenuItem href={lp('/settings/profile')}>{t('nav.profile')}</MenuItem>
          <MenuItem href={lp('/settings/preferences')}>{t('nav.preferences')}</MenuItem>
          {!team ? (
            <MenuItem href={lp('/settings/subscription/upgrade')}>{t('nav.upgradePlan')}</MenuItem>
          ) : team.isOwner ? (
            <MenuItem href={lp('/settings/subscription')}>{t('nav.subscription')}</MenuItem>
          ) : null}
          <MenuItem onAction={() => void signOut()}>{t('nav.signOut')}</MenuItem>
        </MenuSection>
      </MenuTrigger>
    </RouterProvider>
  );
}
