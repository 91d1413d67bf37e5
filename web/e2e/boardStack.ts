/// <reference types="jest" />
/// <reference types="node" />
/**
 * The stack board end-to-end tests share: the built app served by a real gateway, auth, boards
 * and two realtime nodes (as services/realtime/test/failover.int.test.ts starts them), a
 * Chromium, and helpers that read the page's board through its test hook (window.__wbBoard).
 * `{ files: true }` adds the files service and the conversion worker, sharing one object-store
 * directory with the gateway (which streams uploads into it and serves the derived images).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import type { Browser, Page } from 'playwright-core';
import { freePort, givePlan, startStack, type RunningStack } from '@wb/platform/testing';
import type { PlanName } from '@wb/proto';
import type { BoardTestHook } from '../src/features/board/BoardSession';
import { DIST, launchChromium, signUpAsTeacher } from './chromium';

const SECRET = 'board-e2e-shared-secret-0123456789abcdef';
const NODE_A = 'services/realtime';
const NODE_B = './services/realtime';

export interface BoardStack {
  base: string;
  db: Pool;
  browser: Browser;
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** sign up through the UI and finish onboarding; the page ends on the dashboard */
  newUser(name: string): Promise<{ page: Page; id: number }>;
  /** a subscription plan through billing's plan source, applied by auth (starter: none) */
  givePlan(userId: number, plan: PlanName): Promise<void>;
  /** the shared FILES_DIR of gateway, files and converter (only with `files: true`) */
  filesDir?: string;
  stop(): Promise<void>;
}

export interface BoardStackOptions {
  /** also start services/files and services/converter (uploads, conversion, image serving) */
  files?: boolean;
  /** more browser origins the realtime nodes accept (SPEC A2): e.g. a test's TCP proxy in front of the gateway */
  extraOrigins?: string[];
}

export async function startBoardStack(opts: BoardStackOptions = {}): Promise<BoardStack> {
  const snapshots = await mkdtemp(join(tmpdir(), 'wb-board-e2e-'));
  const filesDir = opts.files ? await mkdtemp(join(tmpdir(), 'wb-files-e2e-')) : undefined;
  const filesEnv: Record<string, string> = filesDir ? { FILES_STORE: 'fs', FILES_DIR: filesDir } : {};
  const httpPort = await freePort();
  const base = `http://127.0.0.1:${httpPort}`;
  const node = async (id: string) => ({
    RT_SHARED_SECRET: SECRET,
    SNAPSHOT_DIR: snapshots,
    RT_NODE_ID: id,
    RT_PORT: String(await freePort()),
    RT_ALLOWED_ORIGINS: [base, ...(opts.extraOrigins ?? [])].join(','), // SPEC A2: the browser's Origin is the gateway's
  });
  let stack: RunningStack | undefined;
  try {
    stack = await startStack({
      deployables: [
        'services/auth',
        'services/boards',
        ...(opts.files ? ['services/files', 'services/converter'] : []),
        NODE_A,
        NODE_B,
        'gateway',
      ],
      env: { RT_SHARED_SECRET: SECRET },
      // 2 shared cores under several test runs: a service can take longer than the default 20 s
      readyTimeoutMs: 60_000,
      envFor: {
        gateway: { WEB_DIST_DIR: DIST, HTTP_PORT: String(httpPort), ...filesEnv },
        'services/boards': { PLAN_CACHE_TTL_MS: '0' },
        // OFFICE_WARM=0: no LibreOffice started before the first office job (most tests have none)
        ...(opts.files
          ? {
              'services/files': { ...filesEnv, PLAN_CACHE_TTL_MS: '0' },
              'services/converter': { ...filesEnv, OFFICE_WARM: '0' },
            }
          : {}),
        [NODE_A]: await node('rt-1'),
        [NODE_B]: await node('rt-2'),
      },
    });
  } catch (err) {
    await rm(snapshots, { recursive: true, force: true });
    if (filesDir) await rm(filesDir, { recursive: true, force: true });
    throw err;
  }
  const running = stack;
  const db = new Pool({ connectionString: running.databaseUrl, max: 2 });
  const browser = await launchChromium();

  async function newPage(viewport = { width: 1100, height: 760 }): Promise<Page> {
    const context = await browser.newContext({ locale: 'en-US', viewport });
    await context.addInitScript(() => localStorage.setItem('wb.consent', '{"necessary":true}'));
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (err) => process.stderr.write(`page error: ${err.message}\n`));
    page.on('console', (m) => {
      if (m.type() === 'error') process.stderr.write(`console: ${m.text()}\n`);
    });
    return page;
  }

  return {
    base,
    db,
    browser,
    newPage,
    filesDir,
    async newUser(name) {
      const page = await newPage();
      const id = await signUpAsTeacher(page, base, name);
      return { page, id };
    },
    givePlan: (userId, plan) => givePlan(running, userId, plan === 'starter' ? null : plan),
    async stop() {
      await browser.close();
      await db.end();
      await running.stop();
      await rm(snapshots, { recursive: true, force: true });
      if (filesDir) await rm(filesDir, { recursive: true, force: true });
    },
  };
}

/**
 * Ada creates a board from her dashboard (it opens) and Bob, a second teacher, opens it too; both
 * are live when this returns.
 */
export async function twoOnNewBoard(stack: BoardStack, title: string) {
  const ada = await stack.newUser('Ada');
  const a = ada.page;
  await a.getByRole('button', { name: 'New board' }).click();
  const dialog = a.getByRole('dialog', { name: 'New board' });
  await dialog.getByLabel('Board name').fill(title);
  await dialog.getByRole('button', { name: 'Create board' }).click();
  await a.waitForURL(/\/boards\/[A-Za-z0-9_-]{21}$/);
  const boardId = new URL(a.url()).pathname.split('/').pop()!;
  await live(a);
  const bob = await stack.newUser('Bob');
  await bob.page.goto(`${stack.base}/boards/${boardId}`);
  await live(bob.page);
  return { ada, bob, a, b: bob.page, boardId };
}

/** run `fn` in the page with the board's test hook (and a JSON argument) */
export const hook = <T, A = undefined>(page: Page, fn: (h: BoardTestHook, arg: A) => T, arg?: A): Promise<T> =>
  page.evaluate(`(${fn.toString()})(window.__wbBoard, ${JSON.stringify(arg ?? null)})`) as Promise<T>;

export async function until<A = undefined>(
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

export const live = (page: Page) =>
  until(page, 'the board to be live', (h) => h.state().status === 'live' && h.state().ready);

/** the shape kinds that live in the toolbar's shapes flyout */
const FLYOUT_SHAPES = new Set(['rectangle', 'ellipse', 'triangle', 'diamond', 'star', 'hexagon', 'arrow']);

/** pick a tool from the board's toolbar (a shape from its flyout) and wait until it is active */
export async function pickTool(page: Page, id: string): Promise<void> {
  if (FLYOUT_SHAPES.has(id)) {
    const menu = page.locator('.flyout-menu');
    if (!(await menu.isVisible())) await page.locator('.tool-flyout button[aria-haspopup]').click();
    await menu.locator(`[data-tool="${id}"]`).click();
  } else await page.locator(`.board-toolbar [data-tool="${id}"]`).first().click();
  await until(page, `the ${id} tool`, (h, t) => h.editor?.getState().tool === t, id);
}

/** a mouse drag in small steps, as a person draws */
export async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

/** PUT /api/boards/{id} from the owner's page (with its CSRF token) */
export async function updateBoard(owner: Page, boardId: string, patch: Record<string, unknown>): Promise<number> {
  return owner.evaluate(
    async ([id, body]) => {
      const csrf = /(?:^|; )csrf-token=([^;]+)/.exec(document.cookie)?.[1] ?? '';
      const res = await fetch(`/api/boards/${encodeURIComponent(id as string)}`, {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-csrf-token': decodeURIComponent(csrf),
        },
        body: JSON.stringify(body),
      });
      return res.status;
    },
    [boardId, patch] as const,
  );
}
