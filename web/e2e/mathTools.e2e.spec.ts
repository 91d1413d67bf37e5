/// <reference types="jest" />
/// <reference types="node" />
/**
 * Board editor part 2 end to end (issue 14) in Debian's Chromium, two people on one board: a
 * formula typed by one appears (typeset) for the other and survives a reload; a bad LaTeX or a bad
 * expression shows its error in the panel and leaves the board alone; a graph likewise; the
 * compass draws an arc the other person sees; the board exports to PNG with the board's ink and
 * to a vector PDF that poppler's pdftoppm renders to a page showing the ink. Screenshots go to
 * artifacts/e2e (math-*.png).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { e2eReady, SHOTS } from './chromium';
import { hook, live, startBoardStack, twoOnNewBoard, until, type BoardStack } from './boardStack';

const maybe = e2eReady ? describe : describe.skip;
const PDFTOPPM = '/usr/bin/pdftoppm';

async function pickTool(page: Page, id: string): Promise<void> {
  await page.locator(`.board-toolbar [data-tool="${id}"]`).first().click();
  await until(page, `the ${id} tool`, (h, t) => h.editor?.getState().tool === t, id);
}

/** share of pixels in a PNG (decoded by the page) that are clearly darker than paper */
async function inkShare(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const g = canvas.getContext('2d')!;
    g.drawImage(bitmap, 0, 0);
    const { data } = g.getImageData(0, 0, bitmap.width, bitmap.height);
    let ink = 0;
    for (let i = 0; i < data.length; i += 4)
      if (data[i + 3]! > 128 && data[i]! + data[i + 1]! + data[i + 2]! < 384) ink++;
    return ink / (bitmap.width * bitmap.height);
  }, png.toString('base64'));
}

maybe('board editor part 2 end to end', () => {
  let stack: BoardStack;
  let work: string;
  beforeAll(async () => {
    if (!existsSync(PDFTOPPM)) throw new Error(`${PDFTOPPM} is missing: install poppler-utils (.ci/run does)`);
    work = mkdtempSync(join(tmpdir(), 'wb-math-e2e-'));
    stack = await startBoardStack();
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('formula and graph seen by the other person and kept; compass arc; PNG and PDF export show the ink', async () => {
    const { a, b } = await twoOnNewBoard(stack, 'Quadratics: roots');

    // a formula: typed LaTeX reaches Bob; hostile LaTeX is refused in the panel
    await pickTool(a, 'formula');
    await a.mouse.click(330, 260);
    const formulaPanel = a.getByRole('region', { name: 'Formula editor' });
    const latex = formulaPanel.getByLabel('LaTeX');
    await latex.fill('x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}');
    await until(b, 'Bob sees the formula', (h) =>
      h.shapes().some((s) => s.kind === 'formula' && String(s.latex).includes('\\sqrt{b^2 - 4ac}')),
    );
    const formula = (await hook(b, (h) => h.shapes().find((s) => s.kind === 'formula')!))!;
    expect(formula.w).toBeGreaterThan(60); // the typeset size, not a guess from the source text
    await latex.fill('\\href{javascript:alert(1)}{x}');
    await formulaPanel.getByRole('alert').waitFor();
    await latex.fill('x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}');
    await a.screenshot({ path: join(SHOTS, 'math-formula-panel.png') });
    await formulaPanel.getByRole('button', { name: 'Done' }).click();
    await until(a, 'the formula panel closed', (h) => h.editor?.getState().editing === null);

    // a graph: y = sin(x) reaches Bob; a bad expression shows its error
    await pickTool(a, 'graph');
    await a.mouse.click(620, 220);
    const graphPanel = a.getByRole('region', { name: 'Graph editor' });
    const expr = graphPanel.locator('.graph-input').first();
    await expr.fill('sin(x');
    await graphPanel.getByRole('alert').waitFor();
    await expr.fill('sin(x)');
    await until(b, 'Bob sees the graph', (h) =>
      h.shapes().some((s) => s.kind === 'graph' && String(s.spec).includes('sin(x)')),
    );
    await a.screenshot({ path: join(SHOTS, 'math-graph-panel.png') });
    await graphPanel.getByRole('button', { name: 'Done' }).click();

    // the compass: press the needle, drag it open, release; then a drag away from its legs sweeps
    // the pencil round (half a turn here): one arc, seen by Bob
    await pickTool(a, 'compass');
    await a.mouse.move(330, 520);
    await a.mouse.down();
    await a.mouse.move(410, 520, { steps: 6 });
    await a.mouse.up();
    const around = (t: number) => ({ x: 330 + 110 * Math.cos(t), y: 520 + 110 * Math.sin(t) });
    await a.mouse.move(around(Math.PI / 2).x, around(Math.PI / 2).y);
    await a.mouse.down();
    for (let i = 1; i <= 12; i++) {
      const p = around(Math.PI / 2 + (i / 12) * Math.PI);
      await a.mouse.move(p.x, p.y);
    }
    await a.mouse.up();
    await until(b, 'Bob sees the arc', (h) => h.shapes().some((s) => s.kind === 'arc'));
    await a.keyboard.press('Escape');

    // a reload keeps both, typeset again
    await b.reload();
    await live(b);
    const kinds = await hook(b, (h) => h.shapes().map((s) => s.kind));
    expect(kinds).toEqual(expect.arrayContaining(['formula', 'graph', 'arc']));
    await b.waitForTimeout(1500); // MathJax and function-plot load on first use
    await b.screenshot({ path: join(SHOTS, 'math-board.png') });

    // export from the board menu: PNG of the whole board, then a PDF rendered by pdftoppm
    const exportAs = async (action: 'export-png' | 'export-pdf'): Promise<{ name: string; path: string }> => {
      await b.locator('[data-action="board-menu"]').click();
      await b.locator('[data-action="export"]').click();
      const download = b.waitForEvent('download');
      await b.locator(`[data-action="${action}"]`).click();
      const file = await download;
      const path = join(work, file.suggestedFilename());
      await file.saveAs(path);
      return { name: file.suggestedFilename(), path };
    };
    const png = await exportAs('export-png');
    expect(png.name).toMatch(/^Quadratics.*roots.*\.png$/);
    expect(await inkShare(b, readFileSync(png.path))).toBeGreaterThan(0.002);
    const pdf = await exportAs('export-pdf');
    expect(pdf.name).toMatch(/\.pdf$/);
    const pdfBytes = readFileSync(pdf.path);
    expect(pdfBytes.subarray(0, 5).toString()).toBe('%PDF-');
    execFileSync(PDFTOPPM, ['-png', '-r', '60', '-f', '1', '-l', '1', pdf.path, join(work, 'page')]);
    const page = readFileSync(join(work, existsSync(join(work, 'page-1.png')) ? 'page-1.png' : 'page-01.png'));
    expect(await inkShare(b, page)).toBeGreaterThan(0.002);

    // what a teacher sees: the instruments on the board, then a phone in the dark theme with the
    // export dialog and the graph panel
    await b.keyboard.press('Shift+R');
    await b.keyboard.press('Shift+P');
    await b.mouse.click(640, 420);
    await b.waitForTimeout(300);
    await b.screenshot({ path: join(SHOTS, 'math-instruments.png') });
    await b.keyboard.press('Escape');
    await b.setViewportSize({ width: 390, height: 844 });
    await b.evaluate(() => localStorage.setItem('wb.theme', 'dark'));
    await b.reload();
    await live(b);
    await b.locator('[data-action="board-menu"]').click();
    await b.locator('[data-action="export"]').click();
    await b.locator('[data-action="export-pdf"]').waitFor();
    await b.screenshot({ path: join(SHOTS, 'math-export-390-dark.png') });
    await b.keyboard.press('Escape');
    await b.keyboard.press('g');
    await b.mouse.click(195, 600);
    await b.getByRole('region', { name: 'Graph editor' }).waitFor();
    await b.screenshot({ path: join(SHOTS, 'math-graph-390-dark.png') });
  }, 180_000);
});
