/**
 * The route table of spec §2 and every redirect rule, as pure data and pure functions:
 * `resolveRoute(url, session)` answers what to render or where to go, so the guards are tested
 * without a DOM (routes.test.ts) and the React router only draws what this decides.
 */
import { LOCALES, type Locale, type Role } from '@wb/proto';
import { UI_CATALOGUE } from './buildFlags';

/** Where a route's page lives: a key of `pages.tsx`. */
export type PageKey =
  | 'home'
  | 'login'
  | 'signup'
  | 'recoveryRequest'
  | 'recoveryRequested'
  | 'createPassword'
  | 'passwordSaved'
  | 'changeEmailSuccess'
  | 'changeEmailReverted'
  | 'joinTeam'
  | 'joinCourse'
  | 'unsubscribed'
  | 'invalidUnsubscribeLink'
  | 'emailVerified'
  | 'invalidVerificationLink'
  | 'assignmentResponse'
  | 'board'
  | 'coursesTeach'
  | 'coursesLearn'
  | 'courseContent'
  | 'courseParticipants'
  | 'dashboard'
  | 'insights'
  | 'insightsParticipant'
  | 'assignmentsCreated'
  | 'assignmentsAssigned'
  | 'assignmentEdit'
  | 'files'
  | 'fileViewer'
  | 'help'
  | 'terms'
  | 'privacy'
  | 'forSchool'
  | 'features'
  | 'pricing'
  | 'setup'
  | 'settings'
  | 'contact'
  | 'tutorsList'
  | 'tutor'
  | 'placeholder'
  | 'uiCatalogue'
  | 'notFound';

/** Which onboarding-exempt group a route belongs to (spec §2 redirect rules). */
type Area = 'setup' | 'help' | 'legal' | 'contact' | 'settings' | 'emailVerified' | 'other';

export interface RouteDef {
  /** segments; `:name` = one segment, `*name` = the rest (one or more segments) */
  pattern: string;
  page: PageKey;
  /** i18n key of the document title */
  title: string;
  /** i18n key of the meta description (public pages) */
  description?: string;
  requiresUser?: boolean;
  isBoardView?: boolean;
  noindex?: boolean;
  area?: Area;
  /** extra rule after login and onboarding checks */
  guard?: (ctx: GuardContext) => string | undefined;
}

export interface Session {
  /** 'loading' until the user (and, for a user, the settings) are known */
  status: 'loading' | 'guest' | 'user';
  role?: Role | null;
  roleOnboarding?: boolean;
  /** team membership when known (teams arrive later): a member of someone else's team */
  team?: { isOwner: boolean } | null;
}

interface GuardContext {
  session: Session;
  params: Record<string, string>;
  /** builds a path with the current language prefix */
  to: (path: string) => string;
  query: URLSearchParams;
}

export const HELP_PAGES = [
  'whats-new',
  'center',
  'getting-started',
  'sharing-board',
  'dashboard-overview',
  'collaboration-time',
  'board-navigation',
  'toolbar-features',
  'drawing-tools',
  'sticky-notes',
  'connectors',
  'polylines-curves',
  'equation-editor',
  'graphing-tool',
  'images-documents',
  'editing-objects',
  'power-tools',
  'video-call',
  'board-chat',
  'assignments',
  'export-pdf-image',
  'preferences',
  'tutor-profile',
  'upgraded-experience',
  'frequently-asked-questions',
] as const;

export const SETTINGS_PAGES = [
  'profile',
  'tutor-profile',
  'authentication',
  'preferences',
  'email-options',
  'terminate',
  'subscription',
  'subscription/upgrade',
  'subscription/update',
  'subscription/invoices',
  'users',
  'team',
  'leave-business',
  'close-business',
] as const;
export type SettingsPage = (typeof SETTINGS_PAGES)[number];

export const ASSIGNMENT_TABS = ['edit', 'preview', 'assign', 'submissions'] as const;

const isStudent = (s: Session) => s.role === 'student';

const studentsToDashboard = ({ session, to }: GuardContext) => (isStudent(session) ? to('/dashboard') : undefined);

/** Subscription pages belong to the team owner; a member of someone else's team goes to Team. */
const ownerOnlySubscription = ({ session, to }: GuardContext) =>
  session.team && !session.team.isOwner ? to('/settings/team') : undefined;

/** Spec §2, in match order (first match wins). */
export const ROUTES: readonly RouteDef[] = [
  // public and authentication
  {
    pattern: '',
    page: 'home',
    title: 'title.home',
    description: 'meta.home',
    guard: ({ session, to }) => (session.status === 'user' ? to('/dashboard') : undefined),
  },
  { pattern: 'login', page: 'login', title: 'title.login', description: 'meta.login', guard: loggedInGoesOn },
  { pattern: 'signup', page: 'signup', title: 'title.signup', description: 'meta.signup', guard: loggedInGoesOn },
  { pattern: 'password-recovery/request', page: 'recoveryRequest', title: 'title.recovery', noindex: true },
  { pattern: 'password-recovery/requested', page: 'recoveryRequested', title: 'title.recovery', noindex: true },
  {
    pattern: 'password-recovery/create-password',
    page: 'createPassword',
    title: 'title.createPassword',
    noindex: true,
  },
  { pattern: 'password-recovery/password-saved', page: 'passwordSaved', title: 'title.passwordSaved', noindex: true },
  { pattern: 'change-email/success', page: 'changeEmailSuccess', title: 'title.changeEmail', noindex: true },
  { pattern: 'change-email/reverted', page: 'changeEmailReverted', title: 'title.changeEmail', noindex: true },
  { pattern: 'join-team', page: 'joinTeam', title: 'title.joinTeam', noindex: true },
  { pattern: 'join-course', page: 'joinCourse', title: 'title.joinCourse', noindex: true },
  { pattern: 'unsubscribed', page: 'unsubscribed', title: 'title.unsubscribed', noindex: true },
  { pattern: 'invalid-unsubscribe-link', page: 'invalidUnsubscribeLink', title: 'title.invalidLink', noindex: true },
  {
    pattern: 'email-verified',
    page: 'emailVerified',
    title: 'title.emailVerified',
    noindex: true,
    area: 'emailVerified',
  },
  { pattern: 'invalid-verification-link', page: 'invalidVerificationLink', title: 'title.invalidLink', noindex: true },
  { pattern: 'assignment/:id', page: 'assignmentResponse', title: 'title.assignment', noindex: true },
  // boards: guests join by link, so no login; full screen
  { pattern: 'boards/*id', page: 'board', title: 'title.board', isBoardView: true, noindex: true },
  // courses
  { pattern: 'courses/teach', page: 'coursesTeach', title: 'title.courses', requiresUser: true, noindex: true },
  { pattern: 'courses/learn', page: 'coursesLearn', title: 'title.courses', requiresUser: true, noindex: true },
  {
    pattern: 'courses/:courseId',
    page: 'courseContent',
    title: 'title.course',
    requiresUser: true,
    noindex: true,
    guard: ({ params, to }) => to(`/courses/${params.courseId}/content`),
  },
  {
    pattern: 'courses/:courseId/content',
    page: 'courseContent',
    title: 'title.course',
    requiresUser: true,
    noindex: true,
  },
  {
    pattern: 'courses/:courseId/participants',
    page: 'courseParticipants',
    title: 'title.course',
    requiresUser: true,
    noindex: true,
  },
  // dashboard area
  { pattern: 'dashboard', page: 'dashboard', title: 'title.dashboard', requiresUser: true, noindex: true },
  {
    pattern: 'dashboard/boards/:folderId',
    page: 'dashboard',
    title: 'title.dashboard',
    requiresUser: true,
    noindex: true,
  },
  {
    pattern: 'insights',
    page: 'insights',
    title: 'title.insights',
    requiresUser: true,
    noindex: true,
    guard: studentsToDashboard,
  },
  {
    pattern: 'insights/participants/:participantKey',
    page: 'insightsParticipant',
    title: 'title.insights',
    requiresUser: true,
    noindex: true,
    guard: studentsToDashboard,
  },
  {
    pattern: 'assignments/created',
    page: 'assignmentsCreated',
    title: 'title.assignments',
    requiresUser: true,
    noindex: true,
  },
  {
    pattern: 'assignments/assigned',
    page: 'assignmentsAssigned',
    title: 'title.assignments',
    requiresUser: true,
    noindex: true,
  },
  {
    pattern: 'assignments/:id',
    page: 'assignmentEdit',
    title: 'title.assignment',
    requiresUser: true,
    noindex: true,
    guard: ({ params, to }) => to(`/assignments/${params.id}/edit`),
  },
  ...ASSIGNMENT_TABS.map((tab): RouteDef => ({
    pattern: `assignments/:id/${tab}`,
    page: 'assignmentEdit',
    title: 'title.assignment',
    requiresUser: true,
    noindex: true,
  })),
  {
    pattern: 'assignments/:id/submissions/:submissionId',
    page: 'assignmentEdit',
    title: 'title.assignment',
    requiresUser: true,
    noindex: true,
  },
  { pattern: 'files', page: 'files', title: 'title.files', requiresUser: true, noindex: true },
  { pattern: 'documents', page: 'files', title: 'title.files', requiresUser: true, noindex: true },
  { pattern: 'images', page: 'files', title: 'title.files', requiresUser: true, noindex: true },
  { pattern: 'files/:id', page: 'fileViewer', title: 'title.files', requiresUser: true, noindex: true },
  // help
  ...HELP_PAGES.map((p): RouteDef => ({
    pattern: `help/${p}`,
    page: 'help',
    title: `help.${p}`,
    description: 'meta.help',
    area: 'help',
  })),
  { pattern: 'terms', page: 'terms', title: 'title.terms', area: 'legal' },
  { pattern: 'privacy', page: 'privacy', title: 'title.privacy', area: 'legal' },
  // marketing
  { pattern: 'tools/for-school', page: 'forSchool', title: 'title.forSchool', description: 'meta.forSchool' },
  { pattern: 'features', page: 'features', title: 'title.features', description: 'meta.features' },
  {
    pattern: 'pricing',
    page: 'pricing',
    title: 'title.pricing',
    description: 'meta.pricing',
    guard: ({ session, to }) => (session.status === 'user' ? to('/settings/subscription') : undefined),
  },
  // setup: only while the onboarding flag is set
  {
    pattern: 'setup',
    page: 'setup',
    title: 'title.setup',
    requiresUser: true,
    noindex: true,
    area: 'setup',
    guard: ({ session, to, query }) =>
      session.roleOnboarding ? undefined : (safeGoto(query.get('goto')) ?? to('/dashboard')),
  },
  // settings
  ...SETTINGS_PAGES.map((p): RouteDef => ({
    pattern: `settings/${p}`,
    page: 'settings',
    title: 'title.settings',
    requiresUser: true,
    noindex: true,
    area: 'settings',
    guard: p.startsWith('subscription') ? ownerOnlySubscription : undefined,
  })),
  // support and tutors
  { pattern: 'contact', page: 'contact', title: 'title.contact', area: 'contact' },
  { pattern: 'tutors/list', page: 'tutorsList', title: 'title.tutors', description: 'meta.tutors' },
  {
    pattern: 'tutors/:tutorId',
    page: 'tutor',
    title: 'title.tutors',
    guard: ({ params, to }) => (isTutorId(params.tutorId!) ? undefined : to('/tutors/list')),
  },
  // other
  { pattern: '_placeholder', page: 'placeholder', title: 'title.home', noindex: true },
  // the UI kit's catalogue: development and test builds only (not production)
  ...(UI_CATALOGUE
    ? [{ pattern: '_ui', page: 'uiCatalogue', title: 'title.uiCatalogue', noindex: true } as const]
    : []),
  { pattern: '404', page: 'notFound', title: 'title.notFound', noindex: true },
];

const NOT_FOUND = ROUTES.find((r) => r.page === 'notFound')!;

/** Pure aliases: path (without prefix) → target; `@role` targets depend on the user's role. */
const ALIASES: Record<string, string | ((s: Session) => string)> = {
  help: '/help/center',
  tools: '/tools/for-school',
  'for-school': '/tools/for-school',
  support: '/contact',
  tutors: '/tutors/list',
  settings: '/settings/profile',
  'dashboard/boards': '/dashboard/boards/all',
  boards: (s) => (s.status === 'user' ? '/dashboard' : '/'),
};
/** Role-based redirects, which need a known user. */
const ROLE_ALIASES: Record<string, (s: Session) => string> = {
  courses: (s) => (isStudent(s) ? '/courses/learn' : '/courses/teach'),
  assignments: (s) => (isStudent(s) ? '/assignments/assigned' : '/assignments/created'),
};

/** Spec §5: the tutor id must parse as a non-zero integer. */
export function isTutorId(value: string): boolean {
  return /^-?\d+$/.test(value) && Number.parseInt(value, 10) !== 0;
}

/** A same-site path to continue to, or undefined (never an absolute or protocol-relative URL). */
export function safeGoto(goto: string | null | undefined): string | undefined {
  if (!goto || !goto.startsWith('/') || goto.startsWith('//') || goto.startsWith('/\\')) return undefined;
  return goto;
}

function loggedInGoesOn({ session, to, query }: GuardContext): string | undefined {
  return session.status === 'user' ? (safeGoto(query.get('goto')) ?? to('/dashboard')) : undefined;
}

const NON_DEFAULT_LOCALES = new Set<string>(LOCALES.filter((l) => l !== 'en'));

/** Splits `/de/login` into the language prefix and the rest (`login`). English has no prefix. */
export function splitLocale(pathname: string): { prefix: Locale | undefined; rest: string } {
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length > 0 && NON_DEFAULT_LOCALES.has(segments[0]!)) {
    return { prefix: segments[0] as Locale, rest: segments.slice(1).join('/') };
  }
  return { prefix: undefined, rest: segments.join('/') };
}

/** `/login` with the given prefix: `/de/login`; Home is `/de`. */
export function withPrefix(prefix: Locale | undefined, path: string): string {
  if (!prefix || prefix === 'en') return path;
  return path === '/' ? `/${prefix}` : `/${prefix}${path}`;
}

export function matchPattern(pattern: string, rest: string): Record<string, string> | undefined {
  const want = pattern.split('/').filter(Boolean);
  const got = rest.split('/').filter(Boolean);
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w.startsWith('*')) {
      if (got.length <= i) return undefined;
      params[w.slice(1)] = got.slice(i).map(decodeSegment).join('/');
      return params;
    }
    const g = got[i];
    if (g === undefined) return undefined;
    if (w.startsWith(':')) params[w.slice(1)] = decodeSegment(g);
    else if (w !== g) return undefined;
  }
  return got.length === want.length ? params : undefined;
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export interface RouteMatch {
  route: RouteDef;
  params: Record<string, string>;
  prefix: Locale | undefined;
  /** requiresUser while the user is still loading: show the loading placeholder */
  placeholder: boolean;
}
export type Resolution = { render: RouteMatch } | { redirect: string };

/**
 * What to do with `url` (path + optional query) for this session. Order: language-only paths and
 * aliases → unknown paths (404) → onboarding → login required → the route's own rule.
 */
export function resolveRoute(url: string, session: Session): Resolution {
  const q = url.indexOf('?');
  const pathname = q >= 0 ? url.slice(0, q) : url;
  const query = new URLSearchParams(q >= 0 ? url.slice(q + 1) : '');
  const { prefix, rest } = splitLocale(pathname);
  const to = (path: string) => withPrefix(prefix, path);
  const full = url;

  // language-only paths (`/de/`) go to Home (`/de`); trailing slashes are dropped
  if (pathname.length > 1 && pathname.endsWith('/')) {
    return { redirect: to(rest ? `/${rest}` : '/') + (q >= 0 ? url.slice(q) : '') };
  }

  const alias = ALIASES[rest];
  if (alias) return { redirect: to(typeof alias === 'string' ? alias : alias(session)) };

  const roleAlias = ROLE_ALIASES[rest];
  if (roleAlias) {
    if (session.status === 'loading')
      return { render: { route: loadingRoute(rest), params: {}, prefix, placeholder: true } };
    if (session.status === 'guest') return { redirect: loginWith(to, full) };
    return { redirect: to(roleAlias(session)) };
  }

  let match: { route: RouteDef; params: Record<string, string> } | undefined;
  for (const route of ROUTES) {
    const params = matchPattern(route.pattern, rest);
    if (params) {
      match = { route, params };
      break;
    }
  }
  if (!match) return { render: { route: NOT_FOUND, params: {}, prefix, placeholder: false } };
  const { route, params } = match;

  if (session.status === 'user' && session.roleOnboarding && !ONBOARDING_EXEMPT.has(route.area ?? 'other')) {
    // come back to where this page would send the user (login/signup/home go on to the dashboard),
    // not to a page that only redirects again
    const onward = route.guard?.({ session, params, to, query });
    const goto = onward !== undefined && onward !== full ? onward : full;
    return { redirect: `${to('/setup')}?goto=${encodeURIComponent(goto)}` };
  }
  if (route.requiresUser) {
    if (session.status === 'loading') return { render: { route, params, prefix, placeholder: true } };
    if (session.status === 'guest') return { redirect: loginWith(to, full) };
  }
  // public pages render at once while the user loads (their guards only act on a known user)
  const target = route.guard?.({ session, params, to, query });
  if (target !== undefined && target !== full) return { redirect: target };
  return { render: { route, params, prefix, placeholder: false } };
}

const ONBOARDING_EXEMPT = new Set<Area>(['setup', 'help', 'legal', 'contact', 'settings', 'emailVerified']);

function loginWith(to: (p: string) => string, full: string): string {
  return `${to('/login')}?goto=${encodeURIComponent(full)}`;
}

/** Role aliases have no page of their own; while loading they show the placeholder of their area. */
function loadingRoute(rest: string): RouteDef {
  return ROUTES.find((r) => r.pattern.startsWith(rest)) ?? NOT_FOUND;
}
