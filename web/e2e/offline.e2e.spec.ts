/// <reference types="jest" />
/// <reference types="node" />
/**
 * Strokes drawn offline and connections that only look alive (issue 25 §6; realtime SPEC K1–K4),
 * in Debian's Chromium against the real stack. Ada's whole page goes through a small TCP proxy on
 * loopback (below) in front of the gateway, which can *cut* every connection (reset, and refuse
 * new ones: a lost network; the browser's offline/online events are raised with it, as a real
 * network loss does) or *freeze* them (open, nothing forwarded: a half-open connection, which
 * page.setOffline alone cannot make). Bob is on the gateway directly and watches.
 */
import net from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { freePort } from '@wb/platform/testing';
import { e2eReady, signUpAsTeacher } from './chromium';
import { hook, live, startBoardStack, until, type BoardStack } from './boardStack';

const maybe = e2eReady ? describe : describe.skip;

/** TEST-ONLY: a loopback TCP proxy that can cut or freeze what passes through it */
class CutProxy {
  mode: 'up' | 'cut' | 'frozen' = 'up';
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  private readonly server: net.Server;

  constructor(
    readonly port: number,
    private readonly target: number,
  ) {
    this.server = net.createServer((client) => {
      if (this.mode === 'cut') {
        client.resetAndDestroy();
        return;
      }
      const upstream = net.connect(this.target, '127.0.0.1');
      const pair: [net.Socket, net.Socket] = [client, upstream];
      this.pairs.add(pair);
      const done = () => {
        this.pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('error', done).on('close', done);
      upstream.on('error', done).on('close', done);
      if (this.mode === 'frozen') {
        client.pause();
        upstream.pause();
        return;
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }

  listen(): Promise<void> {
    return new Promise((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
  }

  /** the network is gone: every connection reset, new ones refused */
  cut(): void {
    this.mode = 'cut';
    for (const [a, b] of this.pairs) {
      a.resetAndDestroy();
      b.destroy();
    }
    this.pairs.clear();
  }

  /** every open connection stays open but nothing passes either way (no FIN, no RST) */
  freeze(): void {
    this.mode = 'frozen';
    for (const [a, b] of this.pairs) {
      a.unpipe(b);
      b.unpipe(a);
      a.pause();
      b.pause();
    }
  }

  /** back: new connections pass (frozen ones are dead by now and dropped, as after a real outage) */
  restore(): void {
    const wasFrozen = this.mode === 'frozen';
    this.mode = 'up';
    if (wasFrozen) this.cut();
    this.mode = 'up';
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function draw(page: Page, y: number): Promise<void> {
  await page.mouse.move(300, y);
  await page.mouse.down();
  for (let x = 300; x <= 420; x += 30) await page.mouse.move(x, y + (x % 60 === 0 ? 3 : 0), { steps: 2 });
  await page.mouse.up();
}

const ids = (page: Page) =>
  hook(page, (h) =>
    h
      .shapes()
      .map((s) => s.id)
      .sort(),
  );
const chip = (page: Page) => page.getByRole('status', { name: 'Save state' });

maybe('offline strokes and dead connections (SPEC K1–K4)', () => {
  let stack: BoardStack;
  let proxy: CutProxy;
  let gatewayPort: number;
  beforeAll(async () => {
    const proxyPort = await freePort();
    stack = await startBoardStack({ extraOrigins: [`http://127.0.0.1:${proxyPort}`] });
    gatewayPort = Number(new URL(stack.base).port);
    proxy = new CutProxy(proxyPort, gatewayPort);
    await proxy.listen();
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await stack?.stop();
  });

  test('strokes drawn while cut off, and while cut off with the tab closed, all arrive once; reconnect ≤ 1 s; a frozen peer leaves presence', async () => {
    const viaProxy = `http://127.0.0.1:${proxy.port}`;
    const a = await stack.newPage();
    const ctx: BrowserContext = a.context();
    await signUpAsTeacher(a, viaProxy, 'Ada');
    await a.getByRole('button', { name: 'New board' }).click();
    const dialog = a.getByRole('dialog', { name: 'New board' });
    await dialog.getByLabel('Board name').fill('Offline lesson');
    await dialog.getByRole('button', { name: 'Create board' }).click();
    await a.waitForURL(/\/boards\/[A-Za-z0-9_-]{21}$/);
    const boardId = new URL(a.url()).pathname.split('/').pop()!;
    await live(a);
    const bob = await stack.newUser('Bob');
    const b = bob.page;
    await b.goto(`${stack.base}/boards/${boardId}`);
    await live(b);
    await until(b, 'Ada present', (h) => h.state().presence.length === 2);
    await a.getByRole('button', { name: 'Pen', exact: true }).click();
    await draw(a, 200);
    await until(b, 'the first stroke', (h) => h.shapes().length === 1);

    // 1. cut off: two strokes drawn; the chip says offline; back: reconnect ≤ 1 s, both arrive once
    proxy.cut();
    await ctx.setOffline(true);
    await until(a, 'Ada cut off', (h) => h.state().status !== 'live');
    await draw(a, 260);
    await draw(a, 320);
    expect(await hook(a, (h) => h.state().pending)).toBe(2);
    await expect(chip(a).textContent()).resolves.toMatch(/Offline/);
    const cutIds = await ids(a);
    expect(cutIds).toHaveLength(3);
    await a.waitForTimeout(3000); // several backoff steps: the next one would be seconds away
    proxy.restore();
    const back = Date.now();
    await ctx.setOffline(false);
    await until(a, 'Ada live again', (h) => h.state().status === 'live', undefined, 5000);
    const reconnectMs = Date.now() - back;
    process.stdout.write(`reconnect after the network returned: ${reconnectMs} ms\n`);
    expect(reconnectMs).toBeLessThanOrEqual(1000);
    await until(b, 'the strokes drawn cut off', (h) => h.shapes().length === 3);
    expect(await ids(b)).toEqual(cutIds); // same ids, nothing doubled
    await until(a, 'saved', (h) => h.state().saveState === 'saved');

    // 2. cut off, two strokes, the tab closed (it asks first); reopened later: they arrive once
    proxy.cut();
    await ctx.setOffline(true);
    await until(a, 'Ada cut off', (h) => h.state().status !== 'live');
    await draw(a, 380);
    await draw(a, 440);
    const closedIds = await ids(a);
    expect(closedIds).toHaveLength(5);
    let asked = '';
    a.once('dialog', (d) => {
      asked = d.type();
      void d.accept();
    });
    const a2 = await ctx.newPage(); // blank, keeps Ada's browser context (IndexedDB, cookies) open
    a2.setDefaultTimeout(20_000);
    await a.close({ runBeforeUnload: true });
    await until(b, 'nothing yet', (h) => h.shapes().length === 3);
    expect(asked).toBe('beforeunload');
    proxy.restore();
    await ctx.setOffline(false);
    await a2.goto(`${viaProxy}/boards/${boardId}`);
    await live(a2);
    await until(b, 'the strokes of the closed tab', (h) => h.shapes().length === 5);
    expect(await ids(b)).toEqual(closedIds);
    await until(a2, 'Ada sees them saved', (h) => h.shapes().length === 5 && h.state().saveState === 'saved');
    expect(await ids(a2)).toEqual(closedIds);

    // 3. frozen (half-open): Bob's presence drops Ada within ~10 s; Ada's chip says offline
    await until(b, 'Ada present again', (h) => h.state().presence.length === 2);
    await a2.getByRole('button', { name: 'Pen', exact: true }).click();
    proxy.freeze();
    const frozenAt = Date.now();
    await draw(a2, 500);
    await until(b, 'Ada dropped from presence', (h) => h.state().presence.length === 1, undefined, 15_000);
    const droppedMs = Date.now() - frozenAt;
    await until(a2, 'Ada’s chip offline', (h) => h.state().saveState === 'offline', undefined, 15_000);
    const offlineMs = Date.now() - frozenAt;
    await expect(chip(a2).textContent()).resolves.toMatch(/Offline/);
    process.stdout.write(
      `frozen: dropped from presence after ${droppedMs} ms, own chip offline after ${offlineMs} ms\n`,
    );
    expect(droppedMs).toBeLessThanOrEqual(10_000);
    expect(offlineMs).toBeLessThanOrEqual(10_000);
    proxy.restore();
    await until(a2, 'Ada live again', (h) => h.state().status === 'live', undefined, 15_000);
    await until(b, 'the stroke drawn frozen', (h) => h.shapes().length === 6);
    expect(await ids(b)).toEqual(await ids(a2));
  }, 180_000);
});
