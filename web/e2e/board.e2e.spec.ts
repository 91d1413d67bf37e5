/// <reference types="jest" />
/// <reference types="node" />
/**
 * The board page end to end in Debian's Chromium: the built app served by a real gateway, the
 * auth and boards services and two realtime nodes (as services/realtime/test/failover.int.test.ts
 * starts them). Two people draw on one board: live strokes and cursors, select/move/delete,
 * saved state, persistence across a reload, a guest viewer, and the restricted lock screen.
 * TEST-ONLY SETUP: guests need the owner's plan to have the `guests` feature; with no billing
 * yet the plan is written to auth.users.plan (as the dashboard e2e does).
 */
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { e2eReady, SHOTS } from './chromium';
import { hook, live, startBoardStack, until, updateBoard, type BoardStack } from './boardStack';

const maybe = e2eReady ? describe : describe.skip;

maybe('board end to end', () => {
  let stack: BoardStack;
  beforeAll(async () => {
    stack = await startBoardStack();
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });
  const newUser = (name: string) => stack.newUser(name);
  const newPage = () => stack.newPage();
  async function setDefaultPermission(owner: Page, boardId: string, permission: string): Promise<void> {
    expect(await updateBoard(owner, boardId, { defaultPermission: permission })).toBe(200);
  }

  test('two people draw live; select, move, delete; saved; reload; guest viewer; restricted lock screen', async () => {
    const ada = await newUser('Ada');
    const a = ada.page;
    await a.getByRole('button', { name: 'New board' }).click();
    const dialog = a.getByRole('dialog', { name: 'New board' });
    await dialog.getByLabel('Board name').fill('Live lesson');
    await dialog.getByRole('button', { name: 'Create board' }).click();
    // creating a board opens it
    await a.waitForURL(/\/boards\/[A-Za-z0-9_-]{21}$/);
    const boardId = new URL(a.url()).pathname.split('/').pop()!;
    await live(a);
    await a.getByRole('status', { name: 'Save state' }).getByText('Saved').waitFor();

    // Bob (logged in, no grant): the board's default permission for new boards is "edit"
    const { page: b } = await newUser('Bob');
    await b.goto(`${stack.base}/boards/${boardId}`);
    await live(b);
    expect(await hook(b, (h) => h.state().welcome?.role)).toBe('editor');
    await a.getByRole('list', { name: 'People on this board' }).getByText('Bob').waitFor();

    // Bob's cursor appears on Ada's page with his name
    await b.mouse.move(600, 420);
    await b.mouse.move(610, 430, { steps: 3 });
    await a.locator('.remote-cursor', { hasText: 'Bob' }).waitFor();

    // Ada draws with the pen: Bob sees the stroke while it is drawn, then the committed shape
    await a.getByRole('button', { name: 'Pen', exact: true }).click();
    await a.mouse.move(300, 300);
    await a.mouse.down();
    for (let x = 300; x <= 500; x += 20) await a.mouse.move(x, 300 + (x % 40 === 0 ? 2 : 0), { steps: 2 });
    await until(b, 'the stroke in progress', (h) => h.remoteStrokes().some((s) => s.points >= 3));
    expect(await hook(b, (h) => h.shapes().length)).toBe(0); // not committed yet
    await a.mouse.up();
    await until(a, 'Ada’s own stroke', (h) => h.shapes().length === 1);
    await until(b, 'the committed stroke', (h) => h.shapes().length === 1 && h.remoteStrokes().length === 0);
    const [stroke] = await hook(b, (h) => h.shapes());
    expect(stroke).toMatchObject({ kind: 'pen', creator: ada.id });
    expect(stroke!.x).toBeCloseTo(300, 0);
    await a.screenshot({ path: join(SHOTS, 'board-stroke.png') });

    // a second stroke by Bob (the pen shortcut P)
    await b.keyboard.press('p');
    await b.mouse.move(300, 500);
    await b.mouse.down();
    await b.mouse.move(450, 560, { steps: 8 });
    await b.mouse.up();
    await until(a, 'Bob’s stroke', (h) => h.shapes().length === 2);

    // select (V) and move Ada's stroke: one change, seen by Bob
    await a.keyboard.press('v');
    await a.mouse.click(400, 300);
    await a.locator('.board-surface[data-selected="1"]').waitFor();
    await a.mouse.move(400, 300);
    await a.mouse.down();
    await a.mouse.move(500, 360, { steps: 6 });
    await a.mouse.up();
    await until(
      b,
      'the moved stroke',
      (h, id) => h.shapes().some((s) => s.id === id && Math.abs(s.x - 400) < 1),
      stroke!.id,
    );
    expect((await hook(b, (h, id) => h.shapes().find((s) => s.id === id), stroke!.id))!.y).toBeCloseTo(
      stroke!.y + 60,
      0,
    );

    // delete it with the Delete key
    await a.keyboard.press('Delete');
    await until(b, 'the deleted stroke', (h, id) => h.shapes().length === 1 && h.shapes()[0]!.id !== id, stroke!.id);

    // everything is saved, and still there after a reload (persisted by the realtime node)
    await until(a, 'saved', (h) => h.state().saveState === 'saved' && h.state().pending === 0);
    await a.getByRole('status', { name: 'Save state' }).getByText('Saved').waitFor();
    await a.reload();
    await live(a);
    expect(await hook(a, (h) => h.shapes().map((s) => s.creator))).toEqual([
      await hook(b, (h) => h.shapes()[0]!.creator),
    ]);
    await a.screenshot({ path: join(SHOTS, 'board-after-reload.png') });

    // a guest with the link on a "can view" board: picks a name, sees the board, cannot draw
    await stack.givePlan(ada.id, 'standard');
    await setDefaultPermission(a, boardId, 'view');
    const g = await newPage();
    await g.goto(`${stack.base}/boards/${boardId}`);
    await g.getByLabel('Your name').fill('Gus the guest');
    await g.getByRole('button', { name: 'Join the board' }).click();
    await live(g);
    await g.getByText('View only: you can look at this board but not change it.').waitFor();
    expect(await g.getByRole('button', { name: 'Pen', exact: true }).isDisabled()).toBe(true);
    expect(await hook(g, (h) => h.shapes().length)).toBe(1);
    await g.keyboard.press('p');
    await g.mouse.move(700, 200);
    await g.mouse.down();
    await g.mouse.move(800, 260, { steps: 5 });
    await g.mouse.up();
    await g.waitForTimeout(300);
    expect(await hook(g, (h) => h.shapes().length)).toBe(1);
    expect(await hook(g, (h) => h.state().pending)).toBe(0);
    await a
      .getByRole('list', { name: 'People on this board' })
      .getByText(/Gus the guest · guest/)
      .waitFor();
    await g.screenshot({ path: join(SHOTS, 'board-guest-viewer.png') });

    // issue 26 #14: the guest's Files button on a paid board says one thing, the visitor's prompt
    // (not "part of the paid plans" and "account required" together)
    await g.locator('[data-action="files"]').click();
    const files = g.getByRole('dialog', { name: 'Account required' });
    await files
      .locator('.upgrade-prompt[data-variant="visitor"]')
      .getByRole('link', { name: 'Sign up for free' })
      .waitFor();
    expect(await files.getByText(/paid plan/).count()).toBe(0);
    await g.setViewportSize({ width: 1440, height: 900 });
    await g.screenshot({ path: join(SHOTS, 'board-guest-files-1440.png') });
    await g.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await g.screenshot({ path: join(SHOTS, 'board-guest-files-dark.png') });
    await g.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await g.setViewportSize({ width: 390, height: 844 });
    await g.screenshot({ path: join(SHOTS, 'board-guest-files-390.png') });
    await g.keyboard.press('Escape');
    await files.waitFor({ state: 'detached' });

    // restricted: "no access" closes Bob's connection (SPEC A4) and shows the lock screen
    await setDefaultPermission(a, boardId, 'none');
    await b.getByRole('heading', { name: 'No access' }).waitFor();
    await b.getByRole('link', { name: 'Go to the dashboard' }).waitFor();
    await b.screenshot({ path: join(SHOTS, 'board-restricted.png') });
    // the owner keeps drawing
    expect(await hook(a, (h) => h.state().status)).toBe('live');
  }, 90_000);
});
