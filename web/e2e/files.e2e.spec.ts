/// <reference types="jest" />
/// <reference types="node" />
/**
 * The files page end to end (issue 15): gateway + auth + boards + files + the conversion worker
 * sharing one object-store directory, and Chromium on the built app. Ada uploads a hand-made
 * three-page PDF and a PPTX (made by LibreOffice from a flat ODP the test writes) from the files
 * page and sees their thumbnails load; Bob uploads the same PDF and it is added without a second
 * upload (no POST /docs leaves his page, only POST /api/docs/add). Then the viewer pages through
 * the PDF. Screenshots (desktop, 390 px, dark, viewer) go to artifacts/e2e and /tmp/shots.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { SHOTS, e2eReady } from './chromium';
import { startBoardStack, type BoardStack } from './boardStack';

const run = promisify(execFile);
const SCREENSHOTS = [SHOTS, '/tmp/shots'];

/** A tiny valid PDF with one line of text per page (xref offsets computed, so no repair is needed). */
export function textPdf(lines: string[]): Buffer {
  const objects: string[] = [];
  const pageIds = lines.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${lines.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  lines.forEach((line, i) => {
    const stream = `BT /F1 36 Tf 72 700 Td (${line.replace(/[()\\]/g, '\\$&')}) Tj ET`;
    objects[pageIds[i]!] =
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> ' +
      `/Contents ${pageIds[i]! + 1} 0 R >>`;
    objects[pageIds[i]! + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out);
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A flat ODP presentation with one text box per slide. */
function flatOdp(titles: string[]): string {
  const slides = titles
    .map(
      (title, i) => `
   <draw:page draw:name="page${i + 1}" draw:master-page-name="Default">
    <draw:frame draw:style-name="gr1" svg:x="2cm" svg:y="2cm" svg:width="24cm" svg:height="4cm">
     <draw:text-box><text:p text:style-name="P1">${title}</text:p></draw:text-box>
    </draw:frame>
   </draw:page>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.presentation">
 <office:styles/>
 <office:automatic-styles>
  <style:page-layout style:name="PM1">
   <style:page-layout-properties fo:page-width="28cm" fo:page-height="21cm" style:print-orientation="landscape"/>
  </style:page-layout>
  <style:style style:name="gr1" style:family="graphic">
   <style:graphic-properties draw:fill="none" draw:stroke="none"/>
  </style:style>
  <style:style style:name="P1" style:family="paragraph">
   <style:text-properties fo:font-size="44pt" fo:color="#1d2330"/>
  </style:style>
 </office:automatic-styles>
 <office:master-styles>
  <style:master-page style:name="Default" style:page-layout-name="PM1"/>
 </office:master-styles>
 <office:body>
  <office:presentation>${slides}
  </office:presentation>
 </office:body>
</office:document>
`;
}

async function makePptx(dir: string, titles: string[]): Promise<string> {
  const src = join(dir, 'lesson-slides.fodp');
  await writeFile(src, flatOdp(titles));
  // its own profile: never shares one with a LibreOffice the converter may be running
  await run(
    'soffice',
    [
      `-env:UserInstallation=file://${join(dir, 'lo-profile')}`,
      '--headless',
      '--convert-to',
      'pptx',
      '--outdir',
      dir,
      src,
    ],
    { timeout: 90_000 },
  );
  return join(dir, 'lesson-slides.pptx');
}

/** POST /docs requests leaving the page (the one thing a dedupe hit must not send), and failed files calls */
function watchUploads(page: Page): { docs: string[]; adds: string[]; failed: string[] } {
  const seen = { docs: [] as string[], adds: [] as string[], failed: [] as string[] };
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.status() >= 500 && /^\/(docs|images|api\/docs)\b/.test(path)) seen.failed.push(`${r.status()} ${path}`);
  });
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === 'POST' && path === '/docs') seen.docs.push(r.url());
    if (r.method() === 'POST' && path === '/api/docs/add') seen.adds.push(r.url());
  });
  return seen;
}

/** every card of the page is ready and its thumbnail decoded (naturalWidth > 0) */
async function thumbnailsLoaded(page: Page, names: string[]): Promise<void> {
  await page.waitForFunction(
    (want) => {
      const cards = Array.from(document.querySelectorAll('.doc-grid > li'));
      const ok = (name: string) =>
        cards.some((c) => {
          const img = c.querySelector('img.doc-thumb') as HTMLImageElement | null;
          return c.querySelector('.doc-name')?.textContent === name && !!img && img.complete && img.naturalWidth > 0;
        });
      return want.every(ok);
    },
    names,
    { timeout: 90_000, polling: 250 },
  );
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const dir of SCREENSHOTS) {
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, name), fullPage: false });
  }
}

const maybe = e2eReady ? describe : describe.skip;

maybe('files page end to end', () => {
  let stack: BoardStack;
  let dir: string;
  let pdf: string;
  let pptx: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wb-files-e2e-src-'));
    pdf = join(dir, 'Fractions worksheet.pdf');
    await writeFile(pdf, textPdf(['Fractions: page one', 'Fractions: page two', 'Fractions: page three']));
    [pptx, stack] = await Promise.all([
      makePptx(dir, ['Welcome', 'Plan', 'Summary']),
      startBoardStack({ files: true }),
    ]);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** sign up, give the plan with fileUpload (auth's plan column) and open the files page */
  async function uploader(name: string): Promise<Page> {
    const { page, id } = await stack.newUser(name);
    await stack.givePlan(id, 'standard');
    await page.goto(`${stack.base}/files`);
    await page.getByRole('heading', { name: 'Files' }).waitFor();
    // the plan is loaded once the page could decide about the upgrade prompt
    await page.waitForFunction(async () => {
      const plan = (await (await fetch('/api/plan')).json()) as { features: { fileUpload: boolean } };
      return plan.features.fileUpload;
    });
    await page.reload();
    await page.getByText(/No files yet/).waitFor();
    return page;
  }

  it('uploads a PDF and a PPTX, shows their thumbnails, dedupes the same PDF for another person', async () => {
    const a = await uploader('Ada');
    const adaUploads = watchUploads(a);
    await a.getByTestId('file-input').setInputFiles([pdf, pptx]);
    // the upload cards appear and go through their states
    await a.locator('.upload-list').waitFor();
    await thumbnailsLoaded(a, ['Fractions worksheet.pdf', 'lesson-slides.pptx']);
    expect(adaUploads.docs).toHaveLength(2);
    expect(adaUploads.failed).toEqual([]);
    const pdfCard = a.locator('.doc-grid > li', { hasText: 'Fractions worksheet.pdf' });
    await expect(pdfCard.locator('.doc-meta').textContent()).resolves.toMatch(/^3 pages · \d/);
    const pptxCard = a.locator('.doc-grid > li', { hasText: 'lesson-slides.pptx' });
    await expect(pptxCard.locator('.doc-meta').textContent()).resolves.toMatch(/^3 pages · \d/);
    const pdfId = await pdfCard.getAttribute('data-doc-id');
    const sha = createHash('sha256')
      .update(await readFile(pdf))
      .digest('hex');
    expect(pdfId).toBe(sha);

    // the card's thumbnail is the gateway's WebP, cached for ever, named by the document's image
    // id and not by its SHA-256 (issue 25 §4: a viewer's URL does not give the hash away)
    const thumbSrc = (await pdfCard.locator('img').first().getAttribute('src'))!;
    const imageId = /^\/docs\/([0-9a-f]{64})-0-thumb\.webp$/.exec(thumbSrc)?.[1];
    expect(imageId).toBeDefined();
    expect(thumbSrc).not.toContain(sha);
    const thumb = await a.evaluate(async (src) => {
      const res = await fetch(src);
      return { status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control') };
    }, thumbSrc);
    expect(thumb).toMatchObject({ status: 200, type: 'image/webp' });
    expect(thumb.cache).toMatch(/immutable/);

    await a.waitForFunction(() => document.querySelectorAll('.upload-list li').length === 0, undefined, {
      timeout: 10_000,
    });
    await shoot(a, 'files-desktop.png');

    // Bob uploads the same bytes: registered for him without a second upload
    const b = await uploader('Bob');
    const bobUploads = watchUploads(b);
    await b.getByTestId('file-input').setInputFiles([pdf]);
    await thumbnailsLoaded(b, ['Fractions worksheet.pdf']);
    expect(bobUploads.docs).toEqual([]);
    expect(bobUploads.adds).toHaveLength(1);
    expect(bobUploads.failed).toEqual([]);
    expect(await b.locator('.doc-grid > li').getAttribute('data-doc-id')).toBe(pdfId);

    // the viewer: page navigation with the keyboard and buttons, the full page image
    await a.locator('.doc-grid > li', { hasText: 'Fractions worksheet.pdf' }).getByRole('link').click();
    await a.waitForURL(new RegExp(`/files/${pdfId}$`));
    await a.getByText('Page 1 of 3').waitFor();
    const full = a.locator('img.viewer-image');
    await a.waitForFunction(() => {
      const img = document.querySelector('img.viewer-image') as HTMLImageElement | null;
      return !!img && img.complete && img.naturalWidth > 0;
    });
    expect(await full.getAttribute('src')).toBe(`/docs/${imageId}-0-full.webp`);
    await a.keyboard.press('ArrowRight');
    await a.getByText('Page 2 of 3').waitFor();
    await a.getByRole('button', { name: 'Next page' }).click();
    await a.getByText('Page 3 of 3').waitFor();
    await a.getByRole('button', { name: 'Zoom in' }).click();
    const download = await a.evaluate(async (id) => {
      const res = await fetch(`/api/docs/${id}/original`);
      return { status: res.status, size: (await res.arrayBuffer()).byteLength };
    }, pdfId);
    expect(download).toEqual({ status: 200, size: (await readFile(pdf)).length });
    await a.getByRole('button', { name: 'Previous page' }).click();
    await a.waitForFunction(() => {
      const img = document.querySelector('img.viewer-image') as HTMLImageElement | null;
      return !!img && img.complete && img.naturalWidth > 0;
    });
    await shoot(a, 'files-viewer.png');

    // a phone and the dark theme
    await a.goto(`${stack.base}/files`);
    await thumbnailsLoaded(a, ['Fractions worksheet.pdf', 'lesson-slides.pptx']);
    await a.setViewportSize({ width: 390, height: 844 });
    await a.waitForTimeout(200);
    const overflow = await a.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shoot(a, 'files-390.png');
    await a.setViewportSize({ width: 1100, height: 760 });
    await a.evaluate(() => localStorage.setItem('wb.theme', 'dark'));
    await a.reload();
    await thumbnailsLoaded(a, ['Fractions worksheet.pdf', 'lesson-slides.pptx']);
    expect(await a.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await a.locator('.doc-grid input[type=checkbox]').first().check();
    await shoot(a, 'files-dark.png');
  }, 240_000);

  it('makes a profile picture from an upload: cropped square, saved on the profile', async () => {
    const { page } = await stack.newUser('Cleo'); // starter plan: a picture needs no plan feature
    const photo = join(dir, 'holiday photo.png');
    await writeFile(
      photo,
      await sharp({ create: { width: 640, height: 400, channels: 3, background: '#3366cc' } })
        .png()
        .toBuffer(),
    );
    await page.goto(`${stack.base}/settings/profile`);
    await page.locator('[data-action="upload-picture"] input[type=file]').setInputFiles(photo);
    const picture = page.locator('.profile-picture img');
    await picture.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector('.profile-picture img') as HTMLImageElement | null;
      return !!img && img.complete && img.naturalWidth > 0;
    });
    expect(await picture.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([
      256, 256,
    ]);
    expect(await picture.getAttribute('src')).toMatch(/\/images\/[0-9a-f]{64}-avatar\.webp$/);
    // saved: the account answers the new picture
    const user = await page.evaluate(async () => (await (await fetch('/api/user')).json()) as { picture: string });
    expect(user.picture).toBe(await picture.getAttribute('src'));
    await shoot(page, 'profile-picture.png');
  }, 120_000);
});
