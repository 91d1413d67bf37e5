/// <reference types="jest" />
/// <reference types="node" />
/**
 * Dashboard end to end in Debian's Chromium: the built app served by a real gateway with the
 * auth and boards services (isolated database, NATS and Redis prefixes per run).
 * TEST-ONLY SETUP: there is no billing yet, so a paid plan is given by writing auth.users.plan in
 * the stack's database (as services/boards/test/browser.ts `setPlan` does).
 */
import { join } from 'node:path';
import { Pool } from 'pg';
import type { Browser, Page } from 'playwright-core';
import { givePlan, startStack, type RunningStack } from '@wb/platform/testing';
import { DIST, e2eReady, launchChromium, SHOTS, signUpAsTeacher } from './chromium';

const maybe = e2eReady ? describe : describe.skip;

maybe('dashboard end to end', () => {
  let stack: RunningStack;
  let browser: Browser;
  let db: Pool;
  let base: string;

  beforeAll(async () => {
    stack = await startStack({
      deployables: ['services/auth', 'services/boards', 'gateway'],
      envFor: { gateway: { WEB_DIST_DIR: DIST }, 'services/boards': { PLAN_CACHE_TTL_MS: '0' } },
    });
    base = stack.gatewayUrl;
    db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await db?.end();
    await stack?.stop();
  });

  /** sign up and finish onboarding on the starter plan; returns the page on the dashboard */
  async function newUser(name: string): Promise<{ page: Page; id: number }> {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    await context.addInitScript(() => localStorage.setItem('wb.consent', '{"necessary":true}'));
    const page = await context.newPage();
    page.setDefaultTimeout(30_000); // two stacks and browsers share 2 cores when the e2e suites run in parallel
    const id = await signUpAsTeacher(page, base, name);
    return { page, id };
  }

  async function createBoard(page: Page, title: string): Promise<void> {
    await page.getByRole('button', { name: 'New board' }).click();
    const dialog = page.getByRole('dialog', { name: 'New board' });
    await dialog.getByLabel('Board name').fill(title);
    await dialog.getByRole('button', { name: 'Create board' }).click();
    // a new board opens at once; back to the dashboard for the next step
    await page.waitForURL(/\/boards\/[A-Za-z0-9_-]{21}$/);
    await page.goBack();
    await page.getByRole('link', { name: title, exact: true }).waitFor();
  }

  const row = (page: Page, title: string) =>
    page.getByRole('row').filter({ has: page.getByText(title, { exact: true }) });

  test('create, rename, folders, multi-select move, trash → restore, purge, open', async () => {
    const { page, id } = await newUser('Ada');
    await createBoard(page, 'Fractions');
    await createBoard(page, 'Cells');
    await createBoard(page, 'Essay');

    // rename
    await row(page, 'Essay').getByRole('button', { name: 'Rename: Essay' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename board' });
    await rename.getByLabel('Board name').fill('Essay outline');
    await rename.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: 'Essay outline', exact: true }).waitFor();

    // folders need a paid plan: first the upgrade prompt, then (test-only) a standard plan
    await page.getByRole('button', { name: 'New folder' }).first().click();
    await page.getByRole('dialog', { name: 'Folders need a paid plan' }).getByText('Upgrade available').waitFor();
    await page.keyboard.press('Escape');
    await givePlan(stack, id, 'standard');
    await page.reload();
    await page.getByText('Boards: 3 / 50').waitFor();
    await page.getByRole('button', { name: 'New folder' }).first().click();
    const newFolder = page.getByRole('dialog', { name: 'New folder' });
    await newFolder.getByLabel('Folder name').fill('Class 5');
    await newFolder.getByRole('button', { name: 'Create folder' }).click();
    const sidebar = page.getByRole('navigation', { name: 'Folders' });
    await sidebar.getByRole('link', { name: /Class 5/ }).waitFor();

    // multi-select move
    await page.getByLabel('Select Fractions').check();
    await page.getByLabel('Select Cells').check();
    await page.getByText('Selected: 2').waitFor();
    await page.screenshot({ path: join(SHOTS, 'dashboard-multiselect.png') });
    await page.getByRole('button', { name: 'Move to folder' }).click();
    const move = page.getByRole('dialog', { name: 'Move boards (2)' });
    await move.getByLabel('Folder').selectOption({ label: 'Class 5' });
    await move.getByRole('button', { name: 'Move', exact: true }).click();
    await move.waitFor({ state: 'detached' });
    await row(page, 'Fractions').getByText('In Class 5').waitFor();
    await sidebar.getByRole('link', { name: /Class 5/ }).click();
    await page.waitForURL(/\/dashboard\/boards\/\d+$/);
    await page.getByRole('heading', { name: 'Class 5' }).waitFor();
    expect(await page.getByRole('row').count()).toBe(2);
    await sidebar.getByRole('link', { name: /Unsorted/ }).click();
    await page.getByRole('link', { name: 'Essay outline', exact: true }).waitFor();
    expect(await page.getByRole('row').count()).toBe(1);

    // search and sort
    await sidebar.getByRole('link', { name: /All boards/ }).click();
    await page.getByPlaceholder('Search boards').fill('CELL');
    await expect(page.getByRole('row')).toHaveCountSoon(1);
    await page.getByPlaceholder('Search boards').fill('');
    await page.getByLabel('Sort').selectOption('titleAsc');
    await expect(page.getByRole('row')).toHaveCountSoon(3);
    expect(await page.locator('.board-title').allInnerTexts()).toEqual(['Cells', 'Essay outline', 'Fractions']);

    // trash (confirmation) → trashed view → restore
    await row(page, 'Cells').getByRole('button', { name: 'Move to trash: Cells' }).click();
    const confirmTrash = page.getByRole('alertdialog', { name: 'Move to the trash?' });
    await confirmTrash.getByRole('button', { name: 'Move to trash' }).click();
    await page.getByRole('link', { name: 'Cells', exact: true }).waitFor({ state: 'detached' });
    await sidebar.getByRole('link', { name: /Trash/ }).click();
    await page.waitForURL(/\/dashboard\/boards\/trashed$/);
    await row(page, 'Cells')
      .getByText(/In the trash since/)
      .waitFor();
    await page.screenshot({ path: join(SHOTS, 'dashboard-trash.png') });
    await row(page, 'Cells').getByRole('button', { name: 'Restore: Cells' }).click();
    await page.getByText('The trash is empty', { exact: false }).waitFor();

    // trash two by multi-select, purge one with confirmation
    await sidebar.getByRole('link', { name: /All boards/ }).click();
    await page.getByLabel('Select Cells').check();
    await page.getByLabel('Select Essay outline').check();
    await page.getByRole('toolbar', { name: 'Selected boards' }).getByRole('button', { name: 'Move to trash' }).click();
    await page
      .getByRole('alertdialog', { name: 'Move to the trash?' })
      .getByRole('button', { name: 'Move to trash' })
      .click();
    await sidebar.getByRole('link', { name: /Trash/ }).click();
    await expect(page.getByRole('row')).toHaveCountSoon(2);
    await row(page, 'Cells').getByRole('button', { name: 'Delete forever: Cells' }).click();
    const purge = page.getByRole('alertdialog', { name: 'Delete forever?' });
    await purge.getByText('cannot be undone', { exact: false }).waitFor();
    await purge.getByRole('button', { name: 'Delete forever' }).click();
    await expect(page.getByRole('row')).toHaveCountSoon(1);
    const left = await db.query('SELECT title FROM boards.boards WHERE user_id = $1 ORDER BY title', [id]);
    expect(left.rows.map((r: { title: string }) => r.title)).toEqual(['Essay outline', 'Fractions']);

    // share dialog: link and default permission
    await sidebar.getByRole('link', { name: /All boards/ }).click();
    await row(page, 'Fractions').getByRole('button', { name: 'Share: Fractions' }).click();
    const share = page.getByRole('dialog', { name: 'Share “Fractions”' });
    const link = await share.getByLabel('Board link').inputValue();
    expect(link).toMatch(/\/boards\/[A-Za-z0-9_-]{21}$/);
    await share.getByLabel('Permission for people who join').selectOption('view');
    await page.getByText('Sharing settings saved').waitFor();
    await page.screenshot({ path: join(SHOTS, 'dashboard-share.png') });
    await page.keyboard.press('Escape');

    // open a board: keyboard on the list, Enter navigates to /boards/<id>
    await row(page, 'Fractions').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/boards\/[A-Za-z0-9_-]{21}$/);
    const boardId = new URL(page.url()).pathname.split('/').pop();
    expect(boardId).toMatch(/^[A-Za-z0-9_-]{21}$/);
    // the list opened the board the share dialog was about
    expect(link.endsWith(`/boards/${boardId}`)).toBe(true);
    await page.context().close();
  });

  test('share dialog: the people who joined, each with their own permission', async () => {
    const { page: guestPage, id: joinerId } = await newUser('Dee');
    await guestPage.context().close();
    const { page, id } = await newUser('Cyd');
    await createBoard(page, 'Algebra');
    // TEST-ONLY SETUP: Dee's join is recorded as the realtime node's access check records it
    await db.query(
      `INSERT INTO boards.board_users (board_id, user_id, joined_at)
       SELECT id, $2, now() FROM boards.boards WHERE user_id = $1`,
      [id, joinerId],
    );
    await row(page, 'Algebra').getByRole('button', { name: 'Share: Algebra' }).click();
    const share = page.getByRole('dialog', { name: 'Share “Algebra”' });
    const people = share.getByRole('list', { name: 'People on this board' });
    await people.getByText('Dee').waitFor();
    await people.getByText(/^Joined /).waitFor();
    const dee = people.getByLabel('Permission for Dee');
    expect(await dee.inputValue()).toBe('default');
    await dee.selectOption('view');
    await page.getByText('Sharing settings saved').waitFor();
    const granted = await db.query('SELECT permission FROM boards.board_users WHERE user_id = $1', [joinerId]);
    expect(granted.rows).toEqual([{ permission: 'view' }]);
    await page.screenshot({ path: join(SHOTS, 'dashboard-share-people.png') });
    await page.context().close();
  });

  test('starter: the board limit (5) shows the upgrade prompt', async () => {
    const { page } = await newUser('Bea');
    for (const n of [1, 2, 3, 4, 5]) await createBoard(page, `Board ${n}`);
    await page.getByText('Boards: 5 / 5').waitFor();
    await page.getByText('You have used all 5 boards of your plan.').waitFor();
    await page.getByRole('button', { name: 'New board' }).click();
    const prompt = page.getByRole('dialog', { name: 'Board limit reached' });
    await prompt.getByRole('link', { name: 'Upgrade now' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'dashboard-board-limit.png') });
    await page.context().close();
  });
});

/** a tiny polling assertion (Playwright's expect is not used in this jest setup) */
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R> {
      toHaveCountSoon(n: number): Promise<R>;
    }
  }
}
expect.extend({
  async toHaveCountSoon(locator: { count(): Promise<number> }, n: number) {
    const until = Date.now() + 10_000;
    let last = -1;
    while (Date.now() < until) {
      last = await locator.count();
      if (last === n) return { pass: true, message: () => `count is ${n}` };
      await new Promise((r) => setTimeout(r, 100));
    }
    return { pass: false, message: () => `expected ${n} elements, found ${last}` };
  },
});
