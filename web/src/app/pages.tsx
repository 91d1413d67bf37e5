/**
 * Route page → lazily loaded component. Every page is its own chunk (the board view and later
 * the editor, MathJax, graphs and PDF stay out of the first load); a chunk that fails to load
 * triggers one guarded reload.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate } from 'react-router-dom';
import type { PageProps } from './pageProps';
import { matchPattern, ROUTES, splitLocale, type PageKey } from './routes';
import { withPrefix } from './routes';
import { isChunkLoadError, reloadForChunkError } from './chunkReload';
import { UI_CATALOGUE } from './buildFlags';

type Page = LazyExoticComponent<ComponentType<PageProps>> & {
  preload?: () => Promise<void>;
  /**
   * The page itself once its chunk has loaded: rendered directly, it does not suspend. A lazy
   * page suspends on its first render even when its chunk is already there, and React 19 shows
   * what a Suspense boundary reveals no sooner than 300 ms after its fallback (FALLBACK_THROTTLE_MS):
   * on the editor bench that held a board's first paint back by ~0.25 s.
   */
  loaded?: ComponentType<PageProps>;
};

export function lazyPage<M>(load: () => Promise<M>, pick: (m: M) => ComponentType<PageProps>): Page {
  const loadPage = () =>
    load().then((m) => {
      page.loaded = pick(m);
      return m;
    });
  const page: Page = lazy(() =>
    loadPage().then(
      (m) => ({ default: pick(m) }),
      (err: unknown) => {
        if (isChunkLoadError(err) && reloadForChunkError(localStorage, Date.now(), () => window.location.reload())) {
          return new Promise<never>(() => undefined); // the page is reloading
        }
        throw err;
      },
    ),
  );
  // the chunk, without rendering: the browser loads a module once, so React's import reuses it
  page.preload = () =>
    loadPage().then(
      () => undefined,
      () => undefined,
    );
  return page;
}

const auth = () => import('../features/auth/MessagePages');
const recovery = () => import('../features/auth/RecoveryPages');
const info = () => import('../features/marketing/InfoPages');
const work = () => import('../features/courses/CoursesPages');
const billing = () => import('../features/billing/BillingPages');

/** The tutor directory is empty until the tutors feature: every id is unknown → the overview. */
function UnknownTutor({ match }: PageProps) {
  return <Navigate to={withPrefix(match.prefix, '/tutors/list')} replace />;
}

export const PAGES: Record<PageKey, Page> = {
  home: lazyPage(
    () => import('../features/marketing/HomePage'),
    (m) => m.HomePage,
  ),
  login: lazyPage(
    () => import('../features/auth/LoginPage'),
    (m) => m.LoginPage,
  ),
  signup: lazyPage(
    () => import('../features/auth/SignupPage'),
    (m) => m.SignupPage,
  ),
  recoveryRequest: lazyPage(recovery, (m) => m.RecoveryRequestPage),
  recoveryRequested: lazyPage(recovery, (m) => m.RecoveryRequestedPage),
  createPassword: lazyPage(recovery, (m) => m.CreatePasswordPage),
  passwordSaved: lazyPage(recovery, (m) => m.PasswordSavedPage),
  changeEmailSuccess: lazyPage(auth, (m) => m.ChangeEmailSuccessPage),
  changeEmailReverted: lazyPage(auth, (m) => m.ChangeEmailRevertedPage),
  joinTeam: lazyPage(billing, (m) => m.JoinTeamPage),
  joinCourse: lazyPage(auth, (m) => m.JoinCoursePage),
  unsubscribed: lazyPage(auth, (m) => m.UnsubscribedPage),
  invalidUnsubscribeLink: lazyPage(auth, (m) => m.InvalidUnsubscribeLinkPage),
  emailVerified: lazyPage(auth, (m) => m.EmailVerifiedPage),
  invalidVerificationLink: lazyPage(auth, (m) => m.InvalidVerificationLinkPage),
  assignmentResponse: lazyPage(work, (m) => m.AssignmentResponsePage),
  board: lazyPage(
    () => import('../features/board/BoardPage'),
    (m) => m.BoardPage,
  ),
  coursesTeach: lazyPage(work, (m) => m.CoursesPage),
  coursesLearn: lazyPage(work, (m) => m.CoursesPage),
  courseContent: lazyPage(work, (m) => m.CoursePage),
  courseParticipants: lazyPage(work, (m) => m.CoursePage),
  dashboard: lazyPage(
    () => import('../features/dashboard/DashboardPage'),
    (m) => m.DashboardPage,
  ),
  insights: lazyPage(work, (m) => m.InsightsPage),
  insightsParticipant: lazyPage(work, (m) => m.InsightsPage),
  assignmentsCreated: lazyPage(work, (m) => m.AssignmentsPage),
  assignmentsAssigned: lazyPage(work, (m) => m.AssignmentsPage),
  assignmentEdit: lazyPage(work, (m) => m.AssignmentPage),
  files: lazyPage(
    () => import('../features/files/FilesPage'),
    (m) => m.FilesPage,
  ),
  fileViewer: lazyPage(
    () => import('../features/files/FileViewerPage'),
    (m) => m.FileViewerPage,
  ),
  help: lazyPage(
    () => import('../features/help/HelpPage'),
    (m) => m.HelpPage,
  ),
  terms: lazyPage(info, (m) => m.TermsPage),
  privacy: lazyPage(info, (m) => m.PrivacyPage),
  forSchool: lazyPage(info, (m) => m.ForSchoolPage),
  features: lazyPage(info, (m) => m.FeaturesPage),
  pricing: lazyPage(billing, (m) => m.PricingPage),
  setup: lazyPage(
    () => import('../features/setup/SetupPage'),
    (m) => m.SetupPage,
  ),
  settings: lazyPage(
    () => import('../features/settings/SettingsPage'),
    (m) => m.SettingsPage,
  ),
  contact: lazyPage(info, (m) => m.ContactPage),
  tutorsList: lazyPage(work, (m) => m.TutorsPage),
  tutor: lazyPage(
    async () => UnknownTutor,
    (m) => m,
  ),
  placeholder: lazyPage(info, (m) => m.PlaceholderPage),
  notFound: lazyPage(info, (m) => m.NotFoundPage),
  // without the catalogue in the build its route does not exist; the page is never reached
  uiCatalogue: UI_CATALOGUE
    ? lazyPage(
        () => import('../ui/catalogue/CataloguePage'),
        (m) => m.CataloguePage,
      )
    : lazyPage(info, (m) => m.NotFoundPage),
};

/**
 * Start loading the chunk of the page at `pathname` now, in parallel with the session request,
 * instead of once the session has resolved (which route renders can depend on the session; the
 * chunk is the same); resolves once it has loaded (or failed: the lazy page reports that). A
 * board's socket and chunk were started earlier still, by boot.ts.
 */
export function preloadPageAt(pathname: string): Promise<void> {
  const { rest } = splitLocale(pathname);
  const route = ROUTES.find((r) => matchPattern(r.pattern, rest));
  return (route && PAGES[route.page].preload?.()) ?? Promise.resolve();
}
