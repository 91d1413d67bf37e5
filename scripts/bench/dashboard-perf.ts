/// <reference lib="dom" />
/**
 * Dashboard rendering with 5,000 boards in 50 folders, in Debian's Chromium (run:
 * `npx tsc -b && npm run build -w @wb/web && node --import tsx scripts/bench/dashboard-perf.ts`).
 * Stack: auth, boards and the gateway serving web/dist (startStack). A user signs up and finishes
 * onboarding in the browser; the folders and boards are then seeded straight into the stack's
 * database (as boards-list.ts does). Measured, median of RUNS warm loads of /dashboard:
 *  - time from navigation start to the first board row painted, and the long tasks (> 50 ms)
 *    of the whole load;
 *  - the rows in the DOM (the list is virtualised: a window, not 5,000);
 *  - a 2 s scripted scroll through the list: frames over 50 ms and long tasks.
 * Writes artifacts/bench/dashboard-perf.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { startStack } from '@wb/platform/testing';

const ROOT = resolve(__dirname, '../..');
const DIST = join(ROOT, 'web', 'dist');
const OUT = join(ROOT, 'artifacts', 'bench', 'dashboard-perf.json');
const BOARDS = Number(process.env.BENCH_BOARDS ?? 5000);
const FOLDERS = Number(process.env.BENCH_FOLDERS ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const boardId = () => [...randomBytes(21)].map((b) => ALPHABET[b & 63]).join('');

async function seed(databaseUrl: string, userId: number): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    // test-only: an ultimate plan so 5,000 boards are within the limit, as a real user would have
    await db.query("UPDATE auth.users SET plan = 'ultimate' WHERE id = $1", [userId]);
    const folders = await db.query<{ id: number }>(
      `INSERT INTO boards.folders (user_id, name) SELECT $1, 'Class ' || g FROM generate_series(1, $2::int) g RETURNING id`,
      [userId, FOLDERS],
    );
    const ids: string[] = [];
    const titles: string[] = [];
    const inFolder: number[] = [];
    for (let i = 0; i < BOARDS; i++) {
      ids.push(boardId());
      titles.push(`Lesson board ${i + 1}`);
      inFolder.push(folders.rows[i % folders.rows.length]!.id);
    }
    await db.query(
      `INSERT INTO boards.boards (id, user_id, title, folder_id)
       SELECT id, $1, title, folder_id FROM unnest($2::text[], $3::text[], $4::int[]) AS t(id, title, folder_id)`,
      [userId, ids, titles, inFolder],
    );
  } finally {
    await db.end();
  }
}

async function main(): Promise<void> {
  const stack = await startStack({
    deployables: ['services/auth', 'services/boards', 'gateway'],
    envFor: { gateway: { WEB_DIST_DIR: DIST } },
  });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const base = stack.gatewayUrl;
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    // tsx (esbuild keepNames) wraps named functions in __name(); evaluated code needs it too
    await context.addInitScript('window.__name = (f) => f;');
    await context.addInitScript(() => {
      localStorage.setItem('wb.consent', '{"necessary":true}');
      const w = window as unknown as { __long: number[] };
      w.__long = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__long.push(e.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await page.goto(`${base}/signup`);
    await page.getByLabel('Name').fill('Bench Teacher');
    await page.getByLabel('Email').fill(`bench-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(/\/setup/);
    await page.getByLabel('Teacher').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Continue with Starter' }).click();
    await page.getByRole('button', { name: 'Start' }).click();
    await page.waitForURL(/\/dashboard$/);
    const userId = await page.evaluate(async () => ((await (await fetch('/api/user')).json()) as { id: number }).id);
    await seed(stack.databaseUrl, userId);

    const loads: { firstRowMs: number; longTasks: number; longestTaskMs: number; rows: number }[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      await page.goto(`${base}/dashboard`);
      await page.locator('[role=row]').first().waitFor();
      const m = await page.evaluate(() => {
        const w = window as unknown as { __long: number[] };
        const nav = performance.getEntriesByType('navigation')[0]!;
        return {
          firstRowMs: performance.now() - nav.startTime,
          longTasks: w.__long.length,
          longestTaskMs: Math.max(0, ...w.__long),
          rows: document.querySelectorAll('[role=row]').length,
          rowCount: Number(document.querySelector('[role=grid]')?.getAttribute('aria-rowcount')),
        };
      });
      if (m.rowCount !== BOARDS) throw new Error(`the list shows ${m.rowCount} boards, expected ${BOARDS}`);
      if (i > 0) loads.push(m); // the first load warms the server's list cache and the HTTP cache
    }

    // scroll the whole list in 2 s, one step per frame, and time the frames
    const scroll = await page.evaluate(async () => {
      const w = window as unknown as { __long: number[] };
      w.__long = [];
      const grid = document.querySelector<HTMLElement>('[role=grid]')!;
      const frames: number[] = [];
      const start = performance.now();
      let last = start;
      await new Promise<void>((done) => {
        const step = (now: number) => {
          frames.push(now - last);
          last = now;
          const p = Math.min(1, (now - start) / 2000);
          grid.scrollTop = p * (grid.scrollHeight - grid.clientHeight);
          if (p < 1) requestAnimationFrame(step);
          else done();
        };
        requestAnimationFrame(step);
      });
      frames.shift();
      const sorted = [...frames].sort((a, b) => a - b);
      return {
        frames: frames.length,
        p50FrameMs: sorted[Math.floor(sorted.length / 2)]!,
        p95FrameMs: sorted[Math.floor(sorted.length * 0.95)]!,
        framesOver50Ms: frames.filter((f) => f > 50).length,
        longTasks: w.__long.length,
        rowsInDom: document.querySelectorAll('[role=row]').length,
      };
    });

    const result = {
      boards: BOARDS,
      folders: FOLDERS,
      runs: RUNS,
      load: {
        firstRowMedianMs: Math.round(median(loads.map((l) => l.firstRowMs))),
        longTasksMedian: median(loads.map((l) => l.longTasks)),
        longestTaskMedianMs: Math.round(median(loads.map((l) => l.longestTaskMs))),
        rowsInDom: median(loads.map((l) => l.rows)),
      },
      scroll,
    };
    console.log(JSON.stringify(result, null, 2));
    mkdirSync(join(ROOT, 'artifacts', 'bench'), { recursive: true });
    writeFileSync(OUT, JSON.stringify(result, null, 2));
  } finally {
    await browser.close();
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
