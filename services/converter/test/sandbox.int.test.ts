/**
 * Issue 25 §1: a document that links a picture outside its own folder (DOCX external image
 * relationship, absolute and relative; ODT draw:image; RTF INCLUDEPICTURE) must not draw it. The
 * picture is a solid magenta PNG written to /tmp here; the page image must hold no magenta. The
 * same documents through an unsandboxed office (Sandbox.disabled(), the old behaviour) do draw
 * it: that is what makes these tests able to fail.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createLogger } from '@wb/platform';
import type { FileFormat } from '@wb/proto';
import { ConversionError, Converter, Sandbox } from '../src/conversion';
import { makeDocxLinkedImage, makeOdtLinkedImage, makeRtfIncludePicture } from './fixtures';

jest.setTimeout(180_000);

const log = createLogger({ service: 'converter', level: 'silent' });
let dir: string;
let magenta: string;
let sandboxed: Converter;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-converter-sandbox-'));
  chmodSync(dir, 0o755); // the sandbox user walks through it to its job folders
  magenta = join(tmpdir(), `wb-secret-${process.pid}.png`);
  await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 255, g: 0, b: 255 } } })
    .png()
    .toFile(magenta);
  chmodSync(magenta, 0o644);
  // the profile's link settings off: the sandbox alone must hold
  sandboxed = new Converter({ workDir: join(dir, 'work'), log, office: { warm: true, hardenProfile: false } });
  await sandboxed.whenReady();
});
afterAll(async () => {
  await sandboxed?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(magenta, { force: true });
});

let n = 0;
/** magenta pixels of the first page (or null when the conversion was refused cleanly) */
async function magentaPixels(using: Converter, bytes: Buffer | string, format: FileFormat): Promise<number | null> {
  const path = join(dir, `in-${++n}`);
  writeFileSync(path, bytes);
  const outputs = new Map<string, Buffer>();
  try {
    await using.convert(
      { path, format },
      async (name, data) => {
        outputs.set(name, data);
      },
      () => undefined,
    );
  } catch (err) {
    expect(err).toBeInstanceOf(ConversionError);
    return null;
  }
  const { data, info } = await sharp(outputs.get('0-full')!).raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (data[i]! > 200 && data[i + 1]! < 80 && data[i + 2]! > 200) count++;
  }
  return count;
}

const cases = (): [string, () => Buffer | string, FileFormat][] => [
  ['DOCX external image file:///', () => makeDocxLinkedImage(`file://${magenta}`), 'docx'],
  ['DOCX external image ../../', () => makeDocxLinkedImage(`${'../'.repeat(12)}${magenta.slice(1)}`), 'docx'],
  ['ODT draw:image file:///', () => makeOdtLinkedImage(`file://${magenta}`), 'odt'],
  ['RTF INCLUDEPICTURE', () => makeRtfIncludePicture(magenta), 'rtf'],
];

describe('the profile alone (no sandbox) draws no linked picture either', () => {
  let hardened: Converter;
  beforeAll(async () => {
    hardened = new Converter({ workDir: join(dir, 'hardened'), log, sandbox: Sandbox.disabled() });
    await hardened.whenReady();
  });
  afterAll(() => hardened?.close());
  test.each(cases())('%s', async (_name, make, format) => {
    const count = await magentaPixels(hardened, make(), format);
    expect(count === null || count === 0).toBe(true);
  });
});

describe('sandboxed office', () => {
  test('the sandbox is in use', () => {
    expect(sandboxed.sandbox.mode).not.toBe('none');
  });
  test.each(cases())('%s: the linked picture is not drawn', async (_name, make, format) => {
    const count = await magentaPixels(sandboxed, make(), format);
    expect(count === null || count === 0).toBe(true);
  });
});

describe('the probe files do link the picture (an office without the sandbox draws it)', () => {
  let open: Converter;
  beforeAll(async () => {
    open = new Converter({
      workDir: join(dir, 'open'),
      log,
      sandbox: Sandbox.disabled(),
      office: { hardenProfile: false },
    });
    await open.whenReady();
  });
  afterAll(() => open?.close());
  // LibreOffice 7.4 here draws no INCLUDEPICTURE of an RTF even unsandboxed: RTF is checked above only
  test.each(cases().filter(([, , format]) => format !== 'rtf'))('%s', async (_name, make, format) => {
    expect(await magentaPixels(open, make(), format)).toBeGreaterThan(1000);
  });
});
