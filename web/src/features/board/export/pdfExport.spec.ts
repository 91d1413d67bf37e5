/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/** The PDF is vector: path operators for strokes and shapes, text as text, no embedded image. */
import { writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { rec, sceneOf } from './exportTesting';
import { exportPdf, latinText, pdfPages, standardFont } from './pdfExport';

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

test('text beyond Latin-1 is replaced and reported', async () => {
  expect(latinText('Grüße – “ok”')).toEqual({ text: 'Grüße – “ok”', replaced: false });
  expect(latinText('Привет x')).toEqual({ text: '?????? x', replaced: true });
  const notices: unknown[] = [];
  const scene = sceneOf([rec.text('Привет')]);
  await exportPdf(scene, scene.bounds()!, {
    paper: 'a4',
    orientation: 'portrait',
    layout: 'fit',
    background: false,
    boardBackground: 'empty',
    onNotice: (n) => notices.push(n),
  });
  expect(notices).toEqual([{ code: 'latinOnly' }]);
});

test('board fonts map to the closest standard font', () => {
  expect(standardFont('sans-serif')).toBe('helvetica');
  expect(standardFont('Open Sans')).toBe('helvetica');
  expect(standardFont('serif')).toBe('times');
  expect(standardFont('monospace')).toBe('courier');
});
