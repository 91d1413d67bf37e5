import { useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LocalLink, LocalNavLink } from '../app/prefix';
import { useSession } from '../features/session/useSession';
import { useLogoutMutation } from '../features/auth/authApi';
import { LanguageSwitcher } from './LanguageSwitcher';
import { ThemeToggle } from './ThemeToggle';
import { showUpgradeButton } from './upgradePrompt';

/** Spec §9: the burger menu closes above this width. */
export const BURGER_BREAKPOINT_PX = 768;

export function menuItems(loggedIn: boolean, role: string | null | undefined): { to: string; key: string }[] {
  if (!loggedIn) {
    return [
      { to: '/tools/for-school', key: 'forSchool' },
      { to: '/features', key: 'features' },
      { to: '/pricing', key: 'pricing' },
      { to: '/tutors/list', key: 'tutors' },
      { to: '/help/center', key: 'resources' },
    ];
  }
  return [
    { to: '/dashboard', key: 'home' },
    { to: '/dashboard/boards/all', key: 'boards' },
    { to: '/assignments', key: 'assignments' },
    { to: '/files', key: 'files' },
    { to: '/courses', key: 'courses' },
    ...(role === 'student' ? [] : [{ to: '/insights', key: 'insights' }]),
    { to: '/tutors/list', key: 'tutors' },
    { to: '/help/center', key: 'resources' },
  ];
}

function UserMenu({ name }: { name: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [logout] = useLogoutMutation();
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  const location = useLocation();
  useEffect(() => setOpen(false), [location.key]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => !ref.current?.contains(e.target as Node) && setOpen(false);
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  // team membership arrives with the teams service: until then nobody is in a team
  const team: { isOwner: boolean } | null = null as { isOwner: boolean } | null;
  const signOut = async () => {
    await logout();
    window.location.assign('/');
  };
  return (
    <div className="user-menu" ref={ref}>
      <button
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={id}
        aria-label={t('nav.userMenu')}
        onClick={() => setOpen(!open)}
      >
        <span className="avatar" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
        <span className="user-name">{name}</span>
      </button>
      {open ? (
        <ul id={id} className="menu">
          <li>
            <LocalLink to="/settings/profile">{t('nav.profile')}</LocalLink>
          </li>
          <li>
            <LocalLink to="/settings/preferences">{t('nav.preferences')}</LocalLink>
          </li>
          {!team ? (
            <li>
              <LocalLink to="/settings/subscription/upgrade">{t('nav.upgradePlan')}</LocalLink>
            </li>
          ) : team.isOwner ? (
            <li>
              <LocalLink to="/settings/subscription">{t('nav.subscription')}</LocalLink>
            </li>
          ) : null}
          <li>
            <button type="button" onClick={() => void signOut()}>
              {t('nav.signOut')}
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}

export function Header() {
  const { t } = useTranslation();
  const { user, settings, plan } = useSession();
  const [burgerOpen, setBurgerOpen] = useState(false);
  const location = useLocation();
  const navId = useId();
  useEffect(() => setBurgerOpen(false), [location.key]);
  useEffect(() => {
    if (!burgerOpen || typeof matchMedia !== 'function') return;
    const mq = matchMedia(`(min-width: ${BURGER_BREAKPOINT_PX + 1}px)`);
    const close = () => mq.matches && setBurgerOpen(false);
    mq.addEventListener('change', close);
    return () => mq.removeEventListener('change', close);
  }, [burgerOpen]);
  const loggedIn = !!user;
  const upgrade = showUpgradeButton({
    loggedIn,
    planName: plan.name,
    roleOnboarding: settings.roleOnboarding,
    trialEndedBanner: false,
  });
  return (
    <header className="topbar">
      <LocalLink to={loggedIn ? '/dashboard' : '/'} className="brand">
        {t('app.name')}
      </LocalLink>
      <button
        type="button"
        className="burger icon"
        aria-expanded={burgerOpen}
        aria-controls={navId}
        aria-label={t('nav.menu')}
        onClick={() => setBurgerOpen(!burgerOpen)}
      >
        ☰
      </button>
      <nav id={navId} aria-label={t('nav.mainMenu')} className={burgerOpen ? 'main-nav open' : 'main-nav'}>
        <ul>
          {menuItems(loggedIn, settings.role ?? user?.role).map((item) => (
            <li key={item.key}>
              <LocalNavLink to={item.to}>{t(`nav.${item.key}`)}</LocalNavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="header-tools">
        {upgrade ? (
          <LocalLink to="/settings/subscription/upgrade" className="button upgrade">
            {t('nav.upgrade')}
          </LocalLink>
        ) : null}
        <ThemeToggle />
        <LanguageSwitcher />
        {user ? (
          <UserMenu name={user.name} />
        ) : (
          <>
            <LocalLink to="/login">{t('nav.login')}</LocalLink>
            <LocalLink to="/signup" className="button primary">
              {t('nav.signup')}
            </LocalLink>
          </>
        )}
      </div>
    </header>
  );
}
