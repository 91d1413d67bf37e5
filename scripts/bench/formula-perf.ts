/// <reference lib="dom" />
/**
 * Formula typesetting speed and MathJax's weight (issue 14: a formula renders, type → preview, in
 * ≤ 50 ms once MathJax is loaded; MathJax's first load is reported in KB gzip and ms).
 *
 *  - Node, the app's own code (web/src/features/board/formula/mathjax.ts): the first
 *    renderFormula's dynamic import of the engine (load + set-up) and its first typeset; then ~20
 *    school formulas typed character by character, every distinct prefix rendered once (as the
 *    panel's live preview does; invalid prefixes are part of typing), median / p95 / max ms;
 *  - the engine chunk (mathjaxEngine.ts) bundled and minified by esbuild, raw and gzip -9 bytes
 *    (the same code Vite puts in its lazy chunk; web/dist/assets is read too when a build is
 *    there);
 *  - Debian's Chromium (/usr/bin/chromium, when present): that bundle evaluated in a page and its
 *    first typeset, ms (no network: add the transfer of the gzip bytes on a real connection).
 *
 * Targets are printed beside the figures, never enforced. Writes artifacts/bench/formula-perf.json.
 * Run: node --import tsx scripts/bench/formula-perf.ts
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { writeBenchResult } from '../lib/bench';
import { ROOT } from '../lib/paths';

const FORMULA_DIR = resolve(ROOT, 'web/src/features/board/formula');
const ENGINE = join(FORMULA_DIR, 'mathjaxEngine.ts');

/** what the bench uses of the app's mathjax.ts (loaded by path: web is an ES module project with its own tsconfig) */
interface AppMathJax {
  isMathJaxLoaded: () => boolean;
  loadMathJax: () => Promise<unknown>;
  renderFormula: (
    latex: string,
    opts: { fontSize: number; color: string; alignment: string },
  ) => Promise<{ svg: string; width: number; height: number; error?: string }>;
}
const TARGET_RENDER_MS = 50;

/** what a teacher types in a school year */
const FORMULAS = [
  'x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}',
  'a^2 + b^2 = c^2',
  '\\int_0^1 x^2 \\, dx = \\frac{1}{3}',
  '\\lim_{x \\to 0} \\frac{\\sin x}{x} = 1',
  '\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}',
  '\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix} \\begin{pmatrix} x \\\\ y \\end{pmatrix}',
  '\\vec{a} \\cdot \\vec{b} = |\\vec{a}| \\, |\\vec{b}| \\cos\\theta',
  '\\overrightarrow{AB} + \\overrightarrow{BC} = \\overrightarrow{AC}',
  '\\sqrt[3]{27} = 3',
  "f'(x) = \\lim_{h \\to 0} \\frac{f(x+h) - f(x)}{h}",
  '\\begin{cases} x + y = 3 \\\\ x - y = 1 \\end{cases}',
  'e^{i\\pi} + 1 = 0',
  '\\log_a (xy) = \\log_a x + \\log_a y',
  '\\sin^2 \\alpha + \\cos^2 \\alpha = 1',
  'P(A \\cap B) = P(A) \\, P(B \\mid A)',
  '\\Delta = b^2 - 4ac',
  'v = \\frac{\\Delta s}{\\Delta t}',
  'F = G \\frac{m_1 m_2}{r^2}',
  '\\binom{n}{k} = \\frac{n!}{k!(n-k)!}',
  '\\det \\begin{vmatrix} a & b \\\\ c & d \\end{vmatrix} = ad - bc',
];

const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;
function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function measureNode() {
  const { isMathJaxLoaded, loadMathJax, renderFormula } = (await import(
    pathToFileURL(join(FORMULA_DIR, 'mathjax.ts')).href
  )) as AppMathJax;
  const opts = { fontSize: 20, color: '#000000', alignment: 'equation' };
  const t0 = performance.now();
  await loadMathJax();
  const loadMs = performance.now() - t0;
  const t1 = performance.now();
  const first = await renderFormula('x', opts);
  const firstRenderMs = performance.now() - t1;
  if (!isMathJaxLoaded() || first.error) throw new Error(`MathJax did not typeset "x": ${first.error}`);

  const prefixes = new Set<string>();
  for (const f of FORMULAS) for (let i = 1; i <= f.length; i++) prefixes.add(f.slice(0, i));
  const times: number[] = [];
  // prefixes that typeset (an unclosed brace fails fast, so those alone would flatter the median)
  const typeset: number[] = [];
  let errors = 0;
  let slowest = { ms: 0, latex: '' };
  for (const latex of prefixes) {
    const t = performance.now();
    const r = await renderFormula(latex, opts);
    const ms = performance.now() - t;
    times.push(ms);
    if (r.error) errors++;
    else typeset.push(ms);
    if (ms > slowest.ms) slowest = { ms, latex };
  }
  times.sort((a, b) => a - b);
  typeset.sort((a, b) => a - b);
  return {
    loadMs: round(loadMs),
    firstRenderMs: round(firstRenderMs),
    renders: times.length,
    rendersWithTexError: errors,
    renderMedianMs: round(times[Math.floor(times.length / 2)]!, 2),
    renderP95Ms: round(quantile(times, 0.95), 2),
    renderMaxMs: round(times.at(-1)!, 2),
    typesetMedianMs: round(typeset[Math.floor(typeset.length / 2)]!, 2),
    typesetP95Ms: round(quantile(typeset, 0.95), 2),
    slowestPrefix: slowest.latex,
  };
}

async function engineBundle(): Promise<{ code: string; rawBytes: number; gzipBytes: number }> {
  const out = await build({
    entryPoints: [ENGINE],
    bundle: true,
    minify: true,
    format: 'iife',
    globalName: 'MathJaxEngine',
    write: false,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.text;
  return { code, rawBytes: Buffer.byteLength(code), gzipBytes: gzipSync(code, { level: 9 }).length };
}

/** the built app's MathJax chunk, if web/dist is there */
function distChunk(): { file: string; rawBytes: number; gzipBytes: number } | null {
  const dir = join(ROOT, 'web', 'dist', 'assets');
  if (!existsSync(dir)) return null;
  const file = readdirSync(dir).find((f) => /^mathjaxEngine.*\.js$/.test(f));
  if (!file) return null;
  const bytes = readFileSync(join(dir, file));
  return { file, rawBytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
}

async function measureChromium(code: string): Promise<{ evalMs: number; firstRenderMs: number } | null> {
  if (!existsSync('/usr/bin/chromium')) return null;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><title>formula-perf</title>');
    return await page.evaluate(async (src) => {
      const url = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
      const t0 = performance.now();
      await new Promise<void>((ok, fail) => {
        const s = document.createElement('script');
        s.src = url;
        s.onload = () => ok();
        s.onerror = () => fail(new Error('the bundle did not load'));
        document.head.append(s);
      });
      const evalMs = performance.now() - t0;
      const t1 = performance.now();
      const engine = (window as unknown as { MathJaxEngine: { texToSvg(l: string): string } }).MathJaxEngine;
      engine.texToSvg('x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}');
      return { evalMs: Math.round(evalMs), firstRenderMs: Math.round(performance.now() - t1) };
    }, code);
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const node = await measureNode();
  const bundle = await engineBundle();
  const dist = distChunk();
  const browser = await measureChromium(bundle.code);
  const kb = (b: number) => round(b / 1024);
  console.log(
    'MathJax engine chunk (esbuild, minified):',
    `${kb(bundle.rawBytes)} KB raw, ${kb(bundle.gzipBytes)} KB gzip -9`,
  );
  if (dist) console.log(`web/dist ${dist.file}:`, `${kb(dist.rawBytes)} KB raw, ${kb(dist.gzipBytes)} KB gzip -9`);
  console.log(`Node: first load ${node.loadMs} ms, first typeset ${node.firstRenderMs} ms`);
  if (browser) console.log(`Chromium: evaluate ${browser.evalMs} ms, first typeset ${browser.firstRenderMs} ms`);
  console.log(
    `type → preview over ${node.renders} prefixes of ${FORMULAS.length} formulas (${node.rendersWithTexError} with TeX errors):`,
    `median ${node.renderMedianMs} ms, p95 ${node.renderP95Ms} ms, max ${node.renderMaxMs} ms`,
    `(target ≤ ${TARGET_RENDER_MS} ms); those that typeset: median ${node.typesetMedianMs} ms, p95 ${node.typesetP95Ms} ms`,
  );
  const out = writeBenchResult('formula-perf', {
    targetRenderMs: TARGET_RENDER_MS,
    node,
    chromium: browser,
    engineChunk: { rawBytes: bundle.rawBytes, gzipBytes: bundle.gzipBytes },
    distChunk: dist,
  });
  console.log(`written ${out}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
