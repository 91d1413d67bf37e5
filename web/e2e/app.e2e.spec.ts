/// <reference types="jest" />
/// <reference types="node" />
/**
 * End to end in Debian's Chromium against the built app served by a real gateway and auth
 * service (isolated PostgreSQL database, NATS prefix and Redis prefix per run).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startStack, type RunningStack } from '@wb/platform/testing';
import { axeViolations, DIST, e2eReady, launchChromium, SHOTS } from './chromium';

const maybe = e2eReady ? describe : describe.skip;

maybe('web app end to end', () => {
  let stack: RunningStack;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    stack = await startStack({
      // the dashboard loads the boards list on entry
      deployables: ['services/auth', 'services/boards', 'gateway'],
      envFor: { gateway: { WEB_DIST_DIR: DIST } },
    });
    base = stack.gatewayUrl;
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  }

  async function signUp(page: Page, email: string): Promise<void> {
    await page.goto(`${base}/signup`);
    await page.getByLabel('Name').fill('Ada Teacher');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign up' }).click();
  }

  test('sign up → onboarding → dashboard; reload stays logged in; log out', async () => {
    const page = await newPage();
    await signUp(page, `ada-${Date.now()}@example.com`);
    // a new account starts role onboarding
    await page.waitForURL(/\/setup/);
    await page.getByLabel('Teacher').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Continue with Starter' }).click();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.waitForURL(/\/dashboard$/);
    await page
      .getByRole('heading', { name: 'No boards here yet' })
      .or(page.getByText('No boards here yet'))
      .first()
      .waitFor();
    await page.screenshot({ path: join(SHOTS, 'dashboard-light.png') });
    await page.reload();
    // the menu loads lazily: until then a stand-in button without a popup
    await page.locator('.user-menu button[aria-haspopup]').waitFor();
    expect(page.url()).toMatch(/\/dashboard$/);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/`);
    await page.getByRole('link', { name: 'Log in' }).first().waitFor();
    await page.context().close();
  });

  test('a login-required URL sends to login and comes back after login', async () => {
    const page = await newPage();
    const email = `bob-${Date.now()}@example.com`;
    await signUp(page, email);
    await page.waitForURL(/\/setup/);
    await page.getByLabel('Student').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Continue with Starter' }).click();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.context().clearCookies();

    await page.goto(`${base}/settings/preferences`);
    await page.waitForURL(/\/login\?goto=%2Fsettings%2Fpreferences$/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/settings\/preferences$/);
    await page.getByLabel('Show the minimap').waitFor();
    await page.context().close();
  });

  test('/de/login is German; switching to French keeps the page', async () => {
    const page = await newPage();
    await page.goto(`${base}/de/login`);
    await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await page.getByLabel('Sprache').selectOption('fr');
    await page.waitForURL(/\/fr\/login$/);
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    await page.context().close();
  });

  test('dark theme survives a reload; screenshots in light and dark', async () => {
    const page = await newPage();
    await page.goto(`${base}/login`);
    await page.screenshot({ path: join(SHOTS, 'login-light.png') });
    // system → light → dark
    const toggle = page.getByRole('button', { name: /^Theme:/ });
    await toggle.click();
    await toggle.click();
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    await page.reload();
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    await page.screenshot({ path: join(SHOTS, 'login-dark.png') });
    await page.goto(`${base}/`);
    await page.screenshot({ path: join(SHOTS, 'home-dark.png') });
    await page.context().close();
  });

  test('the cookie banner appears after 1 s and its choice persists', async () => {
    const page = await newPage();
    await page.goto(`${base}/pricing`);
    const banner = page.getByRole('region', { name: 'Cookies' });
    await banner.waitFor();
    await banner.getByRole('button', { name: 'Options' }).click();
    await banner.getByLabel('Analytics').check();
    await banner.getByRole('button', { name: 'Accept selected' }).click();
    await banner.waitFor({ state: 'detached' });
    const stored = await page.evaluate(() => localStorage.getItem('wb.consent'));
    expect(JSON.parse(stored ?? '{}')).toEqual({
      necessary: true,
      preferences: false,
      analytics: true,
      marketing: false,
    });
    await page.reload();
    await page.waitForTimeout(1500);
    expect(await page.getByRole('region', { name: 'Cookies' }).count()).toBe(0);
    await page.context().close();
  });

  test('axe-core finds no serious or critical violation on public and account pages', async () => {
    // axe is injected by the test, so this context alone bypasses the CSP
    const context = await browser.newContext({ locale: 'en-US', bypassCSP: true });
    const page = await context.newPage();
    await page.addInitScript(() => localStorage.setItem('wb.consent', '{"necessary":true}'));
    const found: string[] = [];
    for (const theme of ['light', 'dark']) {
      await page.addInitScript((t) => localStorage.setItem('wb.theme', t), theme);
      for (const path of [
        '/',
        '/login',
        '/signup',
        '/password-recovery/request',
        '/password-recovery/requested',
        '/email-verified',
        '/invalid-verification-link',
        '/pricing',
        '/features',
        '/help/center',
        '/terms',
        '/contact',
        '/no-such-page',
        '/de/login',
      ]) {
        await page.goto(`${base}${path}`);
        await page.locator('main h1').first().waitFor();
        found.push(...(await axeViolations(page, `${theme} ${path}`)));
      }
      if (theme === 'dark') await page.screenshot({ path: join(SHOTS, 'help-dark.png') });
    }
    expect(found).toEqual([]);
    await context.close();
  }, 120_000);
});
