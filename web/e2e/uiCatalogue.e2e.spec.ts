/// <reference types="jest" />
/// <reference types="node" />
/**
 * The UI kit's catalogue (/_ui, in the tests' build: VITE_UI_CATALOGUE=true) in Chromium: full-page
 * screenshots at 1440 and 390 px in light and dark (artifacts/ui-catalogue/, so a change in look
 * is seen in review) and axe-core with no serious or critical violation in either theme.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startStack, type RunningStack } from '@wb/platform/testing';
import { axeViolations, DIST, e2eReady, launchChromium, SHOTS } from './chromium';

const OUT = join(SHOTS, '..', 'ui-catalogue');
/** the build to serve (default web/dist, as make test builds it) */
const dist = process.env.WEB_DIST_DIR ?? DIST;
const maybe = e2eReady ? describe : describe.skip;

maybe('UI kit catalogue', () => {
  let stack: RunningStack;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    // the page needs no data; the app asks auth who is signed in
    stack = await startStack({
      deployables: ['services/auth', 'gateway'],
      envFor: { gateway: { WEB_DIST_DIR: dist } },
    });
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function open(width: number, theme: 'light' | 'dark', query = ''): Promise<Page> {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width, height: 900 }, bypassCSP: true });
    // the app's own theme setting (public/boot.js applies it before the first paint)
    await context.addInitScript((t) => localStorage.setItem('wb.theme', t), theme);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${stack.gatewayUrl}/_ui${query}`);
    const heading = page.getByRole('heading', { level: 1, name: 'UI kit' });
    await heading.waitFor().catch(() => {
      throw new Error('no catalogue at /_ui: build the app with VITE_UI_CATALOGUE=true (make test does)');
    });
    await page.getByRole('table', { name: 'Submissions', exact: true }).first().waitFor();
    return page;
  }

  for (const width of [1440, 390]) {
    test.each(['light', 'dark'] as const)(`${width} px, %s: screenshot, axe`, async (theme) => {
      const page = await open(width, theme);
      expect(await page.getAttribute('html', 'data-theme')).toBe(theme);
      // the table scrolls inside its box on a phone, never the page
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: join(OUT, `catalogue-${width}-${theme}.png`), fullPage: true });
      expect(await axeViolations(page, `${width} ${theme}`)).toEqual([]);
      await page.context().close();
    });
  }

  test.each(['light', 'dark'] as const)('an open menu and an open dialog, %s: screenshots, axe', async (theme) => {
    const page = await open(1440, theme);
    const trigger = page.getByRole('button', { name: 'Board menu' });
    await trigger.scrollIntoViewIfNeeded();
    await trigger.click();
    // the open menu is named by its trigger (aria-labelledby)
    const menu = page.getByRole('menu', { name: 'Board menu' });
    await menu.getByRole('menuitem', { name: 'Move to' }).hover();
    await page.getByRole('menuitem', { name: 'Geometry' }).waitFor();
    await page.screenshot({ path: join(OUT, `catalogue-menu-${theme}.png`) });
    expect(await axeViolations(page, `menu ${theme}`)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Open a dialog' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename the board' });
    await dialog.waitFor();
    await page.screenshot({ path: join(OUT, `catalogue-dialog-${theme}.png`) });
    expect(await axeViolations(page, `dialog ${theme}`)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // focus returns to the opener
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Open a dialog');
    await page.context().close();
  });

  test('light and dark side by side at 1440 px', async () => {
    const page = await open(1440, 'light', '?both');
    await page.getByRole('heading', { level: 2, name: 'Dark' }).waitFor();
    await page.screenshot({ path: join(OUT, 'catalogue-1440-side-by-side.png'), fullPage: true });
    expect(await axeViolations(page, 'side by side')).toEqual([]);
    await page.context().close();
  });
});
