/**
 * The conversion library (no queue, no storage): a stored original on disk in, named WebP images
 * out through `sink`. Documents: `<pageIndex>-full` / `<pageIndex>-thumb`; images: `full` /
 * `thumb`. Office formats go through the warm LibreOffice to PDF, EPUB through mutool, then the
 * PDF is drawn page by page. Every refusal is a ConversionError with a message for the person.
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DOCUMENT_FORMATS, IMAGE_FORMATS, MAX_DOCUMENT_PAGES, THUMBNAIL_WIDTH } from '@wb/proto';
import type { FileFormat } from '@wb/proto';
import type { Logger } from '@wb/platform';
import { DEFAULT_ARCHIVE_LIMITS, extractEntry, inspectArchive } from './archive';
import type { ArchiveLimits } from './archive';
import { ConversionError, MESSAGES } from './errors';
import { convertImage, squareImage } from './image';
import type { ImageOptions } from './image';
import { Office } from './office';
import { rasterisePdf } from './pdf';
import type { PdfOptions } from './pdf';
import { runTool, ToolError } from './tools';

export { ConversionError } from './errors';

export interface ConverterOptions {
  /** scratch folder: one sub-folder per conversion, removed after it */
  workDir: string;
  log: Logger;
  office?: {
    timeoutMs?: number;
    restartEvery?: number;
    maxMemoryMb?: number;
    /** start LibreOffice now rather than on the first office document */
    warm?: boolean;
  };
  maxPages?: number;
  maxImagePixels?: number;
  /** timeout of pdfinfo/pdftoppm/mutool calls */
  toolTimeoutMs?: number;
  toolMaxMemoryMb?: number;
  archive?: Partial<ArchiveLimits>;
}

export interface ConvertInput {
  path: string;
  format: FileFormat;
}

type Sink = (name: string, bytes: Buffer) => Promise<void>;
type Progress = (pagesDone: number, pages: number) => void;

const ZIP_FORMATS = new Set<FileFormat>(['docx', 'xlsx', 'pptx', 'odt', 'epub', 'pages']);
const OFFICE_FORMATS = new Set<FileFormat>(DOCUMENT_FORMATS.filter((f) => f !== 'pdf' && f !== 'epub'));
const IMAGES = new Set<FileFormat>(IMAGE_FORMATS);
/** Pages documents often carry a full PDF rendering; used when LibreOffice cannot read them */
const PAGES_PREVIEW = 'QuickLook/Preview.pdf';

export class Converter {
  readonly office: Office;
  private readonly pdf: PdfOptions;
  private readonly image: ImageOptions;
  private readonly archive: ArchiveLimits;
  private readonly toolTimeoutMs: number;
  private readonly toolMaxMemoryMb: number;
  private ready: Promise<void>;

  constructor(private readonly opts: ConverterOptions) {
    const maxPages = opts.maxPages ?? MAX_DOCUMENT_PAGES;
    this.toolTimeoutMs = opts.toolTimeoutMs ?? 30_000;
    this.toolMaxMemoryMb = opts.toolMaxMemoryMb ?? 1024;
    this.pdf = {
      maxPages,
      thumbWidth: THUMBNAIL_WIDTH,
      maxPagePixels: 16_000_000,
      dpi: 150,
      toolTimeoutMs: this.toolTimeoutMs,
      toolMaxMemoryMb: this.toolMaxMemoryMb,
      webpQuality: 80,
    };
    this.image = {
      maxPixels: opts.maxImagePixels ?? 50_000_000,
      fullMaxSide: 4096,
      thumbWidth: THUMBNAIL_WIDTH,
      displayImageSide: 256,
      webpQuality: 82,
    };
    this.archive = { ...DEFAULT_ARCHIVE_LIMITS, ...opts.archive };
    this.office = new Office({
      profileDir: join(opts.workDir, `office-profile-${process.pid}`),
      timeoutMs: opts.office?.timeoutMs ?? 60_000,
      restartEvery: opts.office?.restartEvery ?? 10,
      maxMemoryMb: opts.office?.maxMemoryMb ?? 1536,
      // one page past the cap: a longer document then shows up as "more than N pages" instead of
      // being cut silently (layout of the whole document is bounded by the timeout)
      maxPages: maxPages + 1,
      log: opts.log.child({ component: 'office' }),
    });
    this.ready = mkdir(opts.workDir, { recursive: true }).then(() => undefined);
    if (opts.office?.warm) {
      this.ready = this.ready.then(() =>
        this.office.warm().catch((err: unknown) => opts.log.error({ err }, 'LibreOffice did not start')),
      );
    }
  }

  /** resolves once the scratch folder exists (and the office is up when warm) */
  whenReady(): Promise<void> {
    return this.ready;
  }

  async convert(input: ConvertInput, sink: Sink, onProgress: Progress): Promise<{ pages: number; isImage: boolean }> {
    await this.ready;
    if (IMAGES.has(input.format)) {
      await convertImage(input.path, input.format, this.image, sink);
      onProgress(1, 1);
      return { pages: 1, isImage: true };
    }
    const dir = await mkdtemp(join(this.opts.workDir, 'job-'));
    try {
      const pdf = await this.toPdf(input, dir);
      const pages = await rasterisePdf(pdf, dir, this.pdf, sink, onProgress);
      return { pages, isImage: false };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** square profile picture (256 px WebP) */
  async displayImage(path: string, format: FileFormat = 'png'): Promise<Buffer> {
    await this.ready;
    if (!IMAGES.has(format)) throw new ConversionError(MESSAGES.unsupported);
    return squareImage(path, format, this.image);
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.office.close();
  }

  /** a PDF of the document in `dir` */
  private async toPdf(input: ConvertInput, dir: string): Promise<string> {
    const { format } = input;
    if (format === 'pdf') return input.path;
    if (!ZIP_FORMATS.has(format) && !OFFICE_FORMATS.has(format)) throw new ConversionError(MESSAGES.unsupported);

    let kind: string = format;
    let names: string[] = [];
    if (ZIP_FORMATS.has(format)) {
      const info = await inspectArchive(input.path, this.archive);
      kind = info.kind;
      names = info.names;
    }
    const out = join(dir, 'out.pdf');
    if (kind === 'epub') {
      await this.epubToPdf(input.path, dir, out);
      return out;
    }
    // LibreOffice picks its import filter from the content, the extension helps with old formats
    const source = join(dir, `in.${kind}`);
    await copyFile(input.path, source);
    const filter = format === 'csv' ? 'csv' : format === 'txt' ? 'txt' : null;
    try {
      await this.office.toPdf(source, out, filter);
    } catch (err) {
      if (
        kind === 'pages' &&
        names.includes(PAGES_PREVIEW) &&
        !(err instanceof ConversionError && err.message === MESSAGES.tooSlow)
      ) {
        const preview = join(dir, 'preview.pdf');
        if (await extractEntry(input.path, PAGES_PREVIEW, preview, this.archive.maxTotalBytes)) return preview;
      }
      throw err;
    }
    return out;
  }

  private async epubToPdf(path: string, dir: string, out: string): Promise<void> {
    const source = join(dir, 'in.epub');
    await copyFile(path, source);
    try {
      await runTool('mutool', ['convert', '-o', out, source], {
        timeoutMs: this.toolTimeoutMs,
        maxMemoryMb: this.toolMaxMemoryMb,
      });
    } catch (err) {
      if (err instanceof ToolError && err.reason === 'timeout')
        throw new ConversionError(MESSAGES.tooSlow, err.message);
      throw new ConversionError(MESSAGES.damaged, (err as Error).message);
    }
  }
}
