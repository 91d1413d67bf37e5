/**
 * Issue 25 §2 budgets, against the real tools: the whole job's deadline kills a PDF of nested
 * Form XObjects and says "took too long"; the SVG filter bomb is refused before drawing; pages
 * whose total area is over the budget are refused before drawing; the converter works after.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@wb/platform';
import type { FileFormat } from '@wb/proto';
import { ConversionError, Converter, MESSAGES } from '../src/conversion';
import { svgFilterCost } from '../src/conversion/image';
import { makePdf, nestedXObjectPdf, SVG_BOMB } from './fixtures';

jest.setTimeout(120_000);

const log = createLogger({ service: 'converter', level: 'silent' });
let dir: string;
let converter: Converter;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-converter-budgets-'));
  chmodSync(dir, 0o755);
  converter = new Converter({ workDir: join(dir, 'work'), log, jobTimeoutMs: 4000, maxTotalPagePixels: 50_000_000 });
  await converter.whenReady();
});
afterAll(async () => {
  await converter?.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
async function convert(bytes: Buffer | string, format: FileFormat) {
  const path = join(dir, `in-${++n}`);
  writeFileSync(path, bytes);
  return converter.convert(
    { path, format },
    async () => undefined,
    () => undefined,
  );
}

it('the job deadline kills a nested Form XObject PDF and says it took too long', async () => {
  const started = Date.now();
  await expect(convert(nestedXObjectPdf(), 'pdf')).rejects.toThrow(MESSAGES.tooSlow);
  expect(Date.now() - started).toBeLessThan(4000 + 3000);
  expect((await convert(makePdf(1), 'pdf')).pages).toBe(1);
});

it('refuses the SVG filter bomb before drawing it', async () => {
  expect(svgFilterCost(SVG_BOMB, 2100, 2100)).toBeGreaterThan(1e12);
  expect(svgFilterCost('<svg><filter><feGaussianBlur stdDeviation="3"/></filter></svg>', 800, 600)).toBeLessThan(1e7);
  const started = Date.now();
  const err = await convert(SVG_BOMB, 'svg').catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ConversionError);
  expect((err as Error).message).toBe(MESSAGES.imageTooCostly);
  expect(Date.now() - started).toBeLessThan(3000);
});

it('refuses pages whose area together is over the budget, before drawing', async () => {
  // 40 A4 pages at 150 DPI ≈ 84 MP > 50 MP
  await expect(convert(makePdf(40, 5), 'pdf')).rejects.toThrow(MESSAGES.pagesTooLarge);
  expect((await convert(makePdf(3, 5), 'pdf')).pages).toBe(3);
});
