/**
 * Web performance budget (run: `node --import tsx scripts/bench/web-perf.ts` after
 * `npm run build -w @wb/web`):
 *  1. gzip size of the JavaScript (and CSS) a logged-out visitor loads for `/` and `/login`:
 *     the entry chunk with its static imports plus the page chunk and its static imports, read
 *     from Vite's manifest; budget 200 KB of JavaScript;
 *  2. login time-to-interactive in Debian's Chromium, cold (new browser context, empty cache)
 *     through a real gateway on loopback: navigation start → the login form's
 *     `wb:login-interactive` performance mark; budget 1 s (median of 7 loads).
 * Prints a table and writes artifacts/bench/web-perf.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startStack } from '@wb/platform/testing';

const ROOT = resolve(__dirname, '../..');
/** WEB_DIST_DIR measures another build (e.g. a helper's own, so web/dist is not rebuilt under a running e2e) */
const DIST = process.env.WEB_DIST_DIR ?? join(ROOT, 'web', 'dist');
const OUT = join(ROOT, 'artifacts', 'bench', 'web-perf.json');
const JS_BUDGET = 200 * 1024;
const TTI_BUDGET_MS = 1000;
const RUNS = 7;

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const manifest = JSON.parse(readFileSync(join(DIST, '.vite', 'manifest.json'), 'utf8')) as Manifest;
const gz = (file: string) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;

/** files loaded for a chunk: itself and its static imports, recursively */
function closure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const i of manifest[key]?.imports ?? []) closure(i, seen);
  return seen;
}

function pageFiles(pageSrc: string) {
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const keys = new Set([...closure(entry), ...closure(pageSrc)]);
  const js = [...keys].map((k) => manifest[k]!.file);
  const css = [...new Set([...keys].flatMap((k) => manifest[k]!.css ?? []))];
  const chunks = js.map((file) => ({ file, gzip: gz(file) })).sort((a, b) => b.gzip - a.gzip);
  return {
    chunks,
    jsGzip: chunks.reduce((s, c) => s + c.gzip, 0),
    cssGzip: css.reduce((s, f) => s + gz(f), 0),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function loginTti(): Promise<number[]> {
  const stack = await startStack({
    deployables: ['services/auth', 'gateway'],
    envFor: { gateway: { WEB_DIST_DIR: DIST } },
  });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const times: number[] = [];
  try {
    for (let i = 0; i < RUNS + 1; i++) {
      const context = await browser.newContext(); // cold: no cache, no cookies
      const page = await context.newPage();
      await page.goto(`${stack.gatewayUrl}/login`);
      await page.getByLabel('Email').waitFor();
      const ms = await page.evaluate(async () => {
        for (let n = 0; n < 100; n++) {
          const mark = performance.getEntriesByName('wb:login-interactive')[0];
          if (mark) return mark.startTime;
          await new Promise((r) => setTimeout(r, 20));
        }
        return Number.NaN;
      });
      if (i > 0) times.push(Math.round(ms)); // the first load warms the server, not the browser
      await context.close();
    }
  } finally {
    await browser.close();
    await stack.stop();
  }
  return times;
}

async function main() {
  const home = pageFiles('src/features/marketing/HomePage.tsx');
  const login = pageFiles('src/features/auth/LoginPage.tsx');
  const allChunks = Object.values(manifest)
    .filter((c) => c.file.endsWith('.js'))
    .map((c) => ({ file: c.file, gzip: gz(c.file) }))
    .sort((a, b) => b.gzip - a.gzip);
  const tti = await loginTti();
  const result = {
    budget: { jsGzipBytes: JS_BUDGET, loginTtiMs: TTI_BUDGET_MS },
    home: { jsGzipBytes: home.jsGzip, cssGzipBytes: home.cssGzip, chunks: home.chunks },
    login: {
      jsGzipBytes: login.jsGzip,
      cssGzipBytes: login.cssGzip,
      chunks: login.chunks,
      ttiMs: tti,
      ttiMedianMs: median(tti),
    },
    allChunks,
    ok: home.jsGzip <= JS_BUDGET && login.jsGzip <= JS_BUDGET && median(tti) < TTI_BUDGET_MS,
  };
  mkdirSync(join(ROOT, 'artifacts', 'bench'), { recursive: true });
  writeFileSync(OUT, JSON.stringify(result, null, 2));
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  console.log(`home  JS ${kb(home.jsGzip)} gzip (+ CSS ${kb(home.cssGzip)}), budget ${kb(JS_BUDGET)}`);
  console.log(`login JS ${kb(login.jsGzip)} gzip (+ CSS ${kb(login.cssGzip)}), budget ${kb(JS_BUDGET)}`);
  for (const c of login.chunks) console.log(`  ${c.file.padEnd(40)} ${kb(c.gzip)}`);
  console.log(
    `login interactive (cold, loopback): median ${median(tti)} ms of [${tti.join(', ')}], budget ${TTI_BUDGET_MS} ms`,
  );
  console.log(`${result.ok ? 'within budget' : 'OVER BUDGET'}; wrote ${OUT}`);
  process.exitCode = result.ok ? 0 : 1;
}

void main();
