/// <reference types="jest" />
/// <reference types="node" />
/**
 * What is drawn is what is exported and bound (issue 26 #1, #3, #4), in Debian's Chromium against
 * the real stack:
 * - a board holding every kind of object (a pen stroke, then a graph `y = x^2` and a formula made in
 *   their panels, then everything else above them in z order: lines, arc, polyline, curve, the seven
 *   shapes, an outline-bound connector, sticky notes, text, an image and a document page, whose
 *   files do not exist and so are placeholders in every output) exports to PNG and to PDF; the
 *   PDF's page, rendered by poppler's pdftoppm, matches the PNG cell by cell (the PDF used to lose
 *   its page transform after a graph: text mirrored across the graph, shapes missing);
 * - a sticky note's words stay whole in the PDF's text;
 * - a connector drawn between two outline rectangles (fill None) binds both ends and follows a move.
 * Screenshots go to artifacts/e2e (fidelity-*.png).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { packPoints, SHAPE_KINDS } from '@wb/proto';
import { e2eReady, SHOTS } from './chromium';
import { drag, hook, live, pickTool, startBoardStack, until, type BoardStack } from './boardStack';

const maybe = e2eReady ? describe : describe.skip;
const PDFTOPPM = '/usr/bin/pdftoppm';

/** a signed-up teacher on a new board of her own, live */
async function newBoard(stack: BoardStack, name: string, title: string): Promise<Page> {
  const { page } = await stack.newUser(name);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole('button', { name: 'New board' }).click();
  const dialog = page.getByRole('dialog', { name: 'New board' });
  await dialog.getByLabel('Board name').fill(title);
  await dialog.getByRole('button', { name: 'Create board' }).click();
  await page.waitForURL(/\/boards\/[A-Za-z0-9_-]{21}$/);
  await live(page);
  return page;
}

/** packed points as plain numbers (the page turns them back into bytes) */
const packed = (pts: number[]) => Array.from(packPoints(pts));

/**
 * Two images compared on a grid after cropping each to its ink: every cell's mean darkness
 * (0 white … 1 black, transparent = white). Returns the mean and the largest cell difference, and
 * the cells that differ most (for the failure message).
 */
async function compareImages(page: Page, a: Buffer, b: Buffer, cols: number) {
  return page.evaluate(
    async ([aB64, bB64, n]) => {
      const grid = async (b64: string) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const g = canvas.getContext('2d')!;
        g.fillStyle = '#fff';
        g.fillRect(0, 0, bitmap.width, bitmap.height);
        g.drawImage(bitmap, 0, 0);
        const { data, width, height } = g.getImageData(0, 0, bitmap.width, bitmap.height);
        const dark = (i: number) => 1 - (data[i]! + data[i + 1]! + data[i + 2]!) / 765;
        // the ink's box: pixels clearly darker than paper
        let minX = width;
        let minY = height;
        let maxX = -1;
        let maxY = -1;
        for (let y = 0; y < height; y++)
          for (let x = 0; x < width; x++)
            if (dark((y * width + x) * 4) > 0.08) {
              if (x < minX) minX = x;
              if (x > maxX) maxX = x;
              if (y < minY) minY = y;
              if (y > maxY) maxY = y;
            }
        const w = maxX - minX + 1;
        const h = maxY - minY + 1;
        const rows = Math.max(1, Math.round((n * h) / w));
        const sums = new Float64Array(n * rows);
        const counts = new Float64Array(n * rows);
        for (let y = minY; y <= maxY; y++)
          for (let x = minX; x <= maxX; x++) {
            const c = Math.min(n - 1, Math.floor(((x - minX) / w) * n));
            const r = Math.min(rows - 1, Math.floor(((y - minY) / h) * rows));
            sums[r * n + c] += dark((y * width + x) * 4);
            counts[r * n + c]++;
          }
        return { cells: Array.from(sums, (s, i) => s / Math.max(1, counts[i]!)), rows, box: [minX, minY, w, h] };
      };
      const ga = await grid(aB64 as string);
      const gb = await grid(bB64 as string);
      if (ga.rows !== gb.rows) return { rows: [ga.rows, gb.rows], mean: 1, max: 1, worst: [], boxes: [ga.box, gb.box] };
      const diffs = ga.cells.map((v, i) => Math.abs(v - gb.cells[i]!));
      const worst = diffs
        .map((d, i) => ({ d: Math.round(d * 1000) / 1000, col: i % (n as number), row: Math.floor(i / (n as number)) }))
        .sort((x, y) => y.d - x.d)
        .slice(0, 5);
      return {
        rows: [ga.rows, gb.rows],
        mean: diffs.reduce((s, d) => s + d, 0) / diffs.length,
        max: Math.max(...diffs),
        worst,
        boxes: [ga.box, gb.box],
      };
    },
    [a.toString('base64'), b.toString('base64'), cols] as const,
  );
}

/** the PDF's text strings ((literal) Tj), content streams inflated */
function pdfStrings(pdf: Buffer): string[] {
  const raw = pdf.toString('latin1');
  const out: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const chunk = pdf.subarray(start, raw.indexOf('endstream', start));
    let text: string;
    try {
      text = inflateSync(chunk).toString('latin1');
    } catch {
      text = chunk.toString('latin1');
    }
    for (const t of text.matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g)) out.push(t[1]!);
  }
  return out;
}

maybe('what is drawn is what is exported and bound', () => {
  let stack: BoardStack;
  let work: string;
  beforeAll(async () => {
    if (!existsSync(PDFTOPPM)) throw new Error(`${PDFTOPPM} is missing: install poppler-utils (.ci/run does)`);
    work = mkdtempSync(join(tmpdir(), 'wb-fidelity-e2e-'));
    stack = await startBoardStack();
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('a board with every kind: the PDF page matches the PNG; sticky words stay whole', async () => {
    const page = await newBoard(stack, 'Tess', 'Every kind');

    // as the issue found it: a pen stroke, then a graph y = x^2 and a formula from their panels
    await pickTool(page, 'pen');
    await drag(page, { x: 300, y: 200 }, { x: 420, y: 260 });
    await until(page, 'the stroke', (h) => h.shapes().some((s) => s.kind === 'pen'));
    await pickTool(page, 'graph');
    await page.mouse.click(640, 260);
    const graphPanel = page.getByRole('region', { name: 'Graph editor' });
    await graphPanel.locator('.graph-input').first().fill('x^2');
    await until(page, 'the graph', (h) => h.shapes().some((s) => s.kind === 'graph' && String(s.spec).includes('x^2')));
    await graphPanel.getByRole('button', { name: 'Done' }).click();
    await until(page, 'the graph panel closed', (h) => h.editor?.getState().editing === null);
    await pickTool(page, 'formula');
    await page.mouse.click(330, 420);
    const formulaPanel = page.getByRole('region', { name: 'Formula editor' });
    await formulaPanel.getByLabel('LaTeX').fill('x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}');
    await until(page, 'the formula', (h) =>
      h.shapes().some((s) => s.kind === 'formula' && String(s.latex).includes('sqrt')),
    );
    await formulaPanel.getByRole('button', { name: 'Done' }).click();
    await until(page, 'the formula panel closed', (h) => h.editor?.getState().editing === null);

    // everything else above them, placed in one step next to what the tools made
    const graph = (await hook(page, (h) => h.shapes().find((s) => s.kind === 'graph')!))!;
    const ox = graph.x as number;
    const oy = (graph.y as number) + (graph.h as number) + 40;
    const black = 0x212121;
    const kinds = ['rectangle', 'ellipse', 'triangle', 'diamond', 'star', 'hexagon', 'arrow'];
    const records: Record<string, unknown>[] = [
      ...kinds.map((shapeType, i) => ({
        kind: 'shape',
        shapeType,
        x: ox + i * 130,
        y: oy,
        w: 110,
        h: 80,
        strokeColor: [0xe53935, 0x1e88e5, 0x43a047, 0x8e24aa, 0xfb8c00, 0x00897b, black][i],
        strokeWidth: 3,
        ...(i % 2 ? { fill: 'solid', fillColor: 0xffe082 } : {}),
        ...(i === 0 ? { text: 'Label text' } : {}),
      })),
      {
        kind: 'line',
        x: ox,
        y: oy + 130,
        strokeColor: black,
        strokeWidth: 3,
        points: packed([0, 0, 200, 30]),
        arrowEnd: true,
      },
      {
        kind: 'arc',
        x: ox + 320,
        y: oy + 160,
        strokeColor: 0x1e88e5,
        strokeWidth: 3,
        r: 50,
        startAngle: 0,
        endAngle: 3,
      },
      {
        kind: 'polyline',
        x: ox + 420,
        y: oy + 120,
        strokeColor: 0x43a047,
        strokeWidth: 3,
        points: packed([0, 0, 80, 20, 40, 80]),
        closed: true,
      },
      {
        kind: 'curve',
        x: ox + 540,
        y: oy + 120,
        strokeColor: 0x8e24aa,
        strokeWidth: 3,
        points: packed([0, 60, 50, 0, 100, 60, 150, 0]),
      },
      { kind: 'sticky', x: ox, y: oy + 240, w: 200, h: 200, text: 'Homework: p. 42', color: 0xfff59d },
      { kind: 'sticky', x: ox + 230, y: oy + 240, w: 200, h: 200, text: 'After graph', color: 0xa5d6a7 },
      {
        kind: 'text',
        x: ox + 460,
        y: oy + 250,
        w: 260,
        text: 'A text box under the graph',
        font: 'sans-serif',
        fontSize: 24,
        color: black,
      },
      { kind: 'image', x: ox + 760, y: oy + 240, w: 160, h: 120, fileId: 'missing-image' },
      { kind: 'documentPage', x: ox + 760, y: oy + 380, w: 120, h: 160, fileId: 'missing-document', page: 0 },
    ];
    const ids = await hook(
      page,
      (h, recs) =>
        h.editor!.addShapes(
          recs.map((r) => ('points' in r ? { ...r, points: Uint8Array.from(r.points as number[]) } : r)) as never,
        ),
      records,
    );
    expect(ids).toHaveLength(records.length);
    // a connector between the two outline rectangles' neighbours: the rectangle (0) and the triangle (2)
    const [rectId, , triId] = ids!;
    await hook(
      page,
      (h, [from, to, pts]) =>
        h.editor!.addShapes([
          {
            kind: 'connector',
            x: 0,
            y: 0,
            points: Uint8Array.from(pts as number[]),
            fromId: from,
            toId: to,
            fromAnchor: 'auto',
            toAnchor: 'auto',
            strokeColor: 0x212121,
            strokeWidth: 2,
            arrowEnd: true,
          } as never,
        ]),
      [rectId!, triId!, packed([0, 0, 10, 10])] as const,
    );
    const all = await hook(page, (h) => h.shapes().map((s) => s.kind));
    for (const kind of SHAPE_KINDS) expect(all).toContain(kind);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+1'); // zoom to fit
    await page.waitForTimeout(1500); // MathJax, function-plot and the placeholders
    await page.screenshot({ path: join(SHOTS, 'fidelity-board-1440.png') });

    const exportAs = async (action: 'export-png' | 'export-pdf'): Promise<string> => {
      await page.locator('[data-action="board-menu"]').click();
      await page.locator('[data-action="export"]').click();
      const download = page.waitForEvent('download');
      await page.locator(`[data-action="${action}"]`).click();
      const file = await download;
      const path = join(work, file.suggestedFilename());
      await file.saveAs(path);
      return path;
    };
    const png = readFileSync(await exportAs('export-png'));
    const pdfPath = await exportAs('export-pdf');
    const pdf = readFileSync(pdfPath);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    execFileSync(PDFTOPPM, ['-png', '-r', '150', '-f', '1', '-l', '1', pdfPath, join(work, 'page')]);
    const pagePng = readFileSync(join(work, existsSync(join(work, 'page-1.png')) ? 'page-1.png' : 'page-01.png'));
    writeFileSync(join(SHOTS, 'fidelity-pdf-page.png'), pagePng);
    writeFileSync(join(SHOTS, 'fidelity-png-export.png'), png);

    // cell by cell, each cropped to its ink: 48 columns (cells of ~1 % of the board's width)
    const cmp = await compareImages(page, png, pagePng, 48);
    process.stdout.write(`PDF vs PNG: ${JSON.stringify(cmp)}\n`);
    expect(cmp.rows[0]).toBe(cmp.rows[1]);
    expect(cmp.mean).toBeLessThan(0.02);
    expect(cmp.max).toBeLessThan(0.2);

    // the notes' words are whole in the PDF's text (the standard font: literal strings)
    const strings = pdfStrings(pdf);
    expect(strings).toEqual(expect.arrayContaining(['Homework:', 'p. 42', 'After', 'graph']));
    expect(strings.join('|')).not.toMatch(/Homew\|/);
    // the graph's negative tick labels: an en dash (WinAnsi 0x96), never U+2212's broken bytes ("\x12)
    expect(strings.some((s) => s.includes('\x96'))).toBe(true);
    expect(strings.some((s) => s.includes('"') || s.includes(String.fromCharCode(0x12)))).toBe(false);

    // the same board on a phone in the dark theme
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => localStorage.setItem('wb.theme', 'dark'));
    await page.reload();
    await live(page);
    await page.keyboard.press('Shift+1');
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(SHOTS, 'fidelity-board-390-dark.png') });
  }, 240_000);

  test('a connector between two outline rectangles binds both ends and follows a move', async () => {
    const page = await newBoard(stack, 'Otto', 'Outline shapes');
    const ids: string[] = [];
    for (const [from, to] of [
      [
        { x: 400, y: 300 },
        { x: 560, y: 420 },
      ],
      [
        { x: 800, y: 300 },
        { x: 960, y: 420 },
      ],
    ] as const) {
      await pickTool(page, 'rectangle');
      await drag(page, from, to);
      await until(
        page,
        'the rectangle',
        (h, n) => h.shapes().filter((s) => s.kind === 'shape').length === n,
        ids.length + 1,
      );
      const shapes = await hook(page, (h) => h.shapes().filter((s) => s.kind === 'shape'));
      ids.push(shapes.find((s) => !ids.includes(s.id))!.id);
    }
    // outlines: no fill, as the shape tools draw by default
    const rects = await hook(page, (h, list) => h.shapes().filter((s) => list.includes(s.id)), ids);
    for (const r of rects) expect(r.fill === undefined || r.fill === 'none' || r.fillColor == null).toBe(true);

    // from the middle of one to the middle of the other: inside, far from either outline
    await pickTool(page, 'connector');
    await drag(page, { x: 480, y: 360 }, { x: 880, y: 360 });
    await until(page, 'the connector', (h) => h.shapes().some((s) => s.kind === 'connector'));
    const connector = (await hook(page, (h) => h.shapes().find((s) => s.kind === 'connector')!))!;
    expect(connector).toMatchObject({ fromId: ids[0], toId: ids[1] });
    await page.screenshot({ path: join(SHOTS, 'fidelity-connector-1440.png') });

    // move the second rectangle down by its top edge: the connector's end goes with it
    await pickTool(page, 'select');
    // (on the edge between its handles: the middle of an edge is a resize handle once selected)
    await page.mouse.click(840, 300);
    await drag(page, { x: 840, y: 300 }, { x: 840, y: 500 });
    const startY = rects.find((r) => r.id === ids[1])!.y as number;
    await until(
      page,
      'the rectangle moved down',
      (h, [id, y]) => h.shapes().some((s) => s.id === id && s.y > (y as number) + 50),
      [ids[1]!, startY] as const,
    );
    await until(
      page,
      'the connector follows',
      (h, [cid, rid]) => {
        const c = h.editor!.scene.get(cid)!;
        const r = h.editor!.scene.get(rid)!.shape as { x: number; y: number; w: number; h: number };
        const pts = c.points;
        const ex = c.shape.x + pts[pts.length - 2]!;
        const ey = c.shape.y + pts[pts.length - 1]!;
        // the end sits on the moved rectangle's box
        return ex >= r.x - 1 && ex <= r.x + r.w + 1 && ey >= r.y - 1 && ey <= r.y + r.h + 1;
      },
      [connector.id, ids[1]!] as const,
    );
    const after = (await hook(page, (h, id) => h.shapes().find((s) => s.id === id)!, connector.id))!;
    expect(after).toMatchObject({ fromId: ids[0], toId: ids[1] });
    await page.screenshot({ path: join(SHOTS, 'fidelity-connector-moved-1440.png') });
    // a phone and the dark theme
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => localStorage.setItem('wb.theme', 'dark'));
    await page.reload();
    await live(page);
    await page.keyboard.press('Shift+1'); // zoom to fit
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(SHOTS, 'fidelity-connector-390-dark.png') });
  }, 180_000);
});
