/**
 * Issue 25 §3: a dead office is not a damaged document. The office this test's converter started
 * (its soffice.bin found from the pid the converter records, never by name) is killed with
 * SIGKILL while documents are queued; every valid document still converts, none is "damaged",
 * and the office is back at once.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@wb/platform';
import { Converter } from '../src/conversion';
import { makeDocx } from './fixtures';

jest.setTimeout(240_000);

const log = createLogger({ service: 'converter', level: 'silent' });
let dir: string;
let converter: Converter;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-converter-crash-'));
  chmodSync(dir, 0o755);
  converter = new Converter({ workDir: join(dir, 'work'), log, office: { warm: true, restartEvery: 100 } });
  await converter.whenReady();
});
afterAll(async () => {
  await converter?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function convert(i: number, paragraphs: number): Promise<number> {
  const path = join(dir, `doc-${i}.docx`);
  writeFileSync(path, makeDocx(Array.from({ length: paragraphs }, (_, k) => `Document ${i} paragraph ${k}`)));
  const result = await converter.convert(
    { path, format: 'docx' },
    async () => undefined,
    () => undefined,
  );
  return result.pages;
}

it('kill -9 of soffice.bin mid-queue: every queued document still ends ready', async () => {
  const first = converter.office.officePid();
  expect(first).toBeGreaterThan(0);
  // a longer first document, so the kill lands while it is being converted
  const jobs = [convert(0, 400), convert(1, 5), convert(2, 5), convert(3, 5)];
  await new Promise((r) => setTimeout(r, 300));
  process.kill(first!, 'SIGKILL');
  const pages = await Promise.all(jobs);
  expect(pages.every((p) => p >= 1)).toBe(true);
  expect(converter.office.stats.starts).toBeGreaterThanOrEqual(2);
  const second = converter.office.officePid();
  expect(second).toBeGreaterThan(0);
  expect(second).not.toBe(first);
});

it('an office killed while idle is replaced at once, before the next document', async () => {
  const pid = converter.office.officePid()!;
  const starts = converter.office.stats.starts;
  process.kill(pid, 'SIGKILL');
  const deadline = Date.now() + 30_000;
  while (converter.office.stats.starts === starts && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  expect(converter.office.stats.starts).toBe(starts + 1);
  expect(await convert(9, 3)).toBe(1);
});
