/**
 * Conversion speed (issue 15 "Speed"): from the original stored in object storage to every page
 * image and thumbnail stored, as the worker does it (fetch the original to a scratch file,
 * convert, put each WebP in the store), with a warm LibreOffice.
 *
 *   node --import tsx services/converter/bench/convert.ts [--runs 5]
 *
 * Prints: cold start (office start, first document), a 20-slide PPTX (target ≤ 3 s), a 64-page
 * text PDF (≤ 10 s), the per-page cost of each, and the worker's peak RSS (the office is a child
 * process and not counted in it; its own RSS is printed apart).
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createLogger, FsObjectStore } from '@wb/platform';
import { docPageKey, originalKey } from '@wb/proto';
import type { FileFormat } from '@wb/proto';
import { Converter } from '../src/conversion';
import { makeDocx, makeFodp, makePdf, sofficeConvert } from '../test/fixtures';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Math.max(1, Number(values.runs));
const log = createLogger({ service: 'converter', level: 'warn' });

let peakRss = 0;
const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);

/** resident memory of a process group (the office and its bridge), MiB */
function groupRssMb(group: number | undefined): number {
  if (!group) return 0;
  const out = execFileSync('ps', ['-o', 'rss=', '-g', String(group)], { encoding: 'utf8' });
  return Math.round(out.split('\n').reduce((sum, line) => sum + (Number(line.trim()) || 0), 0) / 1024);
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'wb-converter-bench-'));
  const store = new FsObjectStore(join(dir, 'store'));
  let docNo = 0;

  /** store the original, then fetch + convert + store every image, as the worker does (ms) */
  async function uploadToThumbnails(converter: Converter, bytes: Buffer, format: FileFormat) {
    const docId = (++docNo).toString(16).padStart(64, '0');
    const started = performance.now();
    await store.put(originalKey(docId), bytes);
    const path = join(dir, `original-${docNo}`);
    const object = (await store.getStream(originalKey(docId)))!;
    await pipeline(object.stream, createWriteStream(path));
    const { pages } = await converter.convert(
      { path, format },
      async (name, data) => {
        const [index, size] = name.split('-') as [string, 'full' | 'thumb'];
        await store.put(docPageKey(docId, Number(index), size), data);
      },
      () => undefined,
    );
    return { ms: performance.now() - started, pages };
  }

  const pptx = sofficeConvert(makeFodp(20), 'fodp', 'pptx');
  const pdf = makePdf(64, 40);

  // cold start: a new converter, its office started on the first document
  const coldStarted = performance.now();
  const converter = new Converter({ workDir: join(dir, 'work'), log, office: { warm: false, restartEvery: 1000 } });
  const first = await uploadToThumbnails(converter, makeDocx(['first document']), 'docx');
  const coldMs = performance.now() - coldStarted;
  const warmDocx = (await uploadToThumbnails(converter, makeDocx(['second document']), 'docx')).ms;

  const pptxRuns: number[] = [];
  for (let i = 0; i < runs; i++) pptxRuns.push((await uploadToThumbnails(converter, pptx, 'pptx')).ms);
  const officeRss = groupRssMb(converter.office.processGroup);
  const pdfRuns: number[] = [];
  for (let i = 0; i < runs; i++) pdfRuns.push((await uploadToThumbnails(converter, pdf, 'pdf')).ms);

  clearInterval(rssTimer);
  const fmt = (ms: number) => `${Math.round(ms)} ms`;
  say(`cold start (office start + first 1-page DOCX): ${fmt(coldMs)} (conversion alone ${fmt(first.ms)})`);
  say(`warm 1-page DOCX: ${fmt(warmDocx)} (cold start cost ≈ ${fmt(coldMs - warmDocx)})`);
  say(
    `20-slide PPTX, upload to every thumbnail (warm): median ${fmt(median(pptxRuns))} of ${runs} [${pptxRuns.map(fmt).join(', ')}], ${fmt(median(pptxRuns) / 20)}/slide — target ≤ 3000 ms`,
  );
  say(
    `64-page text PDF: median ${fmt(median(pdfRuns))} of ${runs} [${pdfRuns.map(fmt).join(', ')}], ${fmt(median(pdfRuns) / 64)}/page — target ≤ 10000 ms`,
  );
  say(`worker peak RSS: ${Math.round(peakRss / 1024 / 1024)} MiB; office (bridge + soffice) RSS: ${officeRss} MiB`);

  await converter.close();
  await rm(dir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
