/**
 * Precompresses the built web app: `<file>.br` (brotli, quality 11; 9 above 1 MB) and `<file>.gz`
 * (gzip, level 9) next to every compressible file of web/dist above 1 KB, for the gateway to serve as
 * they are (gateway/src/http/web.ts). Run by the web package's build script after `vite build`:
 *
 *   node --import tsx ../scripts/precompress-web.ts [distDir]     (default: web/dist)
 *
 * Only Node's zlib. Files are compressed in parallel on libuv's thread pool, largest first. Files
 * over 1 MB (the 3.6 MB Automerge wasm) get brotli 9: at 11 the wasm alone took 7.4 s of CPU
 * (793 KB; at 10 4.3 s, 827 KB; at 9 0.5 s, 909 KB) and this step 17-19 s on a busy 2-core
 * machine (now ~3 s). A sibling is written only when it is smaller than the original, and a .gz
 * only when its size differs from the .br's (the gateway's ETags are size + mtime: two encodings
 * of one file must never share one). Source maps are left alone (fetched only by devtools), and
 * so are dot-directories (.vite/manifest.json is not served).
 */
import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = new Set([
  '.js',
  '.mjs',
  '.css',
  '.wasm',
  // the PDF export's Unicode fonts (DejaVu, loaded only when a PDF needs them): about half on the wire
  '.ttf',
  '.svg',
  '.json',
  '.html',
  '.txt',
  '.xml',
  '.webmanifest',
]);
const MIN_BYTES = 1024;
const BROTLI_QUALITY = 11;
/** files above this get BROTLI_QUALITY_LARGE */
const LARGE_BYTES = 1024 * 1024;
const BROTLI_QUALITY_LARGE = 9;
const GZIP_LEVEL = 9;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

interface Result {
  file: string;
  size: number;
  br?: number;
  gz?: number;
}

async function precompress(file: string): Promise<Result> {
  const data = readFileSync(file);
  const text = extname(file) !== '.wasm' && extname(file) !== '.ttf';
  const [br, gzipped] = await Promise.all([
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: data.length > LARGE_BYTES ? BROTLI_QUALITY_LARGE : BROTLI_QUALITY,
        [constants.BROTLI_PARAM_MODE]: text ? constants.BROTLI_MODE_TEXT : constants.BROTLI_MODE_GENERIC,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
    gz(data, { level: GZIP_LEVEL }),
  ]);
  const result: Result = { file, size: data.length };
  const write = (suffix: string, bytes: Buffer | undefined): number | undefined => {
    if (bytes && bytes.length < data.length) {
      writeFileSync(file + suffix, bytes);
      return bytes.length;
    }
    try {
      unlinkSync(file + suffix); // a stale sibling from an earlier run must not be served
    } catch {
      // none
    }
    return undefined;
  };
  result.br = write('.br', br);
  result.gz = write('.gz', result.br === gzipped.length ? undefined : gzipped);
  return result;
}

const kb = (n: number): string => `${(n / 1024).toFixed(0)} KB`;

async function main(): Promise<void> {
  const dist = resolve(process.argv[2] ?? join(__dirname, '..', 'web', 'dist'));
  if (!statSync(dist, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`precompress: ${dist} is not a directory (build the web app first)`);
    process.exit(1);
  }
  const started = performance.now();
  const files = filesUnder(dist)
    .filter((f) => COMPRESSIBLE.has(extname(f)) && statSync(f).size > MIN_BYTES)
    .sort((a, b) => statSync(b).size - statSync(a).size);
  const results = await Promise.all(files.map(precompress));
  const seconds = (performance.now() - started) / 1000;
  const sum = (pick: (r: Result) => number | undefined): number => results.reduce((s, r) => s + (pick(r) ?? 0), 0);
  const where = relative(process.cwd(), dist);
  console.log(
    `precompress: ${results.length} files in ${where.startsWith('..') ? dist : where || '.'}, ${kb(sum((r) => r.size))} → ` +
      `br ${kb(sum((r) => r.br))}, gzip ${kb(sum((r) => r.gz))} (brotli ${BROTLI_QUALITY}, ${BROTLI_QUALITY_LARGE} over 1 MB; gzip ${GZIP_LEVEL}) in ${seconds.toFixed(1)} s`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
