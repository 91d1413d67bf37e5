/// <reference types="node" />
/**
 * What every Chromium end-to-end file shares: where the built app and the screenshots are, and
 * how Debian's Chromium is launched here (without the background-networking flags it keeps
 * trying hosts this closed network refuses).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const ROOT = resolve(__dirname, '../..');
/** WEB_DIST_DIR picks another build (a helper's own folder, so a rebuild never breaks a running e2e) */
export const DIST = process.env.WEB_DIST_DIR ?? join(ROOT, 'web', 'dist');
export const SHOTS = join(ROOT, 'artifacts', 'e2e');
const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** the app is built and Chromium installed (make test and .ci/run see to both) */
export const e2eReady = existsSync(join(DIST, 'index.html')) && existsSync(CHROMIUM);

export async function launchChromium(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** sign up through the UI and finish teacher onboarding on the starter plan; returns the user id */
export async function signUpAsTeacher(page: Page, base: string, name: string): Promise<number> {
  await page.goto(`${base}/signup`);
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(`${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(/\/setup/);
  await page.getByLabel('Teacher').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue with Starter' }).click();
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await page.waitForURL(/\/dashboard$/);
  return page.evaluate(async () => ((await (await fetch('/api/user')).json()) as { id: number }).id);
}

let axeSource: string | undefined;
/**
 * axe-core's serious and critical violations on the page as it is, each prefixed with `what`.
 * axe is injected by the test, so the page's context must bypass the CSP (`bypassCSP: true`).
 */
export async function axeViolations(page: Page, what: string): Promise<string[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const w = window as unknown as {
      axe: {
        run: (
          ctx: Document,
          opts: object,
        ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
      };
    };
    // colours are checked at rest: a theme switched just before would otherwise be caught
    // halfway through the kit buttons' colour transitions (a flush creates them, finish ends them)
    void document.body.offsetWidth;
    for (const a of document.getAnimations()) {
      try {
        a.finish();
      } catch {
        // an endless animation (spinner, skeleton shimmer) cannot finish: its colours do not change
      }
    }
    const r = await w.axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  return violations.map((v) => `${what} ${v}`);
}
