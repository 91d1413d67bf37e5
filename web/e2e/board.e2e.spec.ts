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
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import type { Browser, Page } from 'playwright-core';
import { freePort, startStack, type RunningStack } from '@wb/platform/testing';
import type { BoardTestHook } from '../src/features/board/BoardSession';
import { DIST, e2eReady, launchChromium, SHOTS, signUpAsTeacher } from './chromium';

const maybe = e2eReady ? describe : describe.skip;
const SECRET = 'board-e2e-shared-secret-0123456789abcdef';
const NODE_A = 'services/realtime';
const NODE_B = './services/realtime';

maybe('board end to end', () => {
  let stack: RunningStack;
  let browser: Browser;
  let db: Pool;
  let base: string;
  let snapshots: string;

  beforeAll(async () => {
    snapshots = await mkdtemp(join(tmpdir(), 'wb-board-e2e-'));
    const httpPort = await freePort();
    base = `http://127.0.0.1:${httpPort}`;
    const node = async (id: string) => ({
      RT_SHARED_SECRET: SECRET,
      SNAPSHOT_DIR: snapshots,
      RT_NODE_ID: id,
      RT_PORT: String(await freePort()),
      RT_ALLOWED_ORIGINS: base, // SPEC A2: the browser's Origin is the gateway's
    });
    stack = await startStack({
      deployables: ['services/auth', 'services/boards', NODE_A, NODE_B, 'gateway'],
      env: { RT_SHARED_SECRET: SECRET },
      envFor: {
        gateway: { WEB_DIST_DIR: DIST, HTTP_PORT: String(httpPort) },
        'services/boards': { PLAN_CACHE_TTL_MS: '0' },
        [NODE_A]: await node('rt-1'),
        [NODE_B]: await node('rt-2'),
      },
    });
    db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await db?.end();
    await stack?.stop();
    if (snapshots) await rm(snapshots, { recursive: true, force: true });
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1100, height: 760 } });
    await context.addInitScript(() => localStorage.setItem('wb.consent', '{"necessary":true}'));
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (err) => process.stderr.write(`page error: ${err.message}\n`));
    page.on('console', (m) => {
      if (m.type() === 'error') process.stderr.write(`console: ${m.text()}\n`);
    });
    return page;
  }

  /** sign up through the UI and finish onboarding; the page ends on the dashboard */
  async function newUser(name: string): Promise<{ page: Page; id: number }> {
    const page = await newPage();
    const id = await signUpAsTeacher(page, base, name);
    return { page, id };
  }

  /** run `fn` in the page with the board's test hook (and a JSON argument) */
  const hook = <T, A = undefined>(page: Page, fn: (h: BoardTestHook, arg: A) => T, arg?: A): Promise<T> =>
    page.evaluate(`(${fn.toString()})(window.__wbBoard, ${JSON.stringify(arg ?? null)})`) as Promise<T>;

  async function until<A = undefined>(
    page: Page,
    what: string,
    fn: (h: BoardTestHook, arg: A) => boolean,
    arg?: A,
    ms = 15_000,
  ): Promise<void> {
    const end = Date.now() + ms;
    while (!(await hook(page, (h) => !!h).catch(() => false)) || !(await hook(page, fn, arg))) {
      if (Date.now() > end) {
        const state = await hook(page, (h) => ({ ...h.state(), shapes: h.shapes() })).catch(() => null);
        throw new Error(`timed out waiting for ${what}; board: ${JSON.stringify(state)}`);
      }
      await page.waitForTimeout(50);
    }
  }

  const live = (page: Page) =>
    until(page, 'the board to be live', (h) => h.state().status === 'live' && h.state().ready);

  async function setDefaultPermission(owner: Page, boardId: string, permission: string): Promise<void> {
    const status = await owner.evaluate(
      async ([id, p]) => {
        const csrf = /(?:^|; )csrf-token=([^;]+)/.exec(document.cookie)?.[1] ?? '';
        const res = await fetch(`/api/boards/${encodeURIComponent(id!)}`, {
          method: 'PUT',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'x-csrf-token': decodeURIComponent(csrf),
          },
          body: JSON.stringify({ defaultPermission: p }),
        });
        return res.status;
      },
      [boardId, permission],
    );
    expect(status).toBe(200);
  }

  test('two people draw live; select, move, delete; saved; reload; guest viewer; restricted lock screen', async () => {
    const ada = await newUser('Ada');
    const a = ada.page;
    await a.getByRole('button', { name: 'New board' }).click();
    const dialog = a.getByRole('dialog', { name: 'New board' });
    await dialog.getByLabel('Board name').fill('Live lesson');
    await dialog.getByRole('button', { name: 'Create board' }).click();
    await a.getByRole('link', { name: 'Live lesson', exact: true }).click();
    await a.waitForURL(/\/boards\/[A-Za-z0-9_-]{21}$/);
    const boardId = new URL(a.url()).pathname.split('/').pop()!;
    await live(a);
    await a.getByRole('status', { name: 'Save state' }).getByText('Saved').waitFor();

    // Bob (logged in, no grant): the board's default permission for new boards is "edit"
    const { page: b } = await newUser('Bob');
    await b.goto(`${base}/boards/${boardId}`);
    await live(b);
    expect(await hook(b, (h) => h.state().welcome?.role)).toBe('editor');
    await a.getByRole('list', { name: 'People on this board' }).getByText('Bob').waitFor();

    // Bob's cursor appears on Ada's page with his name
    await b.mouse.move(600, 420);
    await b.mouse.move(610, 430, { steps: 3 });
    await a.locator('.remote-cursor', { hasText: 'Bob' }).waitFor();

    // Ada draws with the pen: Bob sees the stroke while it is drawn, then the committed shape
    await a.getByRole('button', { name: 'Pen' }).click();
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
    await db.query('UPDATE auth.users SET plan = $2 WHERE id = $1', [ada.id, 'standard']);
    await setDefaultPermission(a, boardId, 'view');
    const g = await newPage();
    await g.goto(`${base}/boards/${boardId}`);
    await g.getByLabel('Your name').fill('Gus the guest');
    await g.getByRole('button', { name: 'Join the board' }).click();
    await live(g);
    await g.getByText('View only: you can look at this board but not change it.').waitFor();
    expect(await g.getByRole('button', { name: 'Pen' }).isDisabled()).toBe(true);
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

    // restricted: "no access" closes Bob's connection (SPEC A4) and shows the lock screen
    await setDefaultPermission(a, boardId, 'none');
    await b.getByRole('heading', { name: 'No access' }).waitFor();
    await b.getByRole('link', { name: 'Go to the dashboard' }).waitFor();
    await b.screenshot({ path: join(SHOTS, 'board-restricted.png') });
    // the owner keeps drawing
    expect(await hook(a, (h) => h.state().status)).toBe('live');
  }, 90_000);
});
