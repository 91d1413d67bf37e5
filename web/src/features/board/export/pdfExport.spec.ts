/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/** The PDF is vector: path operators for strokes and shapes, text as text, no embedded image. */
import { readFileSync, writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { rec, sceneOf } from './exportTesting';
import { toBase64, type FontLoader } from './fonts';
import { exportPdf, latinText, pdfPages, standardFont, unicodeText, type PdfExportOptions } from './pdfExport';

/** DejaVu from node_modules (the app fetches the built asset), counting loads per font */
function fsFonts(): FontLoader & { loads: string[] } {
  const loads: string[] = [];
  const load = async (name: string) => {
    loads.push(name);
    const b = readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}.ttf`));
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  };
  return Object.assign(load, { loads });
}

/** the embedded fonts' ToUnicode maps (glyph id → character), merged */
function toUnicode(pdf: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const block of pdf.matchAll(/beginbfchar\n([\s\S]*?)endbfchar/g))
    for (const m of block[1]!.matchAll(/<([0-9a-f]{4})><([0-9a-f]{4})>/g))
      map.set(parseInt(m[1]!, 16), String.fromCharCode(parseInt(m[2]!, 16)));
  return map;
}

/** WinAnsiEncoding's 0x80–0x9f (the rest is Latin-1) */
const WIN_ANSI_80 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const winAnsi = (s: string) => s.replace(/[\x80-\x9f]/g, (c) => WIN_ANSI_80[c.charCodeAt(0) - 0x80]!);

/** every string the page shows, in order: (literal) Tj in WinAnsi, <glyph ids> Tj through ToUnicode */
function shownText(pdf: string): string[] {
  const map = toUnicode(pdf);
  return [...pdf.matchAll(/(?:\((.*)\)|<([0-9a-f]*)>) Tj$/gm)].map(([, lit, hex]) =>
    lit !== undefined
      ? winAnsi(lit)
      : [...hex!.matchAll(/.{4}/g)].map(([g]) => map.get(parseInt(g, 16)) ?? `<${g}>`).join(''),
  );
}

const fitA4 = {
  paper: 'a4',
  orientation: 'portrait',
  layout: 'fit',
  background: false,
  boardBackground: 'empty',
} as const;

async function exported(scene: ReturnType<typeof sceneOf>, opts: Partial<PdfExportOptions> = {}) {
  const notices: unknown[] = [];
  const blob = await exportPdf(scene, scene.bounds()!, { ...fitA4, onNotice: (n) => notices.push(n), ...opts });
  const raw = Buffer.from(await blob.arrayBuffer()).toString('latin1');
  return { blob, raw, pdf: await contents(blob), notices };
}

/** the page content streams, inflated */
/** page sizes in points, from the MediaBoxes */
const mediaBoxes = (raw: string) =>
  [...raw.matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((m) => [
    Math.round(Number(m[1]) * 100) / 100,
    Math.round(Number(m[2]) * 100) / 100,
  ]);

async function contents(blob: Blob): Promise<string> {
  const bytes = Buffer.from(await blob.arrayBuffer());
  const raw = bytes.toString('latin1');
  const out: string[] = [];
  const re = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw))) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    const chunk = bytes.subarray(start, end);
    try {
      out.push(inflateSync(chunk).toString('latin1'));
    } catch {
      out.push(chunk.toString('latin1'));
    }
  }
  return out.join('\n');
}

const board = () =>
  sceneOf([
    rec.pen([0, 0, 40, 10, 80, 0], { x: 10, y: 10 }),
    rec.shape({ x: 100, y: 100, fillColor: 0xe53935, fill: 'solid', rotation: 0.5 }),
    rec.line([0, 0, 200, 0], { x: 0, y: 300, arrowEnd: true, linePattern: 'dashed' }),
    rec.text('Hello Wörld', { x: 0, y: 400 }),
    rec.sticky('note text', { x: 300, y: 0 }),
  ]);

test('a fitted A4 page holds vector paths, fills and text, and no image', async () => {
  const scene = board();
  const region = scene.bounds()!;
  const blob = await exportPdf(scene, region, {
    paper: 'a4',
    orientation: 'portrait',
    layout: 'fit',
    background: false,
    boardBackground: 'empty',
  });
  if (process.env.EXPORT_PDF_OUT) writeFileSync(process.env.EXPORT_PDF_OUT, Buffer.from(await blob.arrayBuffer()));
  const pdf = await contents(blob);
  expect(pdf).toMatch(/^[\d.-]+ [\d.-]+ m$/m);
  expect(pdf).toMatch(/^[\d.-]+ [\d.-]+ l$/m);
  expect(pdf).toMatch(/^S$/m);
  expect(pdf).toMatch(/^f$/m);
  // the rotated shape's own transform, the dashed line's pattern, the text
  expect(pdf).toMatch(/ cm$/m);
  expect(pdf).toMatch(/^\[[\d.]+ [\d.]+\] [\d.]+ d$/m);
  expect(pdf).toMatch(/\(Hello W\xf6rld\) Tj/);
  expect(pdf).toMatch(/\(note\) Tj/);
  const raw = Buffer.from(await blob.arrayBuffer()).toString('latin1');
  expect(raw).not.toMatch(/\/Subtype \/Image/);
  expect(mediaBoxes(raw)).toEqual([[595.28, 841.89]]);
});

test('a sticky note\'s words stay whole in the PDF (issue 26 #3: not "Homew / ork: p. / 42")', async () => {
  const { pdf } = await exported(sceneOf([rec.sticky('Homework: p. 42', { x: 0, y: 0, w: 200, h: 200 })]));
  expect(shownText(pdf)).toEqual(['Homework:', 'p. 42']);
});

test('split pages: one PDF page per tile, each clipped to its tile', async () => {
  const scene = sceneOf([rec.shape({ x: 0, y: 0, w: 2000, h: 1200 })]);
  const region = scene.bounds()!;
  const opts = { paper: 'letter', orientation: 'landscape', layout: 'split' } as const;
  const pages = pdfPages(scene, region, opts);
  expect(pages.length).toBeGreaterThan(1);
  const blob = await exportPdf(scene, region, { ...opts, background: false, boardBackground: 'empty' });
  const raw = Buffer.from(await blob.arrayBuffer()).toString('latin1');
  expect(raw.match(/\/Type \/Page\b/g)).toHaveLength(pages.length);
  expect(new Set(mediaBoxes(raw).map(String))).toEqual(new Set(['792,612']));
  expect(await contents(blob)).toMatch(/^W$/m);
});

test('document pages: one page each, portrait for a portrait page', async () => {
  const scene = sceneOf([
    rec.documentPage(1, 0, 0),
    rec.documentPage(2, 0, 900),
    rec.pen([0, 0, 50, 50], { x: 20, y: 20 }),
  ]);
  const opts = { paper: 'a4', orientation: 'landscape', layout: 'documentPages' } as const;
  const blob = await exportPdf(scene, scene.bounds()!, { ...opts, background: false, boardBackground: 'empty' });
  const raw = Buffer.from(await blob.arrayBuffer()).toString('latin1');
  expect(mediaBoxes(raw)).toEqual([
    [595.28, 841.89],
    [595.28, 841.89],
  ]);
});

test('document pages mode without document pages is a clear error', async () => {
  const scene = board();
  await expect(
    exportPdf(scene, scene.bounds()!, {
      paper: 'a4',
      orientation: 'portrait',
      layout: 'documentPages',
      background: false,
      boardBackground: 'empty',
    }),
  ).rejects.toMatchObject({ name: 'ExportError', code: 'empty' });
});

test('the standard fonts take Latin-1 (and WinAnsi) text; the rest needs another font', () => {
  expect(latinText('Grüße – “ok”')).toEqual({ text: 'Grüße – “ok”', replaced: false });
  expect(latinText('Привет x')).toEqual({ text: '?????? x', replaced: true });
  const has = (code: number) => code < 0x3000;
  expect(unicodeText('Ωł\tя 中 😀', has)).toEqual({ text: 'Ωłя ? ?', replaced: true });
  expect(unicodeText('Şişli ğ ı', has)).toEqual({ text: 'Şişli ğ ı', replaced: false });
});

test('font bytes become base64 for jsPDF (chunked)', () => {
  const bytes = Uint8Array.from({ length: 20_000 }, (_, i) => (i * 7919) & 255);
  expect(toBase64(bytes.buffer)).toBe(Buffer.from(bytes).toString('base64'));
});

test('Cyrillic, Greek and Polish text is written with the DejaVu font of its family, embedded', async () => {
  const fonts = fsFonts();
  const scene = sceneOf([
    rec.text('Привет, мир! Їжак', { x: 0, y: 0 }),
    rec.text('α² + β² = γ² ≤ π·∑', { x: 0, y: 100, font: 'serif' }),
    rec.text('код = 1', { x: 0, y: 200, font: 'monospace' }),
    rec.sticky('Zażółć gęślą jaźń', { x: 400, y: 0 }),
    rec.text('Hello Wörld', { x: 0, y: 400 }),
  ]);
  const { raw, pdf, notices } = await exported(scene, { loadFont: fonts });
  expect(notices).toEqual([]);
  expect(raw).toMatch(/\/FontFile2 \d+ 0 R/);
  for (const name of ['DejaVuSans', 'DejaVuSerif', 'DejaVuSansMono']) expect(raw).toContain(`/BaseFont /${name}\n`);
  expect(fonts.loads.sort()).toEqual(['DejaVuSans', 'DejaVuSansMono', 'DejaVuSerif']);
  const shown = shownText(pdf);
  expect(shown).toEqual(expect.arrayContaining(['Привет, мир! Їжак', 'α² + β² = γ² ≤ π·∑', 'код = 1', 'Hello Wörld']));
  // the sticky note wraps its words; none of them lost a letter
  expect(shown.join(' ')).toMatch(/Zażółć\s+gęślą\s+jaźń/);
  expect(shown.join('')).not.toContain('?');
  // Latin-1 text stays on Helvetica, as a literal string
  expect(pdf).toMatch(/\(Hello W\xf6rld\) Tj/);
});

test('Turkish letters embed the font, once loaded per session; Estonian š/ž are WinAnsi', async () => {
  const fonts = fsFonts();
  const turkish = sceneOf([rec.text('Ağaç, şişe, ılık')]);
  const first = await exported(turkish, { loadFont: fonts });
  const again = await exported(turkish, { loadFont: fonts });
  for (const { raw, pdf, notices } of [first, again]) {
    expect(notices).toEqual([]);
    expect(raw).toContain('/BaseFont /DejaVuSans\n');
    expect(shownText(pdf)).toEqual(['Ağaç, şişe, ılık']);
  }
  expect(fonts.loads).toEqual(['DejaVuSans']);
  // õ ä ö ü are Latin-1 and š ž WinAnsi: Helvetica shows them, no font is embedded
  const estonian = await exported(sceneOf([rec.text('Tšaikovski žürii õues')]), { loadFont: fonts });
  expect(estonian.raw).not.toContain('/FontFile2');
  expect(shownText(estonian.pdf)).toEqual(['Tšaikovski žürii õues']);
  expect(estonian.notices).toEqual([]);
});

test('Latin-only text embeds no font file', async () => {
  const fonts = fsFonts();
  const { raw, notices } = await exported(board(), { loadFont: fonts });
  expect(fonts.loads).toEqual([]);
  expect(raw).not.toContain('/FontFile2');
  expect(raw).not.toContain('DejaVu');
  expect(notices).toEqual([]);
});

test('characters even DejaVu lacks (CJK, emoji) are still "?" and reported', async () => {
  const fonts = fsFonts();
  const scene = sceneOf([rec.text('Привет 中文 😀!')]);
  const { raw, pdf, notices } = await exported(scene, { loadFont: fonts });
  expect(raw).toContain('/BaseFont /DejaVuSans\n');
  expect(shownText(pdf)).toEqual(['Привет ?? ?!']);
  expect(notices).toEqual([{ code: 'missingGlyphs' }]);
});

test('a font that cannot be loaded leaves the text on the standard font, reported', async () => {
  const scene = sceneOf([rec.text('Привет x')]);
  const failing: FontLoader = () => Promise.reject(new Error('offline'));
  const { raw, pdf, notices } = await exported(scene, { loadFont: failing });
  expect(raw).not.toContain('/FontFile2');
  expect(shownText(pdf)).toEqual(['?????? x']);
  expect(notices).toEqual([{ code: 'missingGlyphs' }]);
  // not a TrueType file (an HTML page from a wrong URL): the same
  const html: FontLoader = async () => new TextEncoder().encode('<!doctype html><html></html>').buffer as ArrayBuffer;
  const second = await exported(scene, { loadFont: html });
  expect(second.raw).not.toContain('/FontFile2');
  expect(second.notices).toEqual([{ code: 'missingGlyphs' }]);
});

/** 60 notes and 60 texts of one language: the PDF's size and time (EXPORT_PDF_SIZES=1 prints them) */
test('a Cyrillic board costs one subset font (tens of KB), not the whole file', async () => {
  const sentence = {
    latin: 'The quick brown fox jumps over the lazy dog while the class takes notes',
    cyrillic: 'Съешь же ещё этих мягких французских булок, да выпей чаю, класс пишет',
  };
  const boardOf = (s: string) =>
    sceneOf(
      Array.from({ length: 60 }, (_, i) => [
        rec.sticky(`${s} ${i}`, { x: (i % 10) * 220, y: Math.floor(i / 10) * 440 }),
        rec.text(`${i}. ${s}`, { x: (i % 10) * 220, y: Math.floor(i / 10) * 440 + 220, w: 200 }),
      ]).flat(),
    );
  const fonts = fsFonts();
  const sizes: Record<string, { bytes: number; ms: number }> = {};
  for (const [label, text] of [
    ['latin', sentence.latin],
    ['cyrillic (cold: read, base64, parse)', sentence.cyrillic],
    ['cyrillic (font cached)', sentence.cyrillic],
  ] as const) {
    const t0 = performance.now();
    const { blob, notices } = await exported(boardOf(text), { loadFont: fonts });
    sizes[label] = { bytes: blob.size, ms: Math.round(performance.now() - t0) };
    expect(notices).toEqual([]);
  }
  if (process.env.EXPORT_PDF_SIZES) console.log(sizes);
  const extra = sizes['cyrillic (font cached)']!.bytes - sizes.latin!.bytes;
  expect(extra).toBeGreaterThan(10_000);
  expect(extra).toBeLessThan(150_000);
});

test('board fonts map to the closest standard font', () => {
  expect(standardFont('sans-serif')).toBe('helvetica');
  expect(standardFont('Open Sans')).toBe('helvetica');
  expect(standardFont('serif')).toBe('times');
  expect(standardFont('monospace')).toBe('courier');
});
