/**
 * The conversion library (no queue, no storage): a stored original on disk in, named WebP images
 * out through `sink`. Documents: `<pageIndex>-full` / `<pageIndex>-thumb`; images: `full` /
 * `thumb`. Office formats go through the warm LibreOffice to PDF, EPUB through mutool, then the
 * PDF is drawn page by page. Every refusal is a ConversionError with a message for the person.
 */
import { chmod, copyFile, link, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DOCUMENT_FORMATS, IMAGE_FORMATS, MAX_DOCUMENT_PAGES, THUMBNAIL_WIDTH } from '@wb/proto';
import type { FileFormat } from '@wb/proto';
import type { Logger } from '@wb/platform';
import { DEFAULT_ARCHIVE_LIMITS, extractEntry, inspectArchive } from './archive';
import type { ArchiveLimits } from './archive';
import { ConversionError, MESSAGES } from './errors';
import type { ImageOptions } from './image';
import { ImagePool } from './imagePool';
import { Office } from './office';
import { rasterisePdf } from './pdf';
import type { PdfOptions } from './pdf';
import { Sandbox } from './sandbox';
import type { SandboxSetting } from './sandbox';
import { runTool, ToolError } from './tools';

export { ConversionError, MESSAGES } from './errors';
export { OfficeUnavailableError } from './office';
export { Sandbox } from './sandbox';

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
    /** link and macro settings in the profile (default true) */
    hardenProfile?: boolean;
  };
  maxPages?: number;
  maxImagePixels?: number;
  /** timeout of pdfinfo/pdftoppm/mutool calls */
  toolTimeoutMs?: number;
  toolMaxMemoryMb?: number;
  archive?: Partial<ArchiveLimits>;
  /** the whole job, every tool: past it everything is killed and the job fails as too slow */
  jobTimeoutMs?: number;
  /** the image child (sharp, librsvg): timeout and address space */
  imageTimeoutMs?: number;
  imageMaxMemoryMb?: number;
  /** SVG filter work refused above this many pixel operations (image.ts svgFilterCost) */
  maxSvgCost?: number;
  /** pixels of a document's pages together, refused before drawing */
  maxTotalPagePixels?: number;
  /** 'auto' (bwrap, else unshare, else none with a loud log), or one mode; a Sandbox for tests */
  sandbox?: SandboxSetting | Sandbox;
  /** uid/gid the tools run as when the worker is root */
  sandboxUid?: number;
  /** image children kept warm (the image jobs that may run at once) */
  imageSlots?: number;
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
  private readonly jobTimeoutMs: number;
  readonly sandbox: Sandbox;
  readonly images: ImagePool;
  private ready: Promise<void>;

  constructor(private readonly opts: ConverterOptions) {
    const maxPages = opts.maxPages ?? MAX_DOCUMENT_PAGES;
    this.jobTimeoutMs = opts.jobTimeoutMs ?? 120_000;
    this.sandbox =
      opts.sandbox instanceof Sandbox
        ? opts.sandbox
        : Sandbox.probe(opts.sandbox ?? 'auto', opts.sandboxUid ?? 65534, opts.log.child({ component: 'sandbox' }));
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
      // 300 pages at ~2.1 MP (A4 at 150 DPI): ~630 MP; pages beyond that are posters, refused
      maxTotalPixels: opts.maxTotalPagePixels ?? 800_000_000,
      sandbox: this.sandbox,
    };
    this.image = {
      maxPixels: opts.maxImagePixels ?? 50_000_000,
      fullMaxSide: 4096,
      thumbWidth: THUMBNAIL_WIDTH,
      displayImageSide: 256,
      webpQuality: 82,
      maxSvgCost: opts.maxSvgCost ?? 2_000_000_000,
    };
    this.archive = { ...DEFAULT_ARCHIVE_LIMITS, ...opts.archive };
    this.office = new Office({
      profileDir: join(opts.workDir, `office-profile-${process.pid}`),
      inboxDir: join(opts.workDir, `office-inbox-${process.pid}`),
      hardenProfile: opts.office?.hardenProfile ?? true,
      sandbox: this.sandbox,
      timeoutMs: opts.office?.timeoutMs ?? 60_000,
      restartEvery: opts.office?.restartEvery ?? 10,
      maxMemoryMb: opts.office?.maxMemoryMb ?? 1536,
      // one page past the cap: a longer document then shows up as "more than N pages" instead of
      // being cut silently (layout of the whole document is bounded by the timeout)
      maxPages: maxPages + 1,
      log: opts.log.child({ component: 'office' }),
    });
    this.images = new ImagePool({
      inboxDir: join(opts.workDir, `image-inbox-${process.pid}`),
      sandbox: this.sandbox,
      log: opts.log.child({ component: 'images' }),
      timeoutMs: opts.imageTimeoutMs ?? 30_000,
      maxMemoryMb: opts.imageMaxMemoryMb ?? 2560,
    });
    this.ready = mkdir(opts.workDir, { recursive: true }).then(() => this.checkReachable());
    if (opts.office?.warm) this.ready = this.ready.then(() => this.images.warm(opts.imageSlots ?? 2));
    if (opts.office?.warm) {
      this.ready = this.ready.then(() =>
        this.office.warm().catch((err: unknown) => opts.log.error({ err }, 'LibreOffice did not start')),
      );
    }
  }

  /** the sandbox user must walk to the job folders: every folder above them searchable by others */
  private async checkReachable(): Promise<void> {
    if (this.sandbox.runsAsUid === (process.getuid?.() ?? 0)) return;
    await chmod(this.opts.workDir, 0o755);
    for (let d = this.opts.workDir; d !== dirname(d); d = dirname(d)) {
      if (((await stat(d)).mode & 0o001) === 0) {
        throw new Error(
          `CONVERT_WORK_DIR ${this.opts.workDir}: ${d} is not searchable by the sandbox user (uid ${this.sandbox.uid}); chmod o+x it or choose another folder`,
        );
      }
    }
  }

  /** resolves once the scratch folder exists (and the office is up when warm) */
  whenReady(): Promise<void> {
    return this.ready;
  }

  /**
   * Convert within the job's deadline (`jobTimeoutMs`, and `signal` if given): past it every tool
   * is killed and the job fails with "took too long to convert". An office that broke throws
   * OfficeUnavailableError (try again later), never a ConversionError.
   */
  async convert(
    input: ConvertInput,
    sink: Sink,
    onProgress: Progress,
    signal?: AbortSignal,
  ): Promise<{ pages: number; isImage: boolean }> {
    await this.ready;
    return this.withJob(input.path, signal, async (dir, original, deadline) => {
      if (IMAGES.has(input.format)) {
        for (const [name, bytes] of await this.imageChild('convert', original, input.format, dir, deadline)) {
          await sink(name, bytes);
        }
        onProgress(1, 1);
        return { pages: 1, isImage: true };
      }
      const pdf = await this.toPdf({ path: original, format: input.format }, dir, deadline);
      const pages = await rasterisePdf(pdf, dir, { ...this.pdf, signal: deadline }, sink, onProgress);
      return { pages, isImage: false };
    });
  }

  /** square profile picture (256 px WebP) */
  async displayImage(path: string, format: FileFormat = 'png', signal?: AbortSignal): Promise<Buffer> {
    await this.ready;
    if (!IMAGES.has(format)) throw new ConversionError(MESSAGES.unsupported);
    return this.withJob(path, signal, async (dir, original, deadline) => {
      const out = await this.imageChild('square', original, format, dir, deadline);
      return out.get('square')!;
    });
  }

  /**
   * A job folder (the only folder the sandboxed tools see) holding the original, and the job's
   * deadline; the folder is removed after, and a tool failure past the deadline reads as too slow.
   */
  private async withJob<T>(
    path: string,
    signal: AbortSignal | undefined,
    run: (dir: string, original: string, deadline: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const dir = await mkdtemp(join(this.opts.workDir, 'job-'));
    this.sandbox.prepare(dir);
    const timeout = AbortSignal.timeout(this.jobTimeoutMs);
    const deadline = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const original = join(dir, 'original');
      await link(path, original).catch(() => copyFile(path, original));
      return await run(dir, original, deadline);
    } catch (err) {
      if (deadline.aborted && !(err instanceof ConversionError && err.message !== MESSAGES.damaged)) {
        throw new ConversionError(
          MESSAGES.tooSlow,
          `job deadline of ${this.jobTimeoutMs} ms: ${(err as Error).message}`,
        );
      }
      throw err;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** sharp and librsvg in a warm sandboxed child (imagePool.ts): its outputs by name */
  private imageChild(
    op: 'convert' | 'square',
    input: string,
    format: FileFormat,
    _dir: string,
    signal: AbortSignal,
  ): Promise<Map<string, Buffer>> {
    return this.images.run(op, input, format, this.image, signal);
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    this.images.close();
    await this.office.close();
  }

  /** a PDF of the document in `dir` */
  private async toPdf(input: ConvertInput, dir: string, signal: AbortSignal): Promise<string> {
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
      await this.epubToPdf(input.path, dir, out, signal);
      return out;
    }
    // LibreOffice picks its import filter from the content, the extension helps with old formats
    const source = join(dir, `in.${kind}`);
    await copyFile(input.path, source);
    const filter = format === 'csv' ? 'csv' : format === 'txt' ? 'txt' : null;
    try {
      await this.office.toPdf(source, out, filter, signal);
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

  private async epubToPdf(path: string, dir: string, out: string, signal: AbortSignal): Promise<void> {
    const source = join(dir, 'in.epub');
    await copyFile(path, source);
    try {
      await runTool('mutool', ['convert', '-o', out, source], {
        timeoutMs: this.toolTimeoutMs,
        maxMemoryMb: this.toolMaxMemoryMb,
        signal,
        sandbox: { box: this.sandbox, view: { rw: [dir] } },
      });
    } catch (err) {
      if (err instanceof ToolError && err.reason === 'timeout')
        throw new ConversionError(MESSAGES.tooSlow, err.message);
      throw new ConversionError(MESSAGES.damaged, (err as Error).message);
    }
  }
}
