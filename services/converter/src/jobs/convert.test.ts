import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { createLogger, FsObjectStore } from '@wb/platform';
import { originalKey } from '@wb/proto';
import { ConversionError, OfficeUnavailableError } from '../conversion';
import type { Converter } from '../conversion';
import { createConverterMetrics } from '../metrics';
import { processConvertJob, ThrottledReporter } from './convert';
import type { ConversionReportInput, ConvertJobDeps } from './convert';

const log = createLogger({ service: 'converter', level: 'silent' });
const docId = 'b'.repeat(64);
let dir: string;
let store: FsObjectStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-convert-job-'));
  store = new FsObjectStore(join(dir, 'store'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function deps(converter: Partial<Converter>, reports: ConversionReportInput[]): ConvertJobDeps {
  return {
    store,
    converter: converter as Converter,
    report: async (input) => void reports.push(input),
    log,
    metrics: createConverterMetrics(new Registry()),
    workDir: dir,
    reportIntervalMs: 250,
  };
}

async function stored(): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list('docs/')) keys.push(key);
  return keys;
}

const job = (attemptsMade = 0) => ({
  id: '1',
  data: { docId, format: 'pdf', purpose: 'doc' },
  attemptsMade,
  opts: { attempts: 3 },
});

describe('processConvertJob', () => {
  it('stores pages under their keys and reports ready', async () => {
    await store.put(originalKey(docId), Buffer.from('%PDF-'));
    const reports: ConversionReportInput[] = [];
    const converter = {
      convert: async (
        _input: unknown,
        sink: (n: string, b: Buffer) => Promise<void>,
        progress: (d: number, p: number) => void,
      ) => {
        await sink('0-full', Buffer.from('a'));
        await sink('0-thumb', Buffer.from('b'));
        progress(1, 1);
        return { pages: 1, isImage: false };
      },
    };
    expect(await processConvertJob(job(), deps(converter, reports))).toEqual({ pages: 1 });
    expect((await stored()).sort()).toEqual([`docs/${docId}-0-full.webp`, `docs/${docId}-0-thumb.webp`]);
    expect(reports.at(-1)).toEqual({ docId, status: 'ready', pages: 1, pagesDone: 1, error: null });
  });

  it('deletes every page it wrote when the conversion fails half-way, and reports the reason', async () => {
    await store.put(originalKey(docId), Buffer.from('%PDF-'));
    const reports: ConversionReportInput[] = [];
    const converter = {
      convert: async (_input: unknown, sink: (n: string, b: Buffer) => Promise<void>) => {
        await sink('0-full', Buffer.from('a'));
        await sink('0-thumb', Buffer.from('b'));
        throw new ConversionError('The document took too long to convert');
      },
    };
    await processConvertJob(job(), deps(converter, reports));
    expect(await stored()).toEqual([]);
    expect(reports.at(-1)).toEqual({
      docId,
      status: 'failed',
      pages: 0,
      pagesDone: 0,
      error: 'The document took too long to convert',
    });
  });

  it('retries unexpected errors, and reports the generic message on the last attempt', async () => {
    await store.put(originalKey(docId), Buffer.from('%PDF-'));
    const reports: ConversionReportInput[] = [];
    const converter = {
      convert: async () => {
        throw new Error('EIO: disk on fire');
      },
    };
    await expect(processConvertJob(job(0), deps(converter, reports))).rejects.toThrow('disk on fire');
    expect(reports).toEqual([]);
    await processConvertJob(job(2), deps(converter, reports));
    expect(reports).toEqual([
      { docId, status: 'failed', pages: 0, pagesDone: 0, error: 'The file could not be converted' },
    ]);
  });

  it('a broken office is retried with a "retrying" report, and never called damaged (issue 25 §3)', async () => {
    await store.put(originalKey(docId), Buffer.from('PK'));
    const reports: ConversionReportInput[] = [];
    const converter = {
      convert: async () => {
        throw new OfficeUnavailableError('LibreOffice exited (SIGKILL)');
      },
    };
    await expect(processConvertJob(job(0), deps(converter, reports))).rejects.toThrow('LibreOffice exited');
    expect(reports).toEqual([
      {
        docId,
        status: 'processing',
        pages: 0,
        pagesDone: 0,
        error: 'We could not convert this file right now, retrying',
      },
    ]);
    await processConvertJob(job(2), deps(converter, reports));
    expect(reports.at(-1)).toEqual({
      docId,
      status: 'failed',
      pages: 0,
      pagesDone: 0,
      error: 'The file could not be converted',
    });
    expect(reports.some((r) => r.error === 'The file is damaged or is not a valid document')).toBe(false);
  });

  it('drops a job whose data is not a conversion job', async () => {
    expect(await processConvertJob({ data: { docId: 'x' }, attemptsMade: 0, opts: {} }, deps({}, []))).toEqual({
      dropped: true,
    });
  });
});

describe('ThrottledReporter', () => {
  it('sends at most one processing report per interval, the latest state, then the final one', async () => {
    let now = 0;
    const sent: ConversionReportInput[] = [];
    const reporter = new ThrottledReporter(
      docId,
      async (r) => void sent.push(r),
      250,
      log,
      () => now,
    );
    jest.useFakeTimers();
    try {
      reporter.progress(0, 10);
      reporter.progress(1, 10);
      reporter.progress(2, 10);
      await Promise.resolve();
      await Promise.resolve();
      expect(sent.map((r) => r.pagesDone)).toEqual([0]);
      now = 250;
      jest.advanceTimersByTime(250);
      await Promise.resolve();
      await Promise.resolve();
      expect(sent.map((r) => r.pagesDone)).toEqual([0, 2]);
      reporter.progress(3, 10);
    } finally {
      jest.useRealTimers();
    }
    await reporter.finish({ status: 'ready', pages: 10, pagesDone: 10, error: null });
    expect(sent.map((r) => `${r.status}:${r.pagesDone}`)).toEqual(['processing:0', 'processing:2', 'ready:10']);
  });
});
