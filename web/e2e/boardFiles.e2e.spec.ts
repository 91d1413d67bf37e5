/// <reference types="jest" />
/// <reference types="node" />
/**
 * Files on a board, end to end in Chromium with the files service and the conversion worker:
 * Ada opens the file drawer, uploads a PDF (three pages, written by hand here), adds all its
 * pages, writes on page 2 with the pen, and Bob sees the pages and the stroke; then Ada pastes
 * an image (a PNG made here) and both see it placed with its aspect ratio.
 * TEST-ONLY SETUP: the drawer needs `fileUpload`; with no billing in the stack the plan is written
 * to auth.users.plan (as the dashboard and board e2e tests do).
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { deflateSync, crc32 } from 'node:zlib';
import type { Page } from 'playwright-core';
import { e2eReady } from './chromium';
import { hook, live, startBoardStack, twoOnNewBoard, until, type BoardStack } from './boardStack';

const maybe = e2eReady ? describe : describe.skip;
const SHOT_DIR = '/tmp/shots';

/** A minimal PDF with one line of text per page; xref offsets computed, so every reader accepts it. */
function textPdf(pages: string[]): Buffer {
  const objs: string[] = [];
  const kids = pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ');
  objs.push('<< /Type /Catalog /Pages 2 0 R >>');
  objs.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objs.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  pages.forEach((text, i) => {
    const content = `BT /F1 36 Tf 72 700 Td (${text}) Tj ET`;
    objs.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`,
    );
    objs.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  });
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A w × h RGB PNG with a left-to-right gradient. */
function png(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) raw.set([(x * 255) / w, 80, 200 - (y * 100) / h], y * (w * 3 + 1) + 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

type Shape = { id: string; kind: string; x: number; y: number; w?: number; h?: number; page?: number; fileId?: string };
const shapes = (p: Page) => hook(p, (h) => h.shapes()) as Promise<Shape[]>;

maybe('files on a board end to end', () => {
  let stack: BoardStack;
  beforeAll(async () => {
    mkdirSync(SHOT_DIR, { recursive: true });
    stack = await startBoardStack({ files: true });
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
  });

  test('drawer upload, add all pages, write on page 2, paste an image: both people see it', async () => {
    const { ada, a, b } = await twoOnNewBoard(stack, 'Worksheet lesson');
    // without fileUpload the files button opens the upgrade prompt
    await a.locator('[data-action="files"]').click();
    await a.getByRole('dialog', { name: 'Files are part of the paid plans' }).waitFor();
    await a.keyboard.press('Escape');

    await stack.givePlan(ada.id, 'standard');
    await a.reload();
    await live(a);
    await a.locator('[data-action="files"]').click();
    const drawer = a.locator('.file-drawer');
    await drawer.waitFor();
    const pdf = textPdf(['Page one', 'Page two: write here', 'Page three']);
    await a.setInputFiles('[data-testid="drawer-file-input"]', {
      name: 'lesson.pdf',
      mimeType: 'application/pdf',
      buffer: pdf,
    });
    const card = drawer.locator('.fd-card[data-status="ready"]', { hasText: 'lesson.pdf' });
    await card.waitFor({ timeout: 60_000 });
    await card.getByText('3 pages').waitFor();
    await a.screenshot({ path: `${SHOT_DIR}/drawer-bottom.png` });

    // the nested page view: three page thumbnails, then all pages onto the board
    await card.locator('[data-action="open-pages"]').click();
    await drawer.locator('.fd-page img').nth(2).waitFor();
    await a.waitForFunction(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>('.fd-page img')).every(
        (i) => i.complete && i.naturalWidth > 0,
      ),
    );
    await a.screenshot({ path: `${SHOT_DIR}/drawer-pages.png` });
    await a.getByRole('button', { name: 'Dock on the right' }).click();
    await a.locator('.drawer-right .file-drawer').waitFor();
    await a.screenshot({ path: `${SHOT_DIR}/drawer-right.png` });
    await drawer.locator('[data-action="add-all-pages"]').click();
    await until(a, 'three pages on the board', (h) => h.shapes().filter((s) => s.kind === 'documentPage').length === 3);
    const pages = (await shapes(a)).filter((s) => s.kind === 'documentPage').sort((p, q) => p.page! - q.page!);
    expect(pages.map((p) => p.page)).toEqual([0, 1, 2]);
    // a column: same x, below each other, letter-size pages 800 wide
    for (const p of pages) {
      expect(p.w).toBeCloseTo(800);
      expect(p.h! / p.w!).toBeCloseTo(792 / 612, 1);
      expect(p.x).toBeCloseTo(pages[0]!.x);
    }
    expect(pages[1]!.y).toBeGreaterThan(pages[0]!.y + pages[0]!.h!);
    // placed as one step: selected together, one undo removes all three
    expect(await hook(a, (h) => h.editor!.selection().size)).toBe(3);

    // close the drawer, bring page 2 to the middle of the view and write on it with the pen
    await a.locator('[data-action="files"]').click();
    await drawer.waitFor({ state: 'detached' });
    const p2 = pages[1]!;
    await hook(a, (h, c) => h.editor!.centerOn(c.x, c.y), { x: p2.x + p2.w! / 2, y: p2.y + p2.h! / 2 });
    await a.getByRole('button', { name: 'Pen', exact: true }).click();
    const vp = a.viewportSize()!;
    const cx = vp.width / 2;
    const cy = vp.height / 2;
    await a.mouse.move(cx - 60, cy);
    await a.mouse.down();
    for (let i = 1; i <= 12; i++) await a.mouse.move(cx - 60 + i * 10, cy + Math.sin(i) * 20);
    await a.mouse.up();

    // Bob sees the three pages and the stroke on page 2 (and can load the page image)
    await until(b, 'the pages and the stroke', (h) => {
      const all = h.shapes();
      return all.filter((s) => s.kind === 'documentPage').length === 3 && all.some((s) => s.kind === 'pen');
    });
    const seen = await shapes(b);
    const pen = seen.find((s) => s.kind === 'pen')!;
    expect(pen.x).toBeGreaterThan(p2.x);
    expect(pen.x).toBeLessThan(p2.x + p2.w!);
    expect(pen.y).toBeGreaterThan(p2.y);
    expect(pen.y).toBeLessThan(p2.y + p2.h!);
    const fileId = p2.fileId!;
    // the page is placed by its opaque image id, not the content hash (issue 25 §4)
    expect(fileId).toMatch(/^[0-9a-f]{64}$/);
    expect(fileId).not.toBe(createHash('sha256').update(pdf).digest('hex'));
    const status = await b.evaluate(async (id) => (await fetch(`/docs/${id}-1-full.webp`)).status, fileId);
    expect(status).toBe(200);

    // Ada pastes a screenshot from another app: uploaded for the board, placed, both see it
    const image = png(64, 32);
    await a.mouse.move(cx, cy - 100);
    await a.evaluate((bytes) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, Array.from(image));
    // placed by its opaque image id (issue 25 §4), never by the content hash
    const imageSha = createHash('sha256').update(image).digest('hex');
    await until(
      a,
      'the pasted image',
      (h, sha) =>
        h
          .shapes()
          .some(
            (s) =>
              s.kind === 'image' && typeof s.fileId === 'string' && /^[0-9a-f]{64}$/.test(s.fileId) && s.fileId !== sha,
          ),
      imageSha,
      60_000,
    );
    await until(
      b,
      'the pasted image',
      (h, sha) =>
        h
          .shapes()
          .some(
            (s) =>
              s.kind === 'image' && typeof s.fileId === 'string' && /^[0-9a-f]{64}$/.test(s.fileId) && s.fileId !== sha,
          ),
      imageSha,
    );
    const img = (await shapes(b)).find((s) => s.kind === 'image')!;
    expect(img.w! / img.h!).toBeCloseTo(2, 1);
    await a.screenshot({ path: `${SHOT_DIR}/drawer-board.png` });

    // phone width, dark theme, drawer at the bottom (a phone opens it from the board menu)
    await a.setViewportSize({ width: 390, height: 800 });
    await a.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await a.locator('[data-action="board-menu"]').click();
    await a.locator('[data-action="menu-files"]').click();
    await a.getByRole('button', { name: 'Dock at the bottom' }).click();
    await a.locator('.drawer-bottom .fd-card[data-status="ready"]').first().waitFor();
    await a.waitForTimeout(300);
    await a.screenshot({ path: `${SHOT_DIR}/drawer-390-dark.png` });
  }, 240_000);
});
