/// <reference types="jest" />
/// <reference types="node" />
/**
 * Issue 26 #12, #13, #15 in Debian's Chromium, at 1440 px, 390 px and in the dark theme:
 * the cookie banner and the "Board created" toast cover no toolbar of the board, the dashboard
 * in a folder highlights only that folder and says "Moved 1 board to …", the files page opens by
 * name and a starter's Upload opens the upgrade prompt (no file chooser), and the team page
 * names the organisation entered at checkout, shows the owner's address and refusals as messages.
 */
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort, givePlan, startStack, type RunningStack } from '@wb/platform/testing';
import { DIST, e2eReady, launchChromium, SHOTS, signUpAsTeacher } from './chromium';

const maybe = e2eReady ? describe : describe.skip;

type Box = { x: number; y: number; width: number; height: number };
const meets = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** the boxes of every visible control of the board's chrome (tool bar, zoom corner, top bar, panels) */
async function chromeControls(page: Page): Promise<Array<Box & { what: string }>> {
  return page.evaluate(() => {
    const out: Array<{ x: number; y: number; width: number; height: number; what: string }> = [];
    const scope = '[role="toolbar"], .board-topbar, .board-panel, .minimap';
    for (const el of document.querySelectorAll<HTMLElement>(`:is(${scope}) :is(button, a, input, select), .minimap`)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.right < 0 || r.left > innerWidth || r.bottom < 0 || r.top > innerHeight) continue;
      const what = el.getAttribute('aria-label') ?? el.getAttribute('data-tool') ?? el.textContent ?? el.tagName;
      out.push({ x: r.left, y: r.top, width: r.width, height: r.height, what: what.trim().slice(0, 40) });
    }
    return out;
  });
}

async function boxOf(page: Page, selector: string): Promise<Box> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not shown`);
  return box;
}

const covered = (box: Box, controls: Array<Box & { what: string }>) =>
  controls.filter((c) => meets(box, c)).map((c) => c.what);

maybe('issue 26: board chrome, dashboard and files', () => {
  let running: RunningStack;
  let stack: {
    base: string;
    browser: Browser;
    newPage(viewport?: { width: number; height: number }): Promise<Page>;
    newUser(name: string): Promise<{ page: Page; id: number }>;
    givePlan(userId: number, plan: 'standard'): Promise<void>;
  };
  let dirs: string[] = [];

  // the board stack of e2e/boardStack.ts (one realtime node, the files service without the
  // converter), started with a longer readiness wait: two cores are shared with other suites
  beforeAll(async () => {
    const snapshots = await mkdtemp(join(tmpdir(), 'wb-chrome26-'));
    const filesDir = await mkdtemp(join(tmpdir(), 'wb-chrome26-files-'));
    dirs = [snapshots, filesDir];
    const httpPort = await freePort();
    const base = `http://127.0.0.1:${httpPort}`;
    const secret = 'chrome26-e2e-shared-secret-0123456789abcdef';
    const filesEnv = { FILES_STORE: 'fs', FILES_DIR: filesDir };
    running = await startStack({
      deployables: ['services/auth', 'services/boards', 'services/files', 'services/realtime', 'gateway'],
      env: { RT_SHARED_SECRET: secret },
      readyTimeoutMs: 90_000,
      envFor: {
        gateway: { WEB_DIST_DIR: DIST, HTTP_PORT: String(httpPort), ...filesEnv },
        'services/boards': { PLAN_CACHE_TTL_MS: '0' },
        'services/files': { ...filesEnv, PLAN_CACHE_TTL_MS: '0' },
        'services/realtime': {
          SNAPSHOT_DIR: snapshots,
          RT_NODE_ID: 'rt-1',
          RT_PORT: String(await freePort()),
          RT_ALLOWED_ORIGINS: base,
        },
      },
    });
    const browser = await launchChromium();
    const newPage = async (viewport = { width: 1100, height: 760 }) => {
      const context = await browser.newContext({ locale: 'en-US', viewport });
      await context.addInitScript(() => localStorage.setItem('wb.consent', '{"necessary":true}'));
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      return page;
    };
    stack = {
      base,
      browser,
      newPage,
      async newUser(name) {
        const page = await newPage();
        return { page, id: await signUpAsTeacher(page, base, name) };
      },
      givePlan: (userId, plan) => givePlan(running, userId, plan),
    };
  }, 200_000);
  afterAll(async () => {
    await stack?.browser.close();
    await running?.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  /** a context with the user's session and no consent choice: the banner comes */
  async function withoutConsent(from: Page, viewport: { width: number; height: number }, dark = false) {
    const context: BrowserContext = await stack.browser.newContext({ locale: 'en-US', viewport });
    await context.addCookies(await from.context().cookies());
    if (dark) await context.addInitScript(() => localStorage.setItem('wb.theme', 'dark'));
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    return page;
  }

  test('the cookie banner covers no board control at 1440 and 390 px; the phone toast neither', async () => {
    const { page } = await stack.newUser('Cora Consent');
    await page.getByRole('button', { name: 'New board' }).click();
    const dialog = page.getByRole('dialog', { name: 'New board' });
    await dialog.getByLabel('Board name').fill('Consent check');
    await dialog.getByRole('button', { name: 'Create board' }).click();
    await page.waitForURL(/\/boards\/[A-Za-z0-9_-]{21}$/);
    const url = page.url();

    for (const [name, viewport, dark] of [
      ['1440', { width: 1440, height: 900 }, false],
      ['390', { width: 390, height: 844 }, false],
      ['dark', { width: 390, height: 844 }, true],
    ] as const) {
      const p = await withoutConsent(page, viewport, dark);
      await p.goto(url);
      await p.locator('[role="toolbar"]').first().waitFor();
      const banner = p.getByRole('region', { name: 'Cookies' });
      await banner.waitFor();
      await p.waitForTimeout(400); // the slide-in and one placement frame
      const box = await boxOf(p, '.consent');
      const controls = await chromeControls(p);
      expect(controls.length).toBeGreaterThan(5);
      expect([name, covered(box, controls)]).toEqual([name, []]);
      // inside the window
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      await p.screenshot({ path: join(SHOTS, `issue26-board-consent-${name}.png`) });
      // the options make it taller: it still covers nothing
      await banner.getByRole('button', { name: 'Options' }).click();
      await p.waitForTimeout(200);
      expect([name, covered(await boxOf(p, '.consent'), await chromeControls(p))]).toEqual([name, []]);
      await p.context().close();
    }

    // a phone creates a board: "Board created" covers no toolbar and goes within 4 s
    const phone = await stack.newPage({ width: 390, height: 844 });
    await phone.context().addCookies(await page.context().cookies());
    await phone.goto(`${stack.base}/dashboard`);
    await phone.getByRole('button', { name: 'New board' }).first().click();
    const create = phone.getByRole('dialog', { name: 'New board' });
    await create.getByLabel('Board name').fill('Phone board');
    await create.getByRole('button', { name: 'Create board' }).click();
    await phone.waitForURL(/\/boards\/[A-Za-z0-9_-]{21}$/);
    const toast = phone.locator('.toast').filter({ hasText: 'Board created' });
    await toast.waitFor();
    await phone.locator('[role="toolbar"]').first().waitFor();
    await phone.waitForTimeout(300);
    const toastBox = await boxOf(phone, '.toast');
    expect(covered(toastBox, await chromeControls(phone))).toEqual([]);
    await phone.screenshot({ path: join(SHOTS, 'issue26-board-toast-390.png') });
    const shownAt = Date.now();
    await toast.waitFor({ state: 'detached', timeout: 6000 });
    expect(Date.now() - shownAt).toBeLessThan(4500);
    await phone.context().close();
    await page.context().close();
  }, 120_000);

  test('dashboard in a folder: only the folder is highlighted; the move toast says "Moved 1 board to …"', async () => {
    const { page, id } = await stack.newUser('Fred Folder');
    await stack.givePlan(id, 'standard');
    await page.reload();
    await page.getByRole('button', { name: 'New board' }).click();
    const dialog = page.getByRole('dialog', { name: 'New board' });
    await dialog.getByLabel('Board name').fill('Fractions');
    await dialog.getByRole('button', { name: 'Create board' }).click();
    await page.waitForURL(/\/boards\/[A-Za-z0-9_-]{21}$/);
    await page.goBack();
    await page.getByRole('button', { name: 'New folder' }).first().click();
    const newFolder = page.getByRole('dialog', { name: 'New folder' });
    await newFolder.getByLabel('Folder name').fill('Class 5');
    await newFolder.getByRole('button', { name: 'Create folder' }).click();
    const sidebar = page.getByRole('navigation', { name: 'Folders' });
    await sidebar.getByRole('link', { name: /Class 5/ }).waitFor();
    await page.getByLabel('Select Fractions').check();
    await page.getByRole('button', { name: 'Move to folder' }).click();
    const move = page.getByRole('dialog', { name: 'Move boards (1)' });
    await move.getByLabel('Folder').selectOption({ label: 'Class 5' });
    await move.getByRole('button', { name: 'Move', exact: true }).click();
    await page.locator('.toast').filter({ hasText: 'Moved 1 board to Class 5' }).waitFor();

    await sidebar.getByRole('link', { name: /Class 5/ }).click();
    await page.waitForURL(/\/dashboard\/boards\/\d+$/);
    const folderUrl = page.url();
    const mainNav = page.getByRole('navigation', { name: 'Main menu' });
    // the URL changes before React re-renders the links: wait for the folder view to be drawn
    await sidebar.locator('[aria-current="page"]').filter({ hasText: 'Class 5' }).waitFor();
    await page.getByRole('heading', { name: 'Class 5' }).waitFor();
    expect(await mainNav.locator('[aria-current="page"]').count()).toBe(0);
    expect(await sidebar.locator('[aria-current="page"]').allTextContents()).toEqual([
      expect.stringContaining('Class 5'),
    ]);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: join(SHOTS, 'issue26-dashboard-folder-1440.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, 'issue26-dashboard-folder-390.png'), fullPage: true });
    await page.evaluate(() => localStorage.setItem('wb.theme', 'dark'));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(folderUrl);
    await page.getByRole('heading', { name: 'Class 5' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'issue26-dashboard-folder-dark.png') });
    await page.context().close();
  }, 90_000);

  test('files page: name ascending; on Starter, Upload opens the upgrade prompt and no file chooser', async () => {
    const { page } = await stack.newUser('Sally Starter');
    let chooser = false;
    page.on('filechooser', () => (chooser = true));
    await page.goto(`${stack.base}/files`);
    const byName = page.getByRole('button', { name: 'Sort by Name, ascending' });
    await byName.waitFor();
    expect(await byName.getAttribute('aria-pressed')).toBe('true');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: join(SHOTS, 'issue26-files-1440.png') });
    await page
      .getByRole('button', { name: /Upload/ })
      .first()
      .click();
    const prompt = page.getByRole('dialog');
    await prompt.getByText('Upload your own files').waitFor();
    await page.waitForTimeout(300);
    expect(chooser).toBe(false);
    await page.screenshot({ path: join(SHOTS, 'issue26-files-prompt-1440.png') });
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, 'issue26-files-390.png'), fullPage: true });
    await page.evaluate(() => localStorage.setItem('wb.theme', 'dark'));
    await page.reload();
    await byName.waitFor();
    await page.screenshot({ path: join(SHOTS, 'issue26-files-dark.png') });
    await page.context().close();
  }, 60_000);
});

maybe('issue 26: the team page', () => {
  let stack: RunningStack;

  beforeAll(async () => {
    stack = await startStack({
      deployables: ['services/auth', 'services/boards', 'services/teams', 'services/billing', 'gateway'],
      readyTimeoutMs: 60_000, // two cores shared with other suites
      envFor: {
        gateway: { WEB_DIST_DIR: DIST },
        'services/billing': { VAT_CHECK: 'fake', SEAT_POLICY: 'auto' },
      },
    });
  }, 120_000);
  afterAll(async () => stack?.stop());

  test('named after the organisation entered at checkout; the owner’s address; refusals as messages', async () => {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
      await context.addInitScript(() => localStorage.setItem('wb.consent', '{"necessary":true}'));
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await signUpAsTeacher(page, stack.gatewayUrl, 'Stan Starter');
      const email = await page.evaluate(
        async () => ((await (await fetch('/api/user')).json()) as { email: string }).email,
      );

      // the checkout with an organisation, paid with the accepted test card
      await page.goto(`${stack.gatewayUrl}/settings/subscription/upgrade`);
      // with a trial available the page offers it first: "subscribe now without a trial"
      const payNow = page.getByRole('button', { name: 'Subscribe now without a trial' });
      const cardForm = page.getByTestId('test-card-form');
      await cardForm.or(payNow).first().waitFor();
      if (await payNow.isVisible()) await payNow.click();
      await cardForm.waitFor();
      await page.getByRole('radio', { name: /Premium/ }).check();
      await page.getByLabel('Licences').fill('3');
      await page.getByLabel('Organization name (optional)').fill('Riverside Academy');
      await page.getByLabel('Country').selectOption('DE');
      await page.getByLabel('City / region').fill('Berlin');
      await page.getByLabel('Postal code').fill('10115');
      await page.getByLabel('Street address').fill('Invalidenstraße 1');
      await page.getByLabel('Test card that is accepted').check();
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await page.waitForURL(/\/settings\/subscription$/);

      // the team page: the organisation's name (teams learns it from billing's event)
      for (let i = 0; i < 50; i++) {
        await page.goto(`${stack.gatewayUrl}/settings/users`);
        await page.getByLabel('Invite people by email').waitFor();
        if ((await page.locator('.team-name strong').textContent()) === 'Riverside Academy') break;
        await page.waitForTimeout(200);
      }
      expect(await page.locator('.team-name strong').textContent()).toBe('Riverside Academy');
      const ownerRow = page.getByRole('row').filter({ hasText: 'Stan Starter' });
      expect(await ownerRow.locator('td').nth(1).textContent()).toBe(email);

      // inviting oneself: the message, not ERR_CANT_INVITE_YOURSELF
      await page.getByLabel('Invite people by email').fill(`${email}, colleague@example.com`);
      await page.getByRole('button', { name: 'Send invitations (2)' }).click();
      const refused = page.locator('.invite-results li[data-code="ERR_CANT_INVITE_YOURSELF"]');
      await refused.waitFor();
      expect(await refused.textContent()).toBe(`${email}: You cannot invite yourself`);
      expect(await page.locator('.invite-results').textContent()).not.toMatch(/ERR_/);
      await page.screenshot({ path: join(SHOTS, 'issue26-team-1440.png'), fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: join(SHOTS, 'issue26-team-390.png'), fullPage: true });
      await page.evaluate(() => localStorage.setItem('wb.theme', 'dark'));
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.reload();
      await page.getByLabel('Invite people by email').waitFor();
      await page.screenshot({ path: join(SHOTS, 'issue26-team-dark.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  }, 120_000);
});
