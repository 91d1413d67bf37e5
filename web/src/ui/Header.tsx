import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LocalLink, LocalNavLink } from '../app/prefix';
import { useSession } from '../features/session/useSession';
import { Icon } from './icons';
import { LanguageSwitcher } from './LanguageSwitcher';
import { ThemeToggle } from './ThemeToggle';
import { AccountButton } from './AccountButton';

/** Spec §9: the burger menu closes above this width. */
export const BURGER_BREAKPOINT_PX = 768;

/** `end`: active on that path only (Home is /dashboard: not in a folder view below it) */
export function menuItems(
  loggedIn: boolean,
  role: string | null | undefined,
): { to: string; key: string; end?: boolean }[] {
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
    { to: '/dashboard', key: 'home', end: true },
    { to: '/dashboard/boards/all', key: 'boards' },
    { to: '/assignments', key: 'assignments' },
    { to: '/files', key: 'files' },
    { to: '/courses', key: 'courses' },
    ...(role === 'student' ? [] : [{ to: '/insights', key: 'insights' }]),
    { to: '/tutors/list', key: 'tutors' },
    { to: '/help/center', key: 'resources' },
  ];
}

/** close a popup on Escape and on a press outside `ref` while `open` */
function useDismiss(open: boolean, ref: React.RefObject<HTMLElement | null>, close: () => void) {
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => !ref.current?.contains(e.target as Node) && close();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close();
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, ref, close]);
}

// react-aria comes with the menu: never in the logged-out pages' JS
const AccountMenu = lazy(() => import('./AccountMenu'));
// signed in only: billing's queries stay out of the logged-out pages' JS
const UpgradeLink = lazy(() => import('../features/billing/UpgradeLink'));

/**
 * Above 768 px: brand, main menu, tools (upgrade, theme, language), account. At 768 px and less
 * the menu and the tools collapse into the burger panel; the brand, the burger and the account
 * button (or "Log in") stay in the bar.
 */
export function Header() {
  const { t } = useTranslation();
  const { user, settings } = useSession();
  const [burgerOpen, setBurgerOpen] = useState(false);
  const location = useLocation();
  const panelId = useId();
  const ref = useRef<HTMLElement>(null);
  const closeBurger = useCallback(() => setBurgerOpen(false), []);
  useEffect(closeBurger, [location.key, closeBurger]);
  useDismiss(burgerOpen, ref, closeBurger);
  useEffect(() => {
    if (!burgerOpen || typeof matchMedia !== 'function') return;
    const mq = matchMedia(`(min-width: ${BURGER_BREAKPOINT_PX + 1}px)`);
    const close = () => mq.matches && setBurgerOpen(false);
    mq.addEventListener('change', close);
    return () => mq.removeEventListener('change', close);
  }, [burgerOpen]);
  const loggedIn = !!user;
  return (
    <header className="topbar" ref={ref}>
      <LocalLink to={loggedIn ? '/dashboard' : '/'} className="brand">
        {t('app.name')}
      </LocalLink>
      <button
        type="button"
        className="burger icon"
        aria-expanded={burgerOpen}
        aria-controls={panelId}
        aria-label={t('nav.menu')}
        onClick={() => setBurgerOpen(!burgerOpen)}
      >
        <Icon name="menu" size={22} />
      </button>
      <div id={panelId} className={burgerOpen ? 'header-panel open' : 'header-panel'}>
        <nav aria-label={t('nav.mainMenu')} className="main-nav">
          <ul>
            {menuItems(loggedIn, settings.role ?? user?.role).map((item) => (
              <li key={item.key}>
                <LocalNavLink to={item.to} end={item.end}>
                  {t(`nav.${item.key}`)}
                </LocalNavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="header-tools">
          {user ? (
            <Suspense fallback={null}>
              <UpgradeLink />
            </Suspense>
          ) : null}
          <ThemeToggle />
          <LanguageSwitcher />
          {!user ? (
            // narrow screens: sign up moves into the panel, "Log in" stays in the bar
            <LocalLink to="/signup" className="button primary panel-signup">
              {t('nav.signup')}
            </LocalLink>
          ) : null}
        </div>
      </div>
      <div className="header-account">
        {user ? (
          <div className="user-menu">
            {/* until the menu loads, the same button (it opens nothing yet) */}
            <Suspense fallback={<AccountButton name={user.name} userId={user.id} aria-expanded={false} />}>
              <AccountMenu name={user.name} userId={user.id} />
            </Suspense>
          </div>
        ) : (
          <>
            <LocalLink to="/login">{t('nav.login')}</LocalLink>
            <LocalLink to="/signup" className="button primary bar-signup">
              {t('nav.signup')}
            </LocalLink>
          </>
        )}
      </div>
    </header>
  );
}
