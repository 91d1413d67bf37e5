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
 * Every board has a dashboard preview (a real 320×200 WebP in the gateway's snapshot store; the
 * grid layout, a new user's default, loads them lazily as cards come into view); BENCH_PREVIEWS=0
 * seeds none. Writes artifacts/bench/dashboard-perf.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { FsObjectStore } from '@wb/platform';
import { startStack } from '@wb/platform/testing';
import { boardPreviewKey } from '@wb/proto';

const ROOT = resolve(__dirname, '../..');
const DIST = process.env.WEB_DIST_DIR ?? join(ROOT, 'web', 'dist');
const OUT = join(ROOT, 'artifacts', 'bench', 'dashboard-perf.json');
const BOARDS = Number(process.env.BENCH_BOARDS ?? 5000);
const FOLDERS = Number(process.env.BENCH_FOLDERS ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PREVIEWS = process.env.BENCH_PREVIEWS !== '0';
/** the dashboard layout measured: grid (a new user's default, with the previews) or list */
const LAYOUT = process.env.BENCH_LAYOUT === 'list' ? 'list' : 'grid';
/** the gateway's snapshot store (SNAPSHOT_DIR), where the realtime nodes would put the previews */
const SNAPSHOTS = mkdtempSync(join(tmpdir(), 'wb-bench-previews-'));
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const boardId = () => [...randomBytes(21)].map((b) => ALPHABET[b & 63]).join('');

/** a preview like the realtime nodes make: a few strokes on white, 320×200 WebP */
async function previewBytes(i: number): Promise<Buffer> {
  const y = 40 + (i % 120);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="320" height="200" fill="#fff"/><path d="M20 ${y}C80 20 160 180 300 ${200 - y}" fill="none" stroke="#1e63d6" stroke-width="6"/><rect x="200" y="30" width="80" height="60" fill="#ffe066"/></svg>`;
  return sharp(Buffer.from(svg)).webp({ quality: 80 }).toBuffer();
}

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
      `INSERT INTO boards.boards (id, user_id, title, folder_id, preview_version)
       SELECT id, $1, title, folder_id, $5 FROM unnest($2::text[], $3::text[], $4::int[]) AS t(id, title, folder_id)`,
      [userId, ids, titles, inFolder, PREVIEWS ? 1 : null],
    );
    if (PREVIEWS) {
      const store = new FsObjectStore(SNAPSHOTS);
      const samples = await Promise.all(Array.from({ length: 16 }, (_, i) => previewBytes(i)));
      for (let i = 0; i < ids.length; i++) await store.put(boardPreviewKey(ids[i]!), samples[i % samples.length]!);
    }
  } finally {
    await db.end();
  }
}

async function main(): Promise<void> {
  const stack = await startStack({
    deployables: ['services/auth', 'services/boards', 'gateway'],
    envFor: { gateway: { WEB_DIST_DIR: DIST, SNAPSHOT_DIR: SNAPSHOTS } },
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
    await page.evaluate(
      ([id, layout]) => localStorage.setItem(`wb.boardLayout.${id}`, String(layout)),
      [userId, LAYOUT],
    );

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
        previewsInDom: document.querySelectorAll('.board-thumb img').length,
      };
    });
    // the previews that finished loading in the last window (proof they are on)
    await page.waitForTimeout(500);
    const previewsLoaded = await page.evaluate(
      () =>
        Array.from(document.querySelectorAll<HTMLImageElement>('.board-thumb img')).filter(
          (i) => i.complete && i.naturalWidth === 320,
        ).length,
    );

    const result = {
      boards: BOARDS,
      folders: FOLDERS,
      runs: RUNS,
      layout: LAYOUT,
      previews: PREVIEWS,
      previewsLoaded,
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
    rmSync(SNAPSHOTS, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
