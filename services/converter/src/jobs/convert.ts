/**
 * One files-convert job: fetch the original from object storage to a scratch file, convert it,
 * store every image as it is made, and tell the files service how it goes (conversion.report:
 * processing at most a few times a second, then ready or failed). A failure deletes every output
 * this job wrote, so nothing half-stored stays behind. `displayImage` jobs write the square
 * picture and report nothing: the files service awaits the job itself. The job's trace span is
 * the platform worker's (createWorker).
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger, ObjectStore } from '@wb/platform';
import { displayImageKey, docPageKey, filesConvertJobSchema, IMAGE_FORMATS, imageKey, originalKey } from '@wb/proto';
import type { FilesConvertJob } from '@wb/proto';
import { ConversionError, MESSAGES, OfficeUnavailableError } from '../conversion';
import type { Converter } from '../conversion';
import type { ConverterMetrics } from '../metrics';

export const DEFAULT_FAILURE = 'The file could not be converted';
export const ORIGINAL_MISSING = 'The uploaded file is no longer stored';

export interface ConversionReportInput {
  docId: string;
  status: 'processing' | 'ready' | 'failed';
  pages: number;
  pagesDone: number;
  error: string | null;
}

export interface ConvertJobDeps {
  store: ObjectStore;
  converter: Converter;
  /** conversion.report to the files service */
  report: (input: ConversionReportInput) => Promise<void>;
  log: Logger;
  metrics: ConverterMetrics;
  workDir: string;
  /** least time between two processing reports */
  reportIntervalMs: number;
}

/** What the job sees of a BullMQ job (tests pass plain objects). */
export interface JobLike {
  id?: string;
  data: unknown;
  attemptsMade: number;
  opts: { attempts?: number };
}

/**
 * Processing reports, at most one per `intervalMs`: the latest state wins, a trailing report
 * goes out when the interval ends, and `finish` sends the final one after any in flight.
 */
export class ThrottledReporter {
  private last = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private pending: { pagesDone: number; pages: number } | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly docId: string,
    private readonly send: (input: ConversionReportInput) => Promise<void>,
    private readonly intervalMs: number,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  progress(pagesDone: number, pages: number): void {
    this.pending = { pagesDone, pages };
    if (this.timer) return;
    const wait = this.last + this.intervalMs - this.now();
    if (wait <= 0) this.flushPending();
    else this.timer = setTimeout(() => this.flushPending(), wait);
  }

  async finish(input: Omit<ConversionReportInput, 'docId'>): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = null;
    await this.chain;
    await this.send({ docId: this.docId, ...input });
  }

  private flushPending(): void {
    this.timer = undefined;
    const state = this.pending;
    if (!state) return;
    this.pending = null;
    this.last = this.now();
    const input: ConversionReportInput = { docId: this.docId, status: 'processing', error: null, ...state };
    // progress is best effort: a lost report is overtaken by the next one or the final one
    this.chain = this.chain.then(() =>
      this.send(input).catch((err: unknown) =>
        this.log.warn({ err, docId: this.docId }, 'progress report not delivered'),
      ),
    );
  }
}

async function fetchOriginal(store: ObjectStore, docId: string, dest: string): Promise<void> {
  const object = await store.getStream(originalKey(docId));
  if (!object) throw new ConversionError(ORIGINAL_MISSING);
  await pipeline(object.stream, createWriteStream(dest));
}

export async function processConvertJob(job: JobLike, deps: ConvertJobDeps): Promise<unknown> {
  const parsed = filesConvertJobSchema.safeParse(job.data);
  if (!parsed.success) {
    // nothing to report to (no valid document id) and a retry cannot help
    deps.log.error({ jobId: job.id, issues: parsed.error.issues }, 'invalid conversion job dropped');
    deps.metrics.jobs.inc({ purpose: 'invalid', outcome: 'failed' });
    return { dropped: true };
  }
  const data: FilesConvertJob = parsed.data;
  // images are stored under the document's image id (issue 25 §4), the content hash for older jobs
  const imageId = data.imageId ?? data.docId;
  const log = deps.log.child({ docId: data.docId, format: data.format, purpose: data.purpose, jobId: job.id });
  const started = performance.now();
  const dir = await mkdtemp(join(deps.workDir, 'in-'));
  const written: string[] = [];
  const put = async (key: string, bytes: Buffer) => {
    written.push(key); // before the write: a write that fails half-way is cleaned up too
    await deps.store.put(key, bytes, { contentType: 'image/webp' });
  };
  const cleanUp = async () => {
    if (written.length === 0) return;
    await deps.store
      .delete(written)
      .catch((err: unknown) => log.error({ err, keys: written.length }, 'outputs of a failed conversion not deleted'));
  };
  try {
    const original = join(dir, 'original');
    if (data.purpose === 'displayImage') {
      try {
        await fetchOriginal(deps.store, data.docId, original);
        const square = await deps.converter.displayImage(original, data.format);
        // its own key: the same bytes may also be a document image with a full and a thumb
        await put(displayImageKey(data.docId), square);
        deps.metrics.jobs.inc({ purpose: 'displayImage', outcome: 'ready' });
        return { ok: true };
      } catch (err) {
        await cleanUp();
        deps.metrics.jobs.inc({ purpose: 'displayImage', outcome: 'failed' });
        log.info({ err }, 'profile picture refused');
        // the files service shows this job's failure reason to the person
        throw new Error(err instanceof ConversionError ? err.message : DEFAULT_FAILURE, { cause: err });
      } finally {
        deps.metrics.duration.observe({ purpose: 'displayImage', kind: 'image' }, (performance.now() - started) / 1000);
      }
    }

    const reporter = new ThrottledReporter(data.docId, deps.report, deps.reportIntervalMs, log);
    try {
      await fetchOriginal(deps.store, data.docId, original);
      const result = await deps.converter.convert(
        { path: original, format: data.format },
        (name, bytes) => {
          if (name === 'full' || name === 'thumb') return put(imageKey(imageId, name), bytes);
          const match = /^(\d+)-(full|thumb)$/.exec(name);
          if (!match) throw new Error(`unexpected output ${name}`);
          return put(docPageKey(imageId, Number(match[1]), match[2] as 'full' | 'thumb'), bytes);
        },
        (pagesDone, pages) => reporter.progress(pagesDone, pages),
      );
      if (!result.isImage) deps.metrics.pages.inc(result.pages);
      await reporter.finish({ status: 'ready', pages: result.pages, pagesDone: result.pages, error: null });
      deps.metrics.jobs.inc({ purpose: 'doc', outcome: 'ready' });
      log.info({ pages: result.pages, ms: Math.round(performance.now() - started) }, 'converted');
      return { pages: result.pages };
    } catch (err) {
      await cleanUp();
      const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (!(err instanceof ConversionError) && !finalAttempt) {
        deps.metrics.jobs.inc({ purpose: 'doc', outcome: 'error' });
        if (err instanceof OfficeUnavailableError) {
          // the office broke (issue 25 §3): not the document's fault; say so while BullMQ retries
          log.warn({ err: err.message, attempt: job.attemptsMade + 1 }, 'office unavailable: job retried');
          await deps
            .report({ docId: data.docId, status: 'processing', pages: 0, pagesDone: 0, error: MESSAGES.retrying })
            .catch((reportErr: unknown) => log.warn({ err: reportErr }, 'retrying report not delivered'));
        }
        throw err; // storage, NATS or office trouble: BullMQ tries again (with back-off)
      }
      const message = err instanceof ConversionError ? err.message : DEFAULT_FAILURE;
      if (err instanceof ConversionError) log.info({ reason: message, detail: err.detail }, 'conversion refused');
      else log.error({ err }, 'conversion failed');
      await reporter.finish({ status: 'failed', pages: 0, pagesDone: 0, error: message });
      deps.metrics.jobs.inc({ purpose: 'doc', outcome: 'failed' });
      return { failed: message };
    } finally {
      deps.metrics.duration.observe(
        { purpose: 'doc', kind: (IMAGE_FORMATS as readonly string[]).includes(data.format) ? 'image' : 'document' },
        (performance.now() - started) / 1000,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
