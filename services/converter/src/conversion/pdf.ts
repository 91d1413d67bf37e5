/**
 * PDF → one WebP per page plus a 320 px thumbnail. pdfinfo gives the page count and sizes first
 * (a page bomb is refused before anything is drawn, and pdftoppm has no pixel cap of its own, so
 * the resolution is bounded from the page size); pdftoppm draws batches of pages to raw PPM
 * files (PNG output would spend most of its time in deflate); sharp, which cannot read PPM, gets
 * the raw RGB.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { ConversionError, MESSAGES } from './errors';
import type { Sandbox } from './sandbox';
import { runTool, ToolError } from './tools';
import type { ToolLimits } from './tools';

export interface PdfOptions {
  maxPages: number;
  thumbWidth: number;
  /** largest page raster (pixels); pages drawn at 150 DPI unless that exceeds it */
  maxPagePixels: number;
  dpi: number;
  toolTimeoutMs: number;
  toolMaxMemoryMb: number;
  webpQuality: number;
  /** pixels of all pages together at the DPI they would be drawn at; more is refused before drawing */
  maxTotalPixels: number;
  /** the job's deadline (aborting kills the tool running) */
  signal?: AbortSignal;
  /** the sandbox the tools run in; the PDF and the output folder are the job's folder */
  sandbox?: Sandbox;
}

function toolLimits(opts: PdfOptions, dir: string): ToolLimits {
  return {
    timeoutMs: opts.toolTimeoutMs,
    maxMemoryMb: opts.toolMaxMemoryMb,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.sandbox ? { sandbox: { box: opts.sandbox, view: { rw: [dir] } } } : {}),
  };
}

export interface PdfInfo {
  pages: number;
  /** points (1/72 inch), as displayed (rotation applied) */
  sizes: { width: number; height: number }[];
}

export async function pdfInfo(path: string, opts: PdfOptions): Promise<PdfInfo> {
  const limits = toolLimits(opts, dirname(path));
  let text: string;
  try {
    text = (await runTool('pdfinfo', [path], limits)).stdout.toString('utf8');
  } catch (err) {
    throw toolFailure(err);
  }
  const pages = Number(/^Pages:\s+(\d+)/m.exec(text)?.[1] ?? NaN);
  if (!Number.isFinite(pages)) throw new ConversionError(MESSAGES.damaged, 'pdfinfo printed no page count');
  if (pages === 0) throw new ConversionError(MESSAGES.noPages);
  if (pages > opts.maxPages) throw new ConversionError(MESSAGES.tooManyPages(opts.maxPages));
  let sizesText: string;
  try {
    sizesText = (await runTool('pdfinfo', ['-f', '1', '-l', String(pages), path], limits)).stdout.toString('utf8');
  } catch (err) {
    throw toolFailure(err);
  }
  const sizes: PdfInfo['sizes'] = [];
  for (let page = 1; page <= pages; page++) {
    const size = new RegExp(`^Page\\s+${page} size:\\s+([\\d.]+) x ([\\d.]+)`, 'm').exec(sizesText);
    const rot = Number(new RegExp(`^Page\\s+${page} rot:\\s+(\\d+)`, 'm').exec(sizesText)?.[1] ?? 0);
    const w = Number(size?.[1] ?? 612);
    const h = Number(size?.[2] ?? 792);
    sizes.push(rot % 180 === 90 ? { width: h, height: w } : { width: w, height: h });
  }
  return { pages, sizes };
}

/** DPI that keeps the page within `maxPagePixels` (never above `dpi`). */
export function pageDpi(
  size: { width: number; height: number },
  opts: Pick<PdfOptions, 'dpi' | 'maxPagePixels'>,
): number {
  const squareInches = Math.max(1e-6, (size.width / 72) * (size.height / 72));
  const bound = Math.sqrt(opts.maxPagePixels / squareInches);
  return Math.max(1, Math.min(opts.dpi, Math.floor(bound * 100) / 100));
}

export interface Raster {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel */
  data: Buffer;
}

/** Binary PPM (P6, maxval 255), as pdftoppm writes it. */
export function parsePpm(buf: Buffer): Raster {
  let pos = 0;
  const token = (): string => {
    for (;;) {
      while (pos < buf.length && /\s/.test(String.fromCharCode(buf[pos]!))) pos++;
      if (buf[pos] === 0x23) {
        while (pos < buf.length && buf[pos] !== 0x0a) pos++;
        continue;
      }
      break;
    }
    const start = pos;
    while (pos < buf.length && !/\s/.test(String.fromCharCode(buf[pos]!))) pos++;
    return buf.toString('latin1', start, pos);
  };
  if (token() !== 'P6') throw new Error('not a binary PPM');
  const width = Number(token());
  const height = Number(token());
  const maxval = Number(token());
  pos++; // the one whitespace byte before the pixels
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || maxval !== 255) {
    throw new Error('unsupported PPM header');
  }
  const data = buf.subarray(pos, pos + width * height * 3);
  if (data.length !== width * height * 3) throw new Error('truncated PPM');
  return { width, height, data };
}

/** pages drawn by one pdftoppm run (its start-up and PDF parsing cost ~15 ms a run) */
const BATCH_PIXELS = 64_000_000;
const MAX_BATCH = 8;

/** Draw pages `first..last` (same DPI) to PPM files in `dir`; resolves with their paths by page. */
export async function renderPages(
  path: string,
  first: number,
  last: number,
  dpi: number,
  dir: string,
  opts: PdfOptions,
): Promise<Map<number, string>> {
  const root = join(dir, `p${first}`);
  try {
    await runTool(
      'pdftoppm',
      ['-f', String(first), '-l', String(last), '-r', String(dpi), path, root],
      toolLimits(opts, dir),
    );
  } catch (err) {
    throw toolFailure(err);
  }
  // pdftoppm pads the page number to the width of the document's page count
  const files = new Map<number, string>();
  for (const name of await readdir(dir)) {
    const match = new RegExp(`^p${first}-(\\d+)\\.ppm$`).exec(name);
    if (match) files.set(Number(match[1]), join(dir, name));
  }
  for (let page = first; page <= last; page++) {
    if (!files.has(page)) throw new ConversionError(MESSAGES.damaged, `pdftoppm drew no page ${page}`);
  }
  return files;
}

async function readRaster(file: string): Promise<Raster> {
  try {
    return parsePpm(await readFile(file));
  } catch (err) {
    throw new ConversionError(MESSAGES.damaged, (err as Error).message);
  } finally {
    await rm(file, { force: true });
  }
}

export async function encodePage(raster: Raster, opts: PdfOptions): Promise<{ full: Buffer; thumb: Buffer }> {
  const raw = { raw: { width: raster.width, height: raster.height, channels: 3 as const } };
  // effort 1: a third faster than 2 on text pages for ~20 % more bytes; pages must be quick
  const [full, thumb] = await Promise.all([
    sharp(raster.data, raw).webp({ quality: opts.webpQuality, effort: 1 }).toBuffer(),
    sharp(raster.data, raw)
      .resize({ width: opts.thumbWidth, withoutEnlargement: true })
      .webp({ quality: opts.webpQuality, effort: 2 })
      .toBuffer(),
  ]);
  return { full, thumb };
}

/** consecutive pages of one DPI, at most MAX_BATCH and BATCH_PIXELS a batch */
function batches(info: PdfInfo, opts: PdfOptions): { first: number; last: number; dpi: number }[] {
  const out: { first: number; last: number; dpi: number }[] = [];
  let pixels = 0;
  for (let page = 1; page <= info.pages; page++) {
    const size = info.sizes[page - 1]!;
    const dpi = pageDpi(size, opts);
    const pagePixels = (size.width / 72) * dpi * ((size.height / 72) * dpi);
    const current = out.at(-1);
    if (current && current.dpi === dpi && page - current.first < MAX_BATCH && pixels + pagePixels <= BATCH_PIXELS) {
      current.last = page;
      pixels += pagePixels;
    } else {
      out.push({ first: page, last: page, dpi });
      pixels = pagePixels;
    }
  }
  return out;
}

/**
 * Draw every page: `sink(<pageIndex>-full|thumb)`, `onProgress` after each page. pdftoppm draws
 * the next batch while this one is encoded, two pages at a time (libwebp encodes on one core).
 * `dir` is a scratch folder of this conversion.
 */
export async function rasterisePdf(
  path: string,
  dir: string,
  opts: PdfOptions,
  sink: (name: string, bytes: Buffer) => Promise<void>,
  onProgress: (pagesDone: number, pages: number) => void,
): Promise<number> {
  const info = await pdfInfo(path, opts);
  // the page-area budget, before anything is drawn
  const total = info.sizes.reduce((sum, size) => {
    const dpi = pageDpi(size, opts);
    return sum + (size.width / 72) * dpi * ((size.height / 72) * dpi);
  }, 0);
  if (total > opts.maxTotalPixels) {
    throw new ConversionError(MESSAGES.pagesTooLarge, `${Math.round(total / 1e6)} MP of pages`);
  }
  onProgress(0, info.pages);
  const plan = batches(info, opts);
  const render = (i: number) => {
    const b = plan[i]!;
    const p = renderPages(path, b.first, b.last, b.dpi, dir, opts);
    p.catch(() => undefined); // awaited in turn; not an unhandled rejection meanwhile
    return p;
  };
  let done = 0;
  let next = render(0);
  for (let i = 0; i < plan.length; i++) {
    const files = await next;
    if (i + 1 < plan.length) next = render(i + 1);
    const pages = [...files.keys()].sort((a, b) => a - b);
    const encodeOne = async (page: number) => {
      const { full, thumb } = await encodePage(await readRaster(files.get(page)!), opts);
      await sink(`${page - 1}-full`, full);
      await sink(`${page - 1}-thumb`, thumb);
      onProgress(++done, info.pages);
    };
    for (let k = 0; k < pages.length; k += 2) {
      await Promise.all(pages.slice(k, k + 2).map(encodeOne));
    }
  }
  if (plan.length > 1) await next.catch(() => undefined);
  return info.pages;
}

function toolFailure(err: unknown): ConversionError {
  if (err instanceof ConversionError) return err;
  if (err instanceof ToolError) {
    if (err.reason === 'timeout') return new ConversionError(MESSAGES.tooSlow, err.message);
    if (/incorrect password/i.test(err.stderr)) return new ConversionError(MESSAGES.encrypted, err.message);
    return new ConversionError(MESSAGES.damaged, err.message);
  }
  return new ConversionError(MESSAGES.damaged, (err as Error).message);
}
