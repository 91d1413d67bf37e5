/// <reference types="jest" />
import {
  HELP_PAGES,
  ROUTES,
  SETTINGS_PAGES,
  isTutorId,
  matchPattern,
  resolveRoute,
  safeGoto,
  type Session,
} from './routes';

const guest: Session = { status: 'guest' };
const teacher: Session = { status: 'user', role: 'teacher', roleOnboarding: false, team: null };
const student: Session = { status: 'user', role: 'student', roleOnboarding: false, team: null };
const onboarding: Session = { status: 'user', role: null, roleOnboarding: true, team: null };

/** what resolveRoute answers, shortened: the page key, `→ target`, or `… page` for the placeholder */
function outcome(url: string, session: Session): string {
  const r = resolveRoute(url, session);
  if ('redirect' in r) return `→ ${r.redirect}`;
  return (r.render.placeholder ? '… ' : '') + r.render.route.page;
}

const login = (path: string) => `→ /login?goto=${encodeURIComponent(path)}`;
const setup = (path: string) => `→ /setup?goto=${encodeURIComponent(path)}`;

// [url, logged out, teacher, student, onboarding]
// onboarding goes to setup with a goto of where the page itself would send the user
type Row = [string, string, string, string, string];
const table: Row[] = [
  ['/', 'home', '→ /dashboard', '→ /dashboard', setup('/dashboard')],
  ['/login', 'login', '→ /dashboard', '→ /dashboard', setup('/dashboard')],
  ['/login?goto=%2Fcourses', 'login', '→ /courses', '→ /courses', setup('/courses')],
  ['/signup', 'signup', '→ /dashboard', '→ /dashboard', setup('/dashboard')],
  [
    '/password-recovery/request',
    'recoveryRequest',
    'recoveryRequest',
    'recoveryRequest',
    setup('/password-recovery/request'),
  ],
  [
    '/password-recovery/requested',
    'recoveryRequested',
    'recoveryRequested',
    'recoveryRequested',
    setup('/password-recovery/requested'),
  ],
  [
    '/password-recovery/create-password?token=x',
    'createPassword',
    'createPassword',
    'createPassword',
    setup('/password-recovery/create-password?token=x'),
  ],
  [
    '/password-recovery/password-saved',
    'passwordSaved',
    'passwordSaved',
    'passwordSaved',
    setup('/password-recovery/password-saved'),
  ],
  [
    '/change-email/success',
    'changeEmailSuccess',
    'changeEmailSuccess',
    'changeEmailSuccess',
    setup('/change-email/success'),
  ],
  [
    '/change-email/reverted',
    'changeEmailReverted',
    'changeEmailReverted',
    'changeEmailReverted',
    setup('/change-email/reverted'),
  ],
  ['/join-team', 'joinTeam', 'joinTeam', 'joinTeam', setup('/join-team')],
  ['/join-course', 'joinCourse', 'joinCourse', 'joinCourse', setup('/join-course')],
  ['/unsubscribed', 'unsubscribed', 'unsubscribed', 'unsubscribed', setup('/unsubscribed')],
  [
    '/invalid-unsubscribe-link',
    'invalidUnsubscribeLink',
    'invalidUnsubscribeLink',
    'invalidUnsubscribeLink',
    setup('/invalid-unsubscribe-link'),
  ],
  ['/email-verified', 'emailVerified', 'emailVerified', 'emailVerified', 'emailVerified'],
  [
    '/invalid-verification-link',
    'invalidVerificationLink',
    'invalidVerificationLink',
    'invalidVerificationLink',
    setup('/invalid-verification-link'),
  ],
  ['/assignment/a1', 'assignmentResponse', 'assignmentResponse', 'assignmentResponse', setup('/assignment/a1')],
  ['/boards/abc', 'board', 'board', 'board', setup('/boards/abc')],
  ['/boards/team/2024/abc', 'board', 'board', 'board', setup('/boards/team/2024/abc')],
  ['/boards', '→ /', '→ /dashboard', '→ /dashboard', '→ /dashboard'],
  ['/courses', login('/courses'), '→ /courses/teach', '→ /courses/learn', '→ /courses/teach'],
  ['/courses/teach', login('/courses/teach'), 'coursesTeach', 'coursesTeach', setup('/courses/teach')],
  ['/courses/learn', login('/courses/learn'), 'coursesLearn', 'coursesLearn', setup('/courses/learn')],
  ['/courses/7', login('/courses/7'), '→ /courses/7/content', '→ /courses/7/content', setup('/courses/7/content')],
  ['/courses/7/content', login('/courses/7/content'), 'courseContent', 'courseContent', setup('/courses/7/content')],
  [
    '/courses/7/participants',
    login('/courses/7/participants'),
    'courseParticipants',
    'courseParticipants',
    setup('/courses/7/participants'),
  ],
  ['/dashboard', login('/dashboard'), 'dashboard', 'dashboard', setup('/dashboard')],
  [
    '/dashboard/boards',
    '→ /dashboard/boards/all',
    '→ /dashboard/boards/all',
    '→ /dashboard/boards/all',
    '→ /dashboard/boards/all',
  ],
  [
    '/dashboard/boards/trashed',
    login('/dashboard/boards/trashed'),
    'dashboard',
    'dashboard',
    setup('/dashboard/boards/trashed'),
  ],
  ['/insights', login('/insights'), 'insights', '→ /dashboard', setup('/insights')],
  [
    '/insights/participants/p1',
    login('/insights/participants/p1'),
    'insightsParticipant',
    '→ /dashboard',
    setup('/insights/participants/p1'),
  ],
  [
    '/assignments',
    login('/assignments'),
    '→ /assignments/created',
    '→ /assignments/assigned',
    '→ /assignments/created',
  ],
  [
    '/assignments/created',
    login('/assignments/created'),
    'assignmentsCreated',
    'assignmentsCreated',
    setup('/assignments/created'),
  ],
  [
    '/assignments/assigned',
    login('/assignments/assigned'),
    'assignmentsAssigned',
    'assignmentsAssigned',
    setup('/assignments/assigned'),
  ],
  [
    '/assignments/a1',
    login('/assignments/a1'),
    '→ /assignments/a1/edit',
    '→ /assignments/a1/edit',
    setup('/assignments/a1/edit'),
  ],
  [
    '/assignments/a1/edit',
    login('/assignments/a1/edit'),
    'assignmentEdit',
    'assignmentEdit',
    setup('/assignments/a1/edit'),
  ],
  [
    '/assignments/a1/preview',
    login('/assignments/a1/preview'),
    'assignmentEdit',
    'assignmentEdit',
    setup('/assignments/a1/preview'),
  ],
  [
    '/assignments/a1/assign',
    login('/assignments/a1/assign'),
    'assignmentEdit',
    'assignmentEdit',
    setup('/assignments/a1/assign'),
  ],
  [
    '/assignments/a1/submissions',
    login('/assignments/a1/submissions'),
    'assignmentEdit',
    'assignmentEdit',
    setup('/assignments/a1/submissions'),
  ],
  [
    '/assignments/a1/submissions/s1',
    login('/assignments/a1/submissions/s1'),
    'assignmentEdit',
    'assignmentEdit',
    setup('/assignments/a1/submissions/s1'),
  ],
  ['/files', login('/files'), 'files', 'files', setup('/files')],
  ['/documents', login('/documents'), 'files', 'files', setup('/documents')],
  ['/images', login('/images'), 'files', 'files', setup('/images')],
  ['/files/f1', login('/files/f1'), 'fileViewer', 'fileViewer', setup('/files/f1')],
  ['/help', '→ /help/center', '→ /help/center', '→ /help/center', '→ /help/center'],
  ...HELP_PAGES.map((p): Row => [`/help/${p}`, 'help', 'help', 'help', 'help']),
  ['/help/unknown-page', 'notFound', 'notFound', 'notFound', 'notFound'],
  ['/terms', 'terms', 'terms', 'terms', 'terms'],
  ['/privacy', 'privacy', 'privacy', 'privacy', 'privacy'],
  ['/tools', '→ /tools/for-school', '→ /tools/for-school', '→ /tools/for-school', '→ /tools/for-school'],
  ['/for-school', '→ /tools/for-school', '→ /tools/for-school', '→ /tools/for-school', '→ /tools/for-school'],
  ['/tools/for-school', 'forSchool', 'forSchool', 'forSchool', setup('/tools/for-school')],
  ['/features', 'features', 'features', 'features', setup('/features')],
  ['/pricing', 'pricing', '→ /settings/subscription', '→ /settings/subscription', setup('/settings/subscription')],
  ['/setup', login('/setup'), '→ /dashboard', '→ /dashboard', 'setup'],
  ['/setup?goto=%2Fcourses', login('/setup?goto=%2Fcourses'), '→ /courses', '→ /courses', 'setup'],
  ['/settings', '→ /settings/profile', '→ /settings/profile', '→ /settings/profile', '→ /settings/profile'],
  ...SETTINGS_PAGES.map((p): Row => [`/settings/${p}`, login(`/settings/${p}`), 'settings', 'settings', 'settings']),
  ['/support', '→ /contact', '→ /contact', '→ /contact', '→ /contact'],
  ['/contact', 'contact', 'contact', 'contact', 'contact'],
  ['/tutors', '→ /tutors/list', '→ /tutors/list', '→ /tutors/list', '→ /tutors/list'],
  ['/tutors/list', 'tutorsList', 'tutorsList', 'tutorsList', setup('/tutors/list')],
  ['/tutors/42', 'tutor', 'tutor', 'tutor', setup('/tutors/42')],
  ['/tutors/0', '→ /tutors/list', '→ /tutors/list', '→ /tutors/list', setup('/tutors/list')],
  ['/tutors/abc', '→ /tutors/list', '→ /tutors/list', '→ /tutors/list', setup('/tutors/list')],
  ['/_placeholder', 'placeholder', 'placeholder', 'placeholder', setup('/_placeholder')],
  // the UI catalogue: in development and test builds (jest's buildFlags), public, like any page
  ['/_ui', 'uiCatalogue', 'uiCatalogue', 'uiCatalogue', setup('/_ui')],
  ['/404', 'notFound', 'notFound', 'notFound', setup('/404')],
  ['/no/such/page', 'notFound', 'notFound', 'notFound', 'notFound'],
];

describe('resolveRoute: every route × logged out / teacher / student / onboarding', () => {
  test.each(table)('%s', (url, loggedOut, asTeacher, asStudent, asOnboarding) => {
    expect([outcome(url, guest), outcome(url, teacher), outcome(url, student), outcome(url, onboarding)]).toEqual([
      loggedOut,
      asTeacher,
      asStudent,
      asOnboarding,
    ]);
  });

  test('the table covers every route of the route table', () => {
    const covered = new Set<string>();
    for (const [url] of table) {
      const rest = url.split('?')[0]!.slice(1);
      for (const r of ROUTES) if (matchPattern(r.pattern, rest)) covered.add(r.pattern);
    }
    expect(ROUTES.map((r) => r.pattern).filter((p) => !covered.has(p))).toEqual([]);
  });
});

describe('language prefix', () => {
  test('a prefixed route keeps its prefix through redirects and goto', () => {
    expect(outcome('/de/dashboard', guest)).toBe(`→ /de/login?goto=${encodeURIComponent('/de/dashboard')}`);
    expect(outcome('/fr/courses', student)).toBe('→ /fr/courses/learn');
    expect(outcome('/de', teacher)).toBe('→ /de/dashboard');
    expect(outcome('/uk/help', guest)).toBe('→ /uk/help/center');
  });
  test('language-only paths go to Home', () => {
    expect(outcome('/de', guest)).toBe('home');
    expect(outcome('/de/', guest)).toBe('→ /de');
    expect(outcome('/ru/', teacher)).toBe('→ /ru');
  });
  test('the match carries the prefix; English has none', () => {
    const r = resolveRoute('/pl/login', guest);
    expect('render' in r && r.render.prefix).toBe('pl');
    const en = resolveRoute('/login', guest);
    expect('render' in en && en.render.prefix).toBeUndefined();
    expect(outcome('/en/login', guest)).toBe('notFound');
  });
});

describe('while the user is loading', () => {
  const loading: Session = { status: 'loading' };
  test('login-required routes show the placeholder instead of redirecting', () => {
    expect(outcome('/dashboard', loading)).toBe('… dashboard');
    expect(outcome('/settings/profile', loading)).toBe('… settings');
    expect(outcome('/courses', loading)).toMatch(/^… /);
  });
  test('public pages render at once', () => {
    expect(outcome('/login', loading)).toBe('login');
    expect(outcome('/', loading)).toBe('home');
  });
});

describe('route metadata', () => {
  test('the board view hides header and footer and is not indexed', () => {
    const r = resolveRoute('/boards/a/b', guest);
    expect('render' in r && r.render.route.isBoardView && r.render.route.noindex).toBe(true);
    expect('render' in r && r.render.params.id).toBe('a/b');
  });
  test('every login-only area requires a user', () => {
    for (const r of ROUTES) {
      if (/^(courses|dashboard|insights|assignments|files|documents|images|settings|setup)(\/|$)/.test(r.pattern)) {
        expect([r.pattern, r.requiresUser]).toEqual([r.pattern, true]);
      }
    }
  });
  test('subscription pages send a member of someone else’s team to Team', () => {
    const member: Session = { ...teacher, team: { isOwner: false } };
    expect(outcome('/settings/subscription/invoices', member)).toBe('→ /settings/team');
    expect(outcome('/settings/subscription', { ...teacher, team: { isOwner: true } })).toBe('settings');
  });
});

describe('helpers', () => {
  test('tutor ids are non-zero integers', () => {
    expect(['1', '42', '-3'].map(isTutorId)).toEqual([true, true, true]);
    expect(['0', '00', 'x', '1.5', ''].map(isTutorId)).toEqual([false, false, false, false, false]);
  });
  test('goto accepts same-site paths only', () => {
    expect(safeGoto('/dashboard')).toBe('/dashboard');
    expect(safeGoto('//evil.example')).toBeUndefined();
    expect(safeGoto('https://evil.example')).toBeUndefined();
    expect(safeGoto(null)).toBeUndefined();
  });
});
