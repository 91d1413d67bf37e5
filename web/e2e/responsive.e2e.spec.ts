/// <reference types="jest" />
/// <reference types="node" />
/**
 * Phones, tablets and accessibility end to end in Debian's Chromium: the built app served by a
 * real gateway with the auth and boards services and one realtime node.
 *  - a guest learns that a board cannot be joined (owner's plan without guest access, unknown
 *    board) before being asked for a name;
 *  - at 360×740, 390×844 and 768×1024 no main page scrolls sideways, the account menu and the
 *    burger panel stay inside the viewport, board names keep their width, dialogs fit;
 *  - axe-core finds no serious or critical violation on the main pages, light and dark.
 * TEST-ONLY SETUP: folders and guests need a paid plan; with no billing yet the plan is written
 * to auth.users.plan (as the dashboard and board e2e do).
 */
import type { PlanName } from '@wb/proto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort, givePlan, startStack, type RunningStack } from '@wb/platform/testing';
import { axeViolations, DIST, e2eReady, launchChromium, SHOTS, signUpAsTeacher } from './chromium';

const maybe = e2eReady ? describe : describe.skip;
const SECRET = 'responsive-e2e-shared-secret-0123456789ab';
const TEACHER = 'Ada Lovelace-Byron';
const LONG_TITLE = 'Fractions: adding and subtracting with unlike denominators (worked examples)';

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

maybe('phones, tablets and accessibility', () => {
  let stack: RunningStack;
  let browser: Browser;
  let db: Pool;
  let base: string;
  let snapshots: string;
  let teacher: StorageState;
  let teacherId: number;
  let boardId: string;
  let folderId: number;

  beforeAll(async () => {
    snapshots = await mkdtemp(join(tmpdir(), 'wb-responsive-e2e-'));
    const httpPort = await freePort();
    base = `http://127.0.0.1:${httpPort}`;
    stack = await startStack({
      deployables: ['services/auth', 'services/boards', 'services/realtime', 'gateway'],
      env: { RT_SHARED_SECRET: SECRET },
      envFor: {
        gateway: { WEB_DIST_DIR: DIST, HTTP_PORT: String(httpPort) },
        'services/boards': { PLAN_CACHE_TTL_MS: '0' },
        'services/realtime': {
          SNAPSHOT_DIR: snapshots,
          RT_NODE_ID: 'rt-1',
          RT_PORT: String(await freePort()),
          RT_ALLOWED_ORIGINS: base,
        },
      },
    });
    db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
    browser = await launchChromium();

    // the teacher: starter plan first (the guest test), boards with long names
    const context = await newContext();
    const page = await context.newPage();
    teacherId = await signUpAsTeacher(page, base, TEACHER);
    const created = await api<{ id: string }>(page, 'POST', '/api/boards', { title: LONG_TITLE });
    boardId = created.id;
    await api(page, 'POST', '/api/boards', { title: 'Cells' });
    teacher = await context.storageState();
    await context.close();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await db?.end();
    await stack?.stop();
    if (snapshots) await rm(snapshots, { recursive: true, force: true });
  });

  async function newContext(
    opts: { user?: boolean; width?: number; height?: number; theme?: string; bypassCSP?: boolean } = {},
  ): Promise<BrowserContext> {
    const context = await browser.newContext({
      locale: 'en-US',
      viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
      storageState: opts.user ? teacher : undefined,
      bypassCSP: opts.bypassCSP ?? false,
    });
    await context.addInitScript((theme) => {
      localStorage.setItem('wb.consent', '{"necessary":true}');
      if (theme) localStorage.setItem('wb.theme', theme);
    }, opts.theme ?? '');
    context.setDefaultTimeout(20_000);
    return context;
  }

  /** a JSON call from the page (session cookie and CSRF token included) */
  async function api<T = unknown>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
    const res = await page.evaluate(
      async ([m, u, b]) => {
        const csrf = /(?:^|; )csrf-token=([^;]+)/.exec(document.cookie)?.[1] ?? '';
        const r = await fetch(u!, {
          method: m!,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'x-csrf-token': decodeURIComponent(csrf),
          },
          body: b === undefined ? undefined : JSON.stringify(b),
        });
        return { status: r.status, body: (await r.json()) as unknown };
      },
      [method, url, body] as const,
    );
    expect([url, res.status]).toEqual([url, 200]);
    return res.body as T;
  }

  const setPlan = (plan: PlanName) => givePlan(stack, teacherId, plan === 'starter' ? null : plan);

  /** the same page in the other theme, without a reload (as theme.ts applyTheme does it) */
  const setTheme = (page: Page, theme: string) =>
    page.evaluate((t) => {
      document.documentElement.dataset.theme = t;
      document.documentElement.style.colorScheme = t;
    }, theme);

  test('a guest learns before the name prompt that the board cannot be joined', async () => {
    const context = await newContext({ width: 390, height: 844, bypassCSP: true });
    const page = await context.newPage();
    const found: string[] = [];

    // the owner is on the starter plan: no guest access
    await page.goto(`${base}/boards/${boardId}`);
    await page.getByRole('heading', { name: "Guests can't join this board" }).waitFor();
    await page
      .getByText("Its owner's plan doesn't include guest access. Log in, or ask the owner to upgrade.")
      .waitFor();
    expect(await page.getByLabel('Your name').count()).toBe(0);
    const login = page.getByRole('link', { name: 'Log in' });
    expect(await login.getAttribute('href')).toBe(`/login?goto=${encodeURIComponent(`/boards/${boardId}`)}`);
    await page.getByRole('link', { name: 'Sign up for free' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'guest-owner-plan-phone.png') });
    for (const theme of ['light', 'dark']) {
      await setTheme(page, theme);
      found.push(...(await axeViolations(page, `${theme} guests lock screen`)));
    }

    // an unknown board: "board not found", no name prompt
    await page.goto(`${base}/boards/NoSuchBoard0123456789`);
    await page.getByRole('heading', { name: 'Board not found' }).waitFor();
    expect(await page.getByLabel('Your name').count()).toBe(0);
    for (const theme of ['light', 'dark']) {
      await setTheme(page, theme);
      found.push(...(await axeViolations(page, `${theme} board not found`)));
    }

    // with guest access on the owner's plan the guest is asked for a name
    await setPlan('standard');
    try {
      await page.goto(`${base}/boards/${boardId}`);
      await page.getByLabel('Your name').waitFor();
    } finally {
      await setPlan('starter');
    }
    expect(found).toEqual([]);
    await context.close();
  }, 30_000);

  describe('with folders (standard plan)', () => {
    beforeAll(async () => {
      await setPlan('standard');
      const context = await newContext({ user: true });
      const page = await context.newPage();
      await page.goto(`${base}/terms`);
      folderId = (await api<{ id: number }>(page, 'POST', '/api/folders', { name: 'Class 5b – mathematics' })).id;
      await api(page, 'POST', '/api/boards', { title: `${LONG_TITLE} in a folder`, folder: folderId });
      await api(page, 'POST', '/api/folders', { name: 'Physics' });
      await context.close();
    });

    const SIZES = [
      { width: 360, height: 740 },
      { width: 390, height: 844 },
      { width: 768, height: 1024 },
    ];
    const loggedOut = ['/', '/login', '/signup', '/pricing', '/no-such-page'];
    const loggedIn = () => [
      '/dashboard/boards/all',
      `/dashboard/boards/${folderId}`,
      '/settings/profile',
      '/settings/preferences',
    ];

    /** scrollWidth against the viewport */
    const overflow = (page: Page) =>
      page.evaluate(() => {
        const sw = document.documentElement.scrollWidth;
        return sw > innerWidth ? `${location.pathname}: scrollWidth ${sw} > ${innerWidth}` : '';
      });
    /** `what`'s bounding box is inside the viewport ('' when it is) */
    const outside = async (page: Page, selector: string, what: string) => {
      const box = await page.locator(selector).boundingBox();
      const { width, height } = page.viewportSize()!;
      const ok = !!box && box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height;
      return ok ? '' : `${what} outside the ${width}px viewport: ${JSON.stringify(box)}`;
    };
    /**
     * the board's top bar: every control shown is inside the viewport and not squeezed to nothing,
     * and the first person's face is shown whole
     */
    const topBarProblems = (page: Page) =>
      page.evaluate(() => {
        let previousRight = 0;
        const problems = [...document.querySelectorAll('.board-topbar > *')].flatMap((el) => {
          const r = el.getBoundingClientRect();
          if (getComputedStyle(el).display === 'none' || r.width === 0) return [];
          const what = `top bar ${el.className || el.tagName}`;
          const overlaps = r.left < previousRight - 0.5;
          previousRight = r.right;
          if (r.left < 0 || r.right > innerWidth) return [`${what} outside: ${r.left}–${r.right}`];
          if (overlaps) return [`${what} overlaps the control before it`];
          if (el.scrollWidth > el.clientWidth + 1) return [`${what} cuts its content off`];
          return r.width < 10 ? [`${what} squeezed to ${r.width}px`] : [];
        });
        const people = document.querySelector('.board-topbar .presence');
        const first = people?.querySelector('li .presence-dot');
        if (people && first && getComputedStyle(people).display !== 'none') {
          const box = people.getBoundingClientRect();
          const face = first.getBoundingClientRect();
          if (face.right > box.right + 0.5) problems.push(`the first face is cut off: ${face.right} > ${box.right}`);
        }
        return problems;
      });
    /** runs `check` at each size (the page is loaded once, at the first size) */
    async function atEachSize(page: Page, check: () => Promise<string | string[]>): Promise<string[]> {
      const out: string[] = [];
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        out.push(...[await check()].flat().map((p) => (p ? `${size.width}×${size.height} ${p}` : '')));
      }
      return out;
    }

    test('360×740, 390×844, 768×1024: no sideways scroll, menus inside, readable board names, dialogs fit', async () => {
      const problems: string[] = [];
      const guest = await (await newContext({ ...SIZES[0] })).newPage();
      for (const path of [...loggedOut, `/boards/${boardId}`]) {
        await guest.setViewportSize(SIZES[0]!);
        await guest.goto(`${base}${path}`);
        await guest.locator('main h1').first().waitFor();
        problems.push(...(await atEachSize(guest, () => overflow(guest))));
      }
      // the header collapses into the burger; its panel opens inside the viewport
      await guest.goto(`${base}/`);
      await guest.getByRole('button', { name: 'Menu', exact: true }).click();
      await guest.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Pricing' }).waitFor();
      problems.push(...(await atEachSize(guest, () => outside(guest, '.header-panel', 'burger panel'))));
      await guest.context().close();

      const page = await (await newContext({ user: true, ...SIZES[0] })).newPage();
      for (const path of loggedIn()) {
        await page.setViewportSize(SIZES[0]!);
        await page.goto(`${base}${path}`);
        await page.locator('main h1').first().waitFor();
        const boards = path.startsWith('/dashboard/boards/');
        if (boards) await page.locator('.board-title').first().waitFor();
        problems.push(
          ...(await atEachSize(page, async () => {
            if (!boards) return overflow(page);
            const widths = await page
              .locator('.board-title')
              .evaluateAll((els) =>
                els.map((e) => [e.textContent, Math.round(e.getBoundingClientRect().width)] as const),
              );
            const narrow = widths.filter(([, w]) => w < 60).map(([t, w]) => `${path}: "${t}" is ${w}px wide`);
            return [await overflow(page), ...narrow];
          })),
        );
        if (boards) {
          // a long name ends in an ellipsis and keeps the whole name as its tooltip
          const title = page.locator('.board-title', { hasText: LONG_TITLE }).first();
          expect(await title.getAttribute('title')).toMatch(LONG_TITLE);
        }
      }
      // the account menu opens inside the viewport
      await page.setViewportSize(SIZES[0]!);
      await page.goto(`${base}/dashboard/boards/all`);
      // (the menu loads lazily: until then a stand-in button without a popup)
      await page.locator('.user-menu button[aria-haspopup]').waitFor();
      await page.getByRole('button', { name: /Account menu$/ }).click();
      await page.locator('.account-menu').getByRole('menuitem', { name: 'Profile' }).waitFor();
      await page.screenshot({ path: join(SHOTS, 'account-menu-phone.png') });
      problems.push(
        ...(await atEachSize(page, async () => [
          await outside(page, '.account-menu', 'account menu'),
          await overflow(page),
        ])),
      );
      await page.keyboard.press('Escape');
      await page.locator('.account-menu').waitFor({ state: 'detached' });
      // a dialog fits
      await page.getByRole('button', { name: `Share: ${LONG_TITLE}`, exact: true }).click();
      await page.getByRole('dialog').getByLabel('Board link').waitFor();
      problems.push(
        ...(await atEachSize(page, async () => [
          await outside(page, '[role="dialog"]', 'share dialog'),
          await overflow(page),
        ])),
      );
      // the board itself
      await page.setViewportSize(SIZES[0]!);
      await page.goto(`${base}/boards/${boardId}`);
      await page.locator('main.board-view[data-status="live"]').waitFor();
      await page.screenshot({ path: join(SHOTS, 'board-phone.png') });
      problems.push(...(await atEachSize(page, async () => [await overflow(page), ...(await topBarProblems(page))])));
      // and on laptops and desktops, where the lesson's chips may show their words
      for (const size of [
        { width: 1100, height: 760 },
        { width: 1280, height: 800 },
        { width: 1440, height: 900 },
        { width: 1920, height: 1080 },
      ]) {
        await page.setViewportSize(size);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        problems.push(...(await topBarProblems(page)).map((p) => `${size.width}×${size.height} ${p}`));
      }
      // a tablet's background chip opens its options inside the viewport
      await page.setViewportSize(SIZES[2]!);
      await page.locator('[data-action="background"]').click();
      await page.locator('.bg-popover .bg-options').waitFor();
      await page.screenshot({ path: join(SHOTS, 'board-background-tablet.png') });
      problems.push(await outside(page, '.bg-popover', 'background options'));
      await page.keyboard.press('Escape');
      // a phone's board menu holds what the top bar has no room for: share, files, the background
      await page.setViewportSize(SIZES[1]!);
      const before = await page.locator('.board-surface').getAttribute('data-background');
      const other = before === 'blackboard' ? 'graphGrid' : 'blackboard';
      await page.locator('[data-action="board-menu"]').click();
      await page.locator('[data-action="menu-share"]').waitFor();
      await page.screenshot({ path: join(SHOTS, 'board-menu-phone.png') });
      await setTheme(page, 'dark');
      await page.screenshot({ path: join(SHOTS, 'board-menu-phone-dark.png') });
      await setTheme(page, 'light');
      problems.push(await outside(page, '.board-menu-items', 'board menu'));
      await page.locator(`.board-menu-items [data-background="${other}"]`).click();
      await page.locator(`.board-surface[data-background="${other}"]`).waitFor();
      await page.locator('[data-action="board-menu"]').click();
      await page.locator(`.board-menu-items [data-background="${before}"]`).click();
      await page.locator(`.board-surface[data-background="${before}"]`).waitFor();
      await page.context().close();
      expect(problems.filter(Boolean)).toEqual([]);
    }, 60_000);

    test('axe-core: no serious or critical violation on the main pages, light and dark', async () => {
      // each page is checked in the light theme, then in the dark one
      const both = async (page: Page, what: string) => {
        const found: string[] = [];
        for (const theme of ['light', 'dark']) {
          await setTheme(page, theme);
          found.push(...(await axeViolations(page, `${theme} ${what}`)));
        }
        return found;
      };
      const asGuest = async () => {
        const page = await (await newContext({ bypassCSP: true })).newPage();
        const found: string[] = [];
        for (const path of [...loggedOut, `/boards/${boardId}`]) {
          await page.goto(`${base}${path}`);
          await page.locator('main h1').first().waitFor();
          found.push(...(await both(page, path)));
        }
        await page.context().close();
        return found;
      };
      const asTeacher = async () => {
        const page = await (await newContext({ user: true, bypassCSP: true })).newPage();
        const found: string[] = [];
        for (const path of ['/dashboard/boards/all', '/settings/profile', '/settings/preferences']) {
          await page.goto(`${base}${path}`);
          await page.locator('main h1').first().waitFor();
          if (path.startsWith('/dashboard')) await page.locator('.board-title').first().waitFor();
          found.push(...(await both(page, path)));
        }
        // the account button is named by its visible text (label in name); its menu open
        await page.locator('.user-menu button[aria-haspopup]').waitFor();
        await page.getByRole('button', { name: `${TEACHER} Account menu`, exact: true }).click();
        await page.locator('.account-menu').waitFor();
        found.push(...(await both(page, 'account menu')));
        await page.goto(`${base}/boards/${boardId}`);
        await page.locator('main.board-view[data-status="live"]').waitFor();
        found.push(...(await both(page, 'board')));
        await page.context().close();
        return found;
      };
      const found = (await Promise.all([asGuest(), asTeacher()])).flat();
      expect(found).toEqual([]);
    }, 60_000);
  });
});
