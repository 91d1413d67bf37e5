/**
 * The conversion library against the real tools (LibreOffice over UNO, poppler, mupdf, sharp),
 * with every input made here: normal documents and images, then the hostile corpus. After each
 * refusal the same converter still converts a normal document.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createLogger } from '@wb/platform';
import { sniffHead } from '@wb/proto';
import type { FileFormat } from '@wb/proto';
import { ConversionError, Converter } from '../src/conversion';
import {
  makeBmp,
  makeDocx,
  makeEpub,
  makeFodp,
  makePdf,
  makePixelFloodPng,
  makeZip,
  makeZipBombDocx,
  sofficeConvert,
} from './fixtures';

jest.setTimeout(120_000);

const log = createLogger({ service: 'converter', level: 'silent' });
let dir: string;
let converter: Converter;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-converter-test-'));
  chmodSync(dir, 0o755); // the sandbox user walks through it to its job folders
  converter = new Converter({
    workDir: join(dir, 'work'),
    log,
    office: { warm: true, restartEvery: 4, timeoutMs: 60_000 },
  });
  await converter.whenReady();
});
afterAll(async () => {
  await converter?.close();
  rmSync(dir, { recursive: true, force: true });
});

let fileNo = 0;
async function run(bytes: Buffer | string, format: FileFormat, using: Converter = converter) {
  const path = join(dir, `input-${++fileNo}`);
  writeFileSync(path, bytes);
  const outputs = new Map<string, Buffer>();
  const progress: [number, number][] = [];
  const result = await using.convert(
    { path, format },
    async (name, data) => {
      outputs.set(name, data);
    },
    (done, pages) => progress.push([done, pages]),
  );
  return { result, outputs, progress };
}

async function refusal(
  bytes: Buffer | string,
  format: FileFormat,
  using: Converter = converter,
): Promise<ConversionError> {
  try {
    await run(bytes, format, using);
  } catch (err) {
    expect(err).toBeInstanceOf(ConversionError);
    return err as ConversionError;
  }
  throw new Error('expected a ConversionError');
}

async function size(webp: Buffer) {
  const meta = await sharp(webp).metadata();
  expect(meta.format).toBe('webp');
  return { width: meta.width, height: meta.height, exif: meta.exif, pages: meta.pages };
}

async function pixel(webp: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(webp).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 3;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

/** true once no process of the group is left (polls: the kernel reaps asynchronously) */
async function groupGone(group: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(-group, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** the worker is still healthy: a normal document converts */
async function stillConverts(): Promise<void> {
  const { result } = await run(makeDocx(['still alive']), 'docx');
  expect(result).toEqual({ pages: 1, isImage: false });
}

describe('documents', () => {
  it('draws every page of a PDF: full page at 150 DPI and a 320 px thumbnail, progress per page', async () => {
    const { result, outputs, progress } = await run(makePdf(3), 'pdf');
    expect(result).toEqual({ pages: 3, isImage: false });
    expect([...outputs.keys()].sort()).toEqual(['0-full', '0-thumb', '1-full', '1-thumb', '2-full', '2-thumb']);
    expect(await size(outputs.get('0-full')!)).toMatchObject({ width: 1275, height: 1650 });
    expect(await size(outputs.get('2-thumb')!)).toMatchObject({ width: 320, height: 414 });
    expect(progress).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it('converts a DOCX written by hand, a PPTX made by LibreOffice, RTF, CSV and text through the warm office', async () => {
    expect((await run(makeDocx(['one', 'two', 'three'], { pageBreaks: true }), 'docx')).result.pages).toBe(3);
    const pptx = sofficeConvert(makeFodp(5), 'fodp', 'pptx');
    const slides = await run(pptx, 'pptx');
    expect(slides.result.pages).toBe(5);
    const slide = await size(slides.outputs.get('4-full')!);
    expect(slide.width!).toBeGreaterThan(slide.height!); // landscape slides
    expect((await run('{\\rtf1\\ansi Hello {\\b bold} world\\par}', 'rtf')).result.pages).toBe(1);
    expect((await run('name,age\nAda,36\nAlan,41\n', 'csv')).result.pages).toBe(1);
    expect((await run('Plain words, ünïcödé included.\n', 'txt')).result.pages).toBe(1);
  });

  it('restarts the office every few documents', async () => {
    const before = converter.office.stats.starts;
    for (let i = 0; i < 5; i++) await run(makeDocx([`doc ${i}`]), 'docx');
    expect(converter.office.stats.starts - before).toBeGreaterThanOrEqual(1);
  });

  it('converts an EPUB through mutool', async () => {
    const { result, outputs } = await run(makeEpub(3), 'epub');
    expect(result.pages).toBeGreaterThanOrEqual(3);
    expect(await size(outputs.get('0-thumb')!)).toMatchObject({ width: 320 });
  });
});

describe('images', () => {
  it('makes full and thumb WebP from a PNG, never enlarging', async () => {
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const { result, outputs } = await run(png, 'png');
    expect(result).toEqual({ pages: 1, isImage: true });
    expect(await size(outputs.get('full')!)).toMatchObject({ width: 800, height: 600 });
    expect(await size(outputs.get('thumb')!)).toMatchObject({ width: 320, height: 240 });
    const tiny = await sharp({ create: { width: 100, height: 50, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(await size((await run(tiny, 'png')).outputs.get('thumb')!)).toMatchObject({ width: 100 });
  });

  it('caps the full image at 4096 px on its long side', async () => {
    const big = await sharp({ create: { width: 6000, height: 1000, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();
    expect(await size((await run(big, 'jpeg')).outputs.get('full')!)).toMatchObject({ width: 4096, height: 683 });
  });

  it('applies EXIF orientation and strips metadata', async () => {
    const jpeg = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#c00' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).orientation).toBe(6);
    const { outputs } = await run(jpeg, 'jpeg');
    const full = await size(outputs.get('full')!);
    expect(full).toMatchObject({ width: 200, height: 400 });
    expect(full.exif).toBeUndefined();
  });

  it('uses the first frame of an animated GIF', async () => {
    const frame = (colour: string) =>
      sharp({ create: { width: 64, height: 64, channels: 3, background: colour } })
        .raw()
        .toBuffer();
    const frames = Buffer.concat([await frame('#ff0000'), await frame('#0000ff')]);
    const gif = await sharp(frames, { raw: { width: 64, height: 128, channels: 3, pageHeight: 64 } } as never)
      .gif()
      .toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(2);
    const { outputs } = await run(gif, 'gif');
    const thumb = await size(outputs.get('thumb')!);
    expect(thumb).toMatchObject({ width: 64, height: 64 });
    const [r, , b] = await pixel(outputs.get('thumb')!, 32, 32);
    expect(r).toBeGreaterThan(200);
    expect(b).toBeLessThan(50);
  });

  it('reads BMP with its own decoder', async () => {
    const { outputs } = await run(makeBmp(30, 20, [0, 200, 0]), 'bmp');
    expect(await size(outputs.get('full')!)).toMatchObject({ width: 30, height: 20 });
    const [r, g] = await pixel(outputs.get('full')!, 10, 10);
    expect(r).toBeLessThan(30);
    expect(g).toBeGreaterThan(170);
  });

  it('makes a 256 px square profile picture', async () => {
    const path = join(dir, 'portrait.jpg');
    writeFileSync(
      path,
      await sharp({ create: { width: 300, height: 900, channels: 3, background: '#888' } })
        .jpeg()
        .toBuffer(),
    );
    expect(await size(await converter.displayImage(path, 'jpeg'))).toMatchObject({ width: 256, height: 256 });
  });
});

describe('hostile files', () => {
  it('refuses a pixel flood PNG (header claims 100000×100000) before decoding it', async () => {
    const started = Date.now();
    const err = await refusal(makePixelFloodPng(), 'png');
    expect(err.message).toBe('The image is too large (more than 50 megapixels)');
    expect(Date.now() - started).toBeLessThan(2000);
    await stillConverts();
  });

  it('refuses a zip-bomb DOCX in the pre-check, before LibreOffice sees it', async () => {
    const bomb = makeZipBombDocx(50);
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(sniffHead(bomb.subarray(0, 65536), 'bomb.docx')?.format).toBe('docx');
    const starts = converter.office.stats.starts;
    const err = await refusal(bomb, 'docx');
    expect(err.message).toBe('The document is too large once unpacked');
    expect(converter.office.stats.starts).toBe(starts);
    await stillConverts();
  });

  it('refuses an archive with too many entries and an encrypted one', async () => {
    const many = makeZip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      ...Array.from({ length: 10_001 }, (_, i) => ({ name: `word/p${i}.xml`, data: 'x' })),
    ]);
    expect((await refusal(many, 'docx')).message).toBe('The document contains too many parts');
    const encrypted = makeDocx(['secret']);
    encrypted.writeUInt16LE(encrypted.readUInt16LE(6) | 1, 6); // local header flag
    const cd = encrypted.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    for (let at = encrypted.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0 && at <= cd;) {
      encrypted.writeUInt16LE(encrypted.readUInt16LE(at + 8) | 1, at + 8);
      at = encrypted.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4);
    }
    expect((await refusal(encrypted, 'docx')).message).toBe('The file is protected by a password');
  });

  it('refuses a page-bomb DOCX (thousands of pages) within the timeout', async () => {
    const started = Date.now();
    const paragraphs = Array.from({ length: 3000 }, (_, i) => `page ${i + 1}`);
    const err = await refusal(makeDocx(paragraphs, { pageBreaks: true }), 'docx');
    expect(['The document has more than 300 pages', 'The document took too long to convert']).toContain(err.message);
    expect(Date.now() - started).toBeLessThan(65_000);
    await stillConverts();
  });

  it('refuses a PDF of more than 300 pages before drawing any', async () => {
    const outputs: string[] = [];
    const path = join(dir, 'long.pdf');
    writeFileSync(path, makePdf(301, 1));
    await expect(
      converter.convert(
        { path, format: 'pdf' },
        async (name) => void outputs.push(name),
        () => undefined,
      ),
    ).rejects.toThrow('The document has more than 300 pages');
    expect(outputs).toEqual([]);
  });

  it('rasterises an SVG with scripts: no script runs, no file is read, the result is WebP', async () => {
    const svg = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100" onload="document.getElementById('r').setAttribute('fill','lime')">
  <script>document.getElementById('r').setAttribute('fill', 'lime');</script>
  <rect id="r" width="100" height="100" fill="red"/>
  <image xlink:href="file:///etc/passwd" width="100" height="100"/>
  <image href="/etc/hostname" width="100" height="100"/>
</svg>`;
    expect(sniffHead(Buffer.from(svg), 'x.svg')?.format).toBe('svg');
    const { outputs } = await run(svg, 'svg');
    expect(await size(outputs.get('full')!)).toMatchObject({ width: 100, height: 100 });
    const [r, g] = await pixel(outputs.get('full')!, 50, 50);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(50);
  });

  it('treats a PDF/ZIP polyglot as the PDF it starts with', async () => {
    const polyglot = Buffer.concat([makePdf(2), makeDocx(['hidden document', 'b', 'c'], { pageBreaks: true })]);
    expect(sniffHead(polyglot.subarray(0, 65536), 'x.docx')?.format).toBe('pdf');
    const { result } = await run(polyglot, 'pdf');
    expect(result.pages).toBe(2);
  });

  it('refuses truncated PNG, PDF and DOCX files', async () => {
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#123' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect((await refusal(png.subarray(0, png.length / 2), 'png')).message).toBe(
      'The image is damaged or is not a valid image',
    );
    const pdf = makePdf(4);
    expect((await refusal(pdf.subarray(0, 40), 'pdf')).message).toBe('The file is damaged or is not a valid document');
    const docx = makeDocx(['a', 'b']);
    expect((await refusal(docx.subarray(0, docx.length / 2), 'docx')).message).toBe(
      'The file is damaged or is not a valid document',
    );
    await stillConverts();
  });

  it('kills an office that runs past its timeout and starts a fresh one for the next document', async () => {
    const slow = new Converter({ workDir: join(dir, 'slow'), log, office: { warm: true, timeoutMs: 50 } });
    try {
      await slow.whenReady();
      const group = slow.office.processGroup!;
      expect(group).toBeGreaterThan(0);
      const err = await refusal(
        makeDocx(
          Array.from({ length: 400 }, (_, i) => `p${i}`),
          { pageBreaks: true },
        ),
        'docx',
        slow,
      );
      expect(err.message).toBe('The document took too long to convert');
      expect(slow.office.stats.kills).toBe(1);
      // the whole process group (bridge and soffice) is gone
      expect(await groupGone(group)).toBe(true);
      // next document: a fresh office (which may again be too slow for 50 ms, but it answers)
      const second = await run(makeDocx(['x']), 'docx', slow).catch((e: unknown) => e);
      expect(slow.office.stats.starts).toBe(2);
      if (second instanceof Error) expect(second.message).toBe('The document took too long to convert');
    } finally {
      await slow.close();
    }
    await stillConverts();
  });
});
