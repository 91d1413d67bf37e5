/// <reference lib="dom" />
/**
 * The undo target's anchor (editor-perf.ts): what Automerge alone costs for the writes an undo of
 * the bench's nudge makes, in the same Chromium, on the same 20,000-object document, with nothing
 * of ours around it. A bare page (its own loopback server) loads Automerge's `/slim` build and
 * wasm from node_modules and the board's saved bytes, then moves `shapes` random shapes' x in
 * changes of at most RT_LIMITS.maxChangeOverwrites (as the editor splits a big step, SPEC L4),
 * `rounds` times; the first round (wasm tier-up) is reported apart.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { RT_LIMITS } from '@wb/proto';
import { ROOT } from '../lib/paths';

const AUTOMERGE_DIST = join(ROOT, 'node_modules', '@automerge', 'automerge', 'dist');

export interface AutomergeFloor {
  shapes: number;
  changes: number;
  /** per round: the changes' A.change calls, ms */
  firstMs: number;
  roundsMs: number[];
}

/**
 * The page: a module script (plain JS, so no bundler rewrites its dynamic import) defining
 * `moveShapes({shapes, perChange, rounds})` → ms per round.
 */
const PAGE = `<!doctype html><title>automerge floor</title><script type="module">
import * as A from '/am/mjs/entrypoints/slim.js';
window.moveShapes = async ({ shapes, perChange, rounds }) => {
  await A.initializeWasm(fetch('/am/automerge.wasm'));
  let doc = A.load(new Uint8Array(await (await fetch('/doc')).arrayBuffer()));
  const all = [];
  for (const b of Object.keys(doc.shapes)) for (const id of Object.keys(doc.shapes[b])) all.push([b, id]);
  let seed = 13;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const picked = Array.from({ length: shapes }, () => all[Math.floor(rnd() * all.length)]);
  const out = [];
  for (let round = 0; round < rounds; round++) {
    const t0 = performance.now();
    for (let at = 0; at < picked.length; at += perChange)
      doc = A.change(doc, (d) => {
        for (const [b, id] of picked.slice(at, at + perChange)) d.shapes[b][id].x += 1;
      });
    out.push(performance.now() - t0);
  }
  return out;
};
</script>`;

export async function measureAutomergeFloor(
  browser: Browser,
  docBytes: Uint8Array,
  shapes: number,
  rounds = 8,
): Promise<AutomergeFloor> {
  const files = (path: string): Buffer | string | Uint8Array | null => {
    if (path === '/') return PAGE;
    if (path === '/doc') return docBytes;
    if (!path.startsWith('/am/') || path.includes('..')) return null;
    try {
      return readFileSync(join(AUTOMERGE_DIST, path.slice('/am/'.length)));
    } catch {
      return null;
    }
  };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const body = files(path);
    if (body === null) res.statusCode = 404;
    const type = path === '/' ? 'text/html' : path.endsWith('.wasm') ? 'application/wasm' : 'text/javascript';
    res.setHeader('content-type', type);
    res.end(body ?? '');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const perChange = RT_LIMITS.maxChangeOverwrites;
    await page.waitForFunction(() => 'moveShapes' in window);
    const ms = await page.evaluate(
      (args) => (window as unknown as { moveShapes(a: typeof args): Promise<number[]> }).moveShapes(args),
      { shapes, perChange, rounds },
    );
    return { shapes, changes: Math.ceil(shapes / perChange), firstMs: ms[0]!, roundsMs: ms.slice(1) };
  } finally {
    await context.close();
    await new Promise((r) => server.close(r));
  }
}
