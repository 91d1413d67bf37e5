import { Component, lazy, Suspense, useEffect, useMemo, useState, type ErrorInfo, type ReactNode } from 'react';
import {
  createBrowserRouter,
  Navigate,
  RouterProvider,
  ScrollRestoration,
  useLocation,
  useNavigate,
} from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSession } from '../features/session/useSession';
import { Banners } from '../features/banners/Banners';
import { CookieConsent } from '../features/consent/CookieConsent';
import { browserLocale, isLocale, pickLocale, setLocale, storedLocale } from '../i18n/i18n';
import { Footer } from '../ui/Footer';
import { Header } from '../ui/Header';
import { Loading } from '../ui/EmptyState';
import { Toasts } from '../ui/Toasts';
import { setNavigator } from './navigation';
import { PAGES } from './pages';
import { PrefixContext } from './prefix';
import { resolveRoute, type RouteMatch } from './routes';

// loaded when first opened: its dialog is the kit's (React Aria), kept out of the logged-out pages' JS
// signed in only: billing's queries stay out of the logged-out pages' JS
const TrialEndedBanner = lazy(() =>
  import('../features/billing/TrialEndedBanner').then((m) => ({ default: m.TrialEndedBanner })),
);
const ShortcutsPanel = lazy(() => import('../ui/ShortcutsPanel').then((m) => ({ default: m.ShortcutsPanel })));

class PageErrorBoundary extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('page failed', error, info.componentStack);
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function setMeta(name: string, content: string | undefined) {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!content) {
    el?.remove();
    return;
  }
  if (!el) {
    el = document.createElement('meta');
    el.name = name;
    document.head.appendChild(el);
  }
  el.content = content;
}

/** Title, description and robots of the current route. */
function useRouteMeta(match: RouteMatch | undefined) {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    if (!match) return;
    document.title = `${t(match.route.title)} · ${t('app.name')}`;
    setMeta('description', match.route.description ? t(match.route.description) : undefined);
    setMeta('robots', match.route.noindex ? 'noindex' : undefined);
  }, [match, t, i18n.language]);
}

function Root() {
  const location = useLocation();
  const navigate = useNavigate();
  const { session, user, settings } = useSession();
  const { i18n } = useTranslation();
  const [shortcuts, setShortcuts] = useState(false);
  const url = location.pathname + location.search;
  const resolution = resolveRoute(url, session);
  const match = 'render' in resolution ? resolution.render : undefined;

  useEffect(() => {
    setNavigator((path) => void navigate(path));
    return () => setNavigator(undefined);
  }, [navigate]);

  // the language: URL prefix, then the user's (or a guest's stored) choice, then the browser
  const prefix = match?.prefix;
  const wanted = pickLocale(
    prefix,
    isLocale(settings.locale) && user ? settings.locale : storedLocale(),
    browserLocale(navigator.languages),
  );
  useEffect(() => {
    if (i18n.language !== wanted) void setLocale(wanted);
  }, [wanted, i18n.language]);

  useRouteMeta(match);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (e.key === '?' && !/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && !target.isContentEditable)
        setShortcuts(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // the page itself when its chunk is there (no Suspense fallback, see pages.tsx), else the lazy
  // one; chosen once per page, so React never swaps one for the other under a mounted page
  const pageKey = match && !match.placeholder ? match.route.page : undefined;
  const Page = useMemo(() => pageKey && (PAGES[pageKey].loaded ?? PAGES[pageKey]), [pageKey]);

  if ('redirect' in resolution) return <Navigate to={resolution.redirect} replace />;
  const { route } = resolution.render;
  const page = !Page ? (
    <Loading />
  ) : (
    <PageErrorBoundary key={route.page} fallback={<p role="alert">{i18n.t('errors.ERR_UNKNOWN')}</p>}>
      <Suspense fallback={<Loading />}>
        <Page match={resolution.render} url={url} />
      </Suspense>
    </PageErrorBoundary>
  );
  return (
    <PrefixContext.Provider value={prefix}>
      {route.isBoardView ? (
        page
      ) : (
        <>
          <a className="skip-link" href="#main">
            {i18n.t('app.skipToContent')}
          </a>
          <Header />
          {user ? <Banners user={user} /> : null}
          {user ? (
            <Suspense fallback={null}>
              <TrialEndedBanner />
            </Suspense>
          ) : null}
          <main id="main" tabIndex={-1}>
            {page}
          </main>
          <Footer loggedIn={!!user} onShortcuts={() => setShortcuts(true)} />
        </>
      )}
      {shortcuts ? (
        <Suspense fallback={null}>
          <ShortcutsPanel onClose={() => setShortcuts(false)} />
        </Suspense>
      ) : null}
      <Toasts />
      <CookieConsent />
      <ScrollRestoration />
    </PrefixContext.Provider>
  );
}

const router = createBrowserRouter([{ path: '*', element: <Root /> }]);

export function App() {
  return <RouterProvider router={router} />;
}
