/// <reference types="jest" />
/// <reference types="node" />
/**
 * Audio/video calls end to end (issue 16): two Debian Chromium instances with fake camera and
 * microphone join the call of one board through the real gateway (`/janus` proxy), calls service
 * and Janus, and each decodes the other's 640×360 video. Janus runs in a network namespace of its
 * own (services/calls' `startJanus({ netns: true })`): it never offers loopback candidates, so the
 * browsers reach the gateway on 127.0.0.1 and Janus's media on the veth address. Then: Bob's mute
 * shows on Ada's tile, Ada's "mute everyone" mutes Bob, Bob leaves (state "left"), and a
 * starter-plan board's call button is the upgrade prompt. Ada's plan is written to auth.users
 * before the board is opened (TEST-ONLY SETUP, as the lesson e2e does).
 * Screenshots: call panel desktop, and 390 px in the dark theme.
 * Skipped (with a message) unless root with `ip` and the `janus` binary, like e2eReady.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort, givePlan, startStack, type RunningStack } from '@wb/platform/testing';
import { startJanus, type StartedJanus } from '@wb/calls/dist/testing/janus';
import { DIST, e2eReady, SHOTS, signUpAsTeacher } from './chromium';
import { live } from './boardStack';

const root = typeof process.getuid === 'function' && process.getuid() === 0;
const haveIp = existsSync('/usr/sbin/ip') || existsSync('/sbin/ip') || existsSync('/usr/bin/ip');
const haveJanus = existsSync('/usr/bin/janus');
const callReady = e2eReady && root && haveIp && haveJanus;
if (!callReady)
  process.stdout.write(
    `call e2e skipped: needs the built app and Chromium (${e2eReady}), root (${root}), ip (${haveIp}) and /usr/bin/janus (${haveJanus})\n`,
  );
const maybe = callReady ? describe : describe.skip;

const SECRET = 'call-e2e-shared-secret-0123456789abcdef';
const NODE_A = 'services/realtime';
const NODE_B = './services/realtime';
// chromium.ts's flags plus fake media devices; mDNS host candidates off, so Janus sees real addresses
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
  '--autoplay-policy=no-user-gesture-required',
];

async function newPage(browser: Browser, viewport = { width: 1200, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', viewport, permissions: ['camera', 'microphone'] });
  await context.addInitScript(() => localStorage.setItem('wb.consent', '{"necessary":true}'));
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (err) => process.stderr.write(`page error: ${err.message}\n`));
  page.on('response', (r) => {
    if (r.status() >= 500) process.stderr.write(`${r.status()} ${r.request().method()} ${r.url()}\n`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') process.stderr.write(`console: ${m.text()}\n`);
  });
  return page;
}

/** the remote tile's video as decoded: size, frames so far, playback time */
async function tileVideo(page: Page, name: string) {
  return page.evaluate((who) => {
    const tile = [...document.querySelectorAll<HTMLElement>('.call-tile[data-feed]')].find((t) =>
      (t.getAttribute('aria-label') ?? '').startsWith(who),
    );
    const v = tile?.querySelector('video');
    if (!v) return null;
    return {
      width: v.videoWidth,
      height: v.videoHeight,
      frames: v.getVideoPlaybackQuality().totalVideoFrames,
      time: v.currentTime,
    };
  }, name);
}

/** wait until the named remote tile shows decoded frames; returns ms from `since` */
async function firstFrame(page: Page, name: string, since: number, ms = 40_000): Promise<number> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await tileVideo(page, name);
    if (v && v.width > 0 && v.frames > 0) return Date.now() - since;
    if (Date.now() > end) {
      const view = await page.evaluate(() => {
        const c = window.__wbCall?.view();
        return c && { status: c.status, error: c.error, feeds: c.feeds, remote: [...c.remote.keys()] };
      });
      throw new Error(`no decoded video of ${name}: tile ${JSON.stringify(v)}, call ${JSON.stringify(view)}`);
    }
    await page.waitForTimeout(100);
  }
}

async function newBoard(page: Page, title: string): Promise<string> {
  await page.getByRole('button', { name: 'New board' }).click();
  const dialog = page.getByRole('dialog', { name: 'New board' });
  await dialog.getByLabel('Board name').fill(title);
  await dialog.getByRole('button', { name: 'Create board' }).click();
  await page.waitForURL(/\/boards\/[A-Za-z0-9_-]{21}$/);
  await live(page);
  return new URL(page.url()).pathname.split('/').pop()!;
}

const tile = (page: Page, name: string) => page.locator(`.call-tile[data-feed][aria-label^="${name}"]`);

maybe('calls end to end (two Chromiums, Janus in a network namespace)', () => {
  let janus: StartedJanus;
  let stack: RunningStack;
  let db: Pool;
  let base: string;
  let browserA: Browser;
  let browserB: Browser;
  let snapshots: string;

  beforeAll(async () => {
    janus = await startJanus({ netns: true });
    snapshots = mkdtempSync(join(tmpdir(), 'wb-call-e2e-'));
    const httpPort = await freePort();
    base = `http://127.0.0.1:${httpPort}`;
    const node = async (id: string) => ({
      RT_SHARED_SECRET: SECRET,
      SNAPSHOT_DIR: snapshots,
      RT_NODE_ID: id,
      RT_PORT: String(await freePort()),
      RT_ALLOWED_ORIGINS: base,
    });
    const janusEnv = {
      JANUS_WS_URL: janus.wsUrl,
      JANUS_API_SECRET: janus.secrets.apiSecret,
      JANUS_TOKEN_SECRET: janus.secrets.tokenSecret,
      JANUS_ADMIN_SECRET: janus.secrets.adminSecret,
    };
    stack = await startStack({
      deployables: ['services/auth', 'services/boards', 'services/calls', NODE_A, NODE_B, 'gateway'],
      env: { RT_SHARED_SECRET: SECRET },
      envFor: {
        gateway: {
          WEB_DIST_DIR: DIST,
          HTTP_PORT: String(httpPort),
          JANUS_WS_URL: janus.wsUrl,
          // /janus takes the board socket's Origin rule: the browser's Origin is the gateway's
          RT_ALLOWED_ORIGINS: base,
        },
        'services/boards': { PLAN_CACHE_TTL_MS: '0' },
        'services/calls': { ...janusEnv, PLAN_CACHE_TTL_MS: '0' },
        [NODE_A]: await node('rt-1'),
        [NODE_B]: await node('rt-2'),
      },
    });
    db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
    // two Chromium instances: each encodes its own camera and decodes the other's
    browserA = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
    browserB = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  }, 180_000);

  afterAll(async () => {
    await browserA?.close();
    await browserB?.close();
    await db?.end();
    await stack?.stop();
    await janus?.stop();
    if (snapshots) rmSync(snapshots, { recursive: true, force: true });
  });

  test('both decode each other’s video; mute shows; mute everyone; leave', async () => {
    const a = await newPage(browserA);
    const adaId = await signUpAsTeacher(a, base, 'Ada');
    await givePlan(stack, adaId, 'standard');
    await a.reload(); // the page's session reads the new plan
    const boardId = await newBoard(a, 'Call board');
    const b = await newPage(browserB);
    await signUpAsTeacher(b, base, 'Bob');
    await b.goto(`${base}/boards/${boardId}`);
    await live(b);

    // both open the call panel and join with camera and microphone
    for (const p of [a, b]) {
      const button = p.locator('[data-action="call"]');
      await button.waitFor();
      expect(await button.getAttribute('data-upgrade')).toBeNull();
      await button.click();
      await p.locator('.call-panel[data-call-status="idle"]').waitFor();
    }
    const t0 = Date.now();
    await a.locator('[data-action="call-join"]').click();
    await b.locator('[data-action="call-join"]').click();
    await a.locator('.call-panel[data-call-status="in-call"]').waitFor({ timeout: 30_000 });
    await b.locator('.call-panel[data-call-status="in-call"]').waitFor({ timeout: 30_000 });
    expect(await a.evaluate(() => window.__wbCall?.view().role)).toBe('host');
    expect(await b.evaluate(() => window.__wbCall?.view().role)).toBe('member');

    // each decodes the other's frames: 640×360, and the frame count and playback time advance
    const [adaSeesBob, bobSeesAda] = await Promise.all([firstFrame(a, 'Bob', t0), firstFrame(b, 'Ada', t0)]);
    const before = { a: (await tileVideo(a, 'Bob'))!, b: (await tileVideo(b, 'Ada'))! };
    await a.waitForTimeout(2000);
    const after = { a: (await tileVideo(a, 'Bob'))!, b: (await tileVideo(b, 'Ada'))! };
    process.stdout.write(
      `call e2e: first decoded remote frame after join click: Ada sees Bob ${adaSeesBob} ms, Bob sees Ada ${bobSeesAda} ms; ` +
        `over 2 s: Ada decoded ${after.a.frames - before.a.frames} frames of Bob (${after.a.width}×${after.a.height}), ` +
        `Bob ${after.b.frames - before.b.frames} of Ada (${after.b.width}×${after.b.height})\n`,
    );
    for (const [x, y] of [
      [before.a, after.a],
      [before.b, after.b],
    ] as const) {
      expect([y.width, y.height]).toEqual([640, 360]);
      expect(y.frames).toBeGreaterThan(x.frames);
      expect(y.time).toBeGreaterThan(x.time);
    }
    await a.locator('.call-tile[data-self] video').waitFor({ state: 'attached' });
    await a.screenshot({ path: join(SHOTS, 'call-desktop.png') });

    // Bob mutes himself: Ada's tile of Bob shows it; unmuting shows again
    await expect(tile(a, 'Bob').getAttribute('data-muted')).resolves.toBe('false');
    await b.locator('[data-action="call-mic"]').click();
    await tile(a, 'Bob').and(a.locator('[data-muted="true"]')).waitFor();
    await b.locator('[data-action="call-mic"]').click();
    await tile(a, 'Bob').and(a.locator('[data-muted="false"]')).waitFor();
    // camera off shows on the other side too
    await b.locator('[data-action="call-camera"]').click();
    await tile(a, 'Bob').and(a.locator('[data-camera-off="true"]')).waitFor();
    await b.locator('[data-action="call-camera"]').click();
    await tile(a, 'Bob').and(a.locator('[data-camera-off="false"]')).waitFor();

    // the host mutes everyone: Bob is muted on Ada's side and told so on his own
    expect(await b.locator('[data-action="call-mute-all"]').count()).toBe(0);
    await a.locator('[data-action="call-mute-all"]').click();
    await tile(a, 'Bob').and(a.locator('[data-muted="true"]')).waitFor();
    await b.locator('[data-muted-by-host="true"]').waitFor();
    await a.locator('[data-action="call-mute-all"][aria-pressed="true"]').waitFor();
    // and lifts it
    await a.locator('[data-action="call-mute-all"]').click();
    await tile(a, 'Bob').and(a.locator('[data-muted="false"]')).waitFor();

    // the host shares her screen: a second publisher, pinned first on Bob's side, decoded there
    await a.locator('[data-action="call-screen"]').click();
    await a.locator('[data-action="call-screen"][aria-pressed="true"]').waitFor();
    const screen = b.locator('.call-tile[data-kind="screen"]');
    await screen.waitFor();
    expect(await screen.getAttribute('aria-label')).toMatch(/^Ada’s screen/);
    await b.waitForFunction(
      () => {
        const v = document.querySelector<HTMLVideoElement>('.call-tile[data-kind="screen"] video');
        return !!v && v.videoWidth > 0 && v.getVideoPlaybackQuality().totalVideoFrames > 2;
      },
      undefined,
      { timeout: 30_000 },
    );
    await b.screenshot({ path: join(SHOTS, 'call-screen-share.png') });
    await a.locator('[data-action="call-screen"]').click();
    await screen.waitFor({ state: 'detached' });

    // Bob on a 390 px phone in the dark theme, still in the call
    await b.setViewportSize({ width: 390, height: 844 });
    await b.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await b.waitForTimeout(500);
    const strip = (await b.locator('.call-panel').boundingBox())!;
    expect(strip.x).toBeGreaterThanOrEqual(0);
    expect(strip.x + strip.width).toBeLessThanOrEqual(390.5);
    await b.screenshot({ path: join(SHOTS, 'call-390-dark.png') });
    await a.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await a.waitForTimeout(300);
    await a.screenshot({ path: join(SHOTS, 'call-desktop-dark.png') });

    // Bob leaves: his state is "left" and his tile goes from Ada's panel
    await b.locator('[data-action="call-leave"]').click();
    await b.locator('.call-panel[data-call-status="left"]').waitFor();
    expect(await b.locator('[data-action="call"]').getAttribute('data-call-status')).toBe('left');
    await tile(a, 'Bob').waitFor({ state: 'detached' });
    await a.locator('[data-action="call-leave"]').click();
    await a.locator('.call-panel[data-call-status="left"]').waitFor();
  }, 240_000);

  test('a starter-plan board shows the upgrade prompt instead of a call', async () => {
    const p = await newPage(browserA);
    await signUpAsTeacher(p, base, 'Cleo');
    await newBoard(p, 'Starter call');
    const button = p.locator('[data-action="call"]');
    expect(await button.getAttribute('data-upgrade')).toBe('true');
    await button.click();
    const dialog = p.getByRole('dialog', { name: 'Calls need a paid plan' });
    await dialog.waitFor();
    await dialog.locator('.upgrade-prompt').waitFor();
    expect(await p.locator('.call-panel').count()).toBe(0);
    // the API refuses too, with the plan code the upgrade prompts use
    const status = await p.evaluate(async (id) => {
      const csrf = /(?:^|; )csrf-token=([^;]+)/.exec(document.cookie)?.[1] ?? '';
      const res = await fetch(`/api/boards/${id}/call/join`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-csrf-token': decodeURIComponent(csrf),
        },
        body: '{}',
      });
      return { status: res.status, code: ((await res.json()) as { code?: string }).code };
    }, new URL(p.url()).pathname.split('/').pop()!);
    expect(status).toEqual({ status: 403, code: 'ERR_FEATURE_NOT_ENABLED' });
  }, 90_000);
});
