/**
 * Every input the converter tests and bench use, made on the spot (no binary fixtures in the
 * repo): PDFs written by hand, ZIP archives (DOCX, EPUB, bombs) by a tiny ZIP writer, PPTX from
 * flat ODF XML through a cold `soffice --convert-to`, images through sharp or by hand.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';

/** A PDF of `pages` pages (US Letter), each with a few lines of text; offsets computed exactly. */
export function makePdf(pages: number, linesPerPage = 30): Buffer {
  const objects: string[] = [];
  const kids: number[] = [];
  // 1: catalog, 2: pages, 3: font, then (page, content) pairs
  for (let p = 0; p < pages; p++) {
    const pageObj = 4 + p * 2;
    kids.push(pageObj);
    let text = 'BT /F1 12 Tf 72 720 Td 14 TL\n';
    for (let l = 0; l < linesPerPage; l++) {
      text += `(Page ${p + 1}, line ${l + 1}: the quick brown fox jumps over the lazy dog.) '\n`;
    }
    text += 'ET';
    objects[pageObj] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageObj + 1} 0 R >>`;
    objects[pageObj + 1] = `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`;
  }
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${pages} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let i = 1; i < objects.length; i++) {
    offsets[i] = Buffer.byteLength(out);
    out += `${i} 0 obj\n${objects[i]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let i = 1; i < objects.length; i++) out += `${String(offsets[i]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export interface ZipEntry {
  name: string;
  data: Buffer | string;
  /** stored instead of deflated (EPUB's mimetype must be) */
  store?: boolean;
}

/** A ZIP archive (local headers, central directory, end record). */
export function makeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
    const body = entry.store ? data : deflateRawSync(data, { level: 9 });
    const name = Buffer.from(entry.name, 'utf8');
    const crc = crc32(data);
    const method = entry.store ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** A DOCX with the given paragraphs (`pageBreaks`: a page break after each one). */
export function makeDocx(paragraphs: string[], opts: { pageBreaks?: boolean } = {}): Buffer {
  const body = paragraphs
    .map(
      (p) =>
        `<w:p><w:r><w:t xml:space="preserve">${p}</w:t></w:r>${opts.pageBreaks ? '<w:r><w:br w:type="page"/></w:r>' : ''}</w:p>`,
    )
    .join('');
  return makeZip([
    {
      name: '[Content_Types].xml',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    {
      name: 'word/document.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><w:document ${W_NS}><w:body>${body}</w:body></w:document>`,
    },
  ]);
}

/** A DOCX whose document part inflates from ~50 KB to `megabytes` MB (ratio ≈ 1000). */
export function makeZipBombDocx(megabytes = 50): Buffer {
  const filler = Buffer.alloc(megabytes * 1024 * 1024, 0x20);
  return makeZip([
    {
      name: '[Content_Types].xml',
      data: '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    },
    { name: 'word/document.xml', data: Buffer.concat([Buffer.from(`<w:document ${W_NS}><w:body>`), filler]) },
  ]);
}

/** An EPUB 3 with `chapters` chapters of text. */
export function makeEpub(chapters: number): Buffer {
  const items: ZipEntry[] = [];
  const manifest: string[] = [];
  const spine: string[] = [];
  for (let c = 1; c <= chapters; c++) {
    const paras = Array.from(
      { length: 20 },
      (_, i) => `<p>Chapter ${c}, paragraph ${i + 1}: a short line of text.</p>`,
    );
    items.push({
      name: `OEBPS/ch${c}.xhtml`,
      data: `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter ${c}</title></head><body><h1>Chapter ${c}</h1>${paras.join('')}</body></html>`,
    });
    manifest.push(`<item id="ch${c}" href="ch${c}.xhtml" media-type="application/xhtml+xml"/>`);
    spine.push(`<itemref idref="ch${c}"/>`);
  }
  return makeZip([
    { name: 'mimetype', data: 'application/epub+zip', store: true },
    {
      name: 'META-INF/container.xml',
      data: '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    },
    {
      name: 'OEBPS/content.opf',
      data: `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">test-book</dc:identifier><dc:title>Test</dc:title><dc:language>en</dc:language></metadata><manifest>${manifest.join('')}</manifest><spine>${spine.join('')}</spine></package>`,
    },
    ...items,
  ]);
}

/** A flat ODF presentation of `slides` slides with a title and some text each. */
export function makeFodp(slides: number): string {
  const pages = Array.from(
    { length: slides },
    (_, i) =>
      `<draw:page draw:name="s${i + 1}" draw:master-page-name="Default"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Slide ${i + 1}</text:p></draw:text-box></draw:frame><draw:frame svg:x="2cm" svg:y="6cm" svg:width="20cm" svg:height="8cm"><draw:text-box><text:p>Point one of slide ${i + 1}</text:p><text:p>Point two</text:p><text:p>Point three</text:p></draw:text-box></draw:frame></draw:page>`,
  ).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.presentation">
<office:master-styles><style:page-layout style:name="PM1"><style:page-layout-properties fo:page-width="28cm" fo:page-height="15.75cm" style:print-orientation="landscape"/></style:page-layout><style:master-page style:name="Default" style:page-layout-name="PM1"/></office:master-styles>
<office:body><office:presentation>${pages}</office:presentation></office:body></office:document>`;
}

/** Convert flat ODF text to another format with a cold soffice (its own throwaway profile). */
export function sofficeConvert(source: string, ext: string, targetFormat: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'wb-fixture-'));
  try {
    const input = join(dir, `in.${ext}`);
    writeFileSync(input, source);
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=file://${dir}/profile`,
        '--headless',
        '--norestore',
        '--convert-to',
        targetFormat,
        '--outdir',
        dir,
        input,
      ],
      { stdio: 'ignore', timeout: 120_000 },
    );
    return readFileSync(join(dir, `in.${targetFormat.split(':')[0]}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A PNG whose header claims width × height but carries almost no data (a pixel flood). */
export function makePixelFloodPng(width = 100_000, height = 100_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateRawSync(Buffer.alloc(1000))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 24-bit BMP, bottom-up, filled with one colour. */
export function makeBmp(width: number, height: number, rgb: [number, number, number]): Buffer {
  const stride = Math.ceil((width * 3) / 4) * 4;
  const buf = Buffer.alloc(54 + stride * height);
  buf.write('BM', 0, 'latin1');
  buf.writeUInt32LE(buf.length, 2);
  buf.writeUInt32LE(54, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(width, 18);
  buf.writeInt32LE(height, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(24, 28);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = 54 + y * stride + x * 3;
      buf[at] = rgb[2];
      buf[at + 1] = rgb[1];
      buf[at + 2] = rgb[0];
    }
  }
  return buf;
}

const R_NS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const IMAGE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';

/**
 * A DOCX with one picture that is a *link* (`r:link`, relationship `TargetMode="External"`) to
 * `target` (`file:///abs.png` or a relative path): issue 25 §1's probe.
 */
export function makeDocxLinkedImage(target: string): Buffer {
  const drawing =
    '<w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="3600000" cy="3600000"/><wp:docPr id="1" name="Picture 1"/>' +
    '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">' +
    '<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="1" name="x.png"/><pic:cNvPicPr/></pic:nvPicPr>' +
    '<pic:blipFill><a:blip r:link="rIdImg"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>' +
    '<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="3600000" cy="3600000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic>' +
    '</a:graphicData></a:graphic></wp:inline></w:drawing>';
  return makeZip([
    {
      name: '[Content_Types].xml',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    {
      name: 'word/_rels/document.xml.rels',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rIdImg" Type="${IMAGE_REL}" Target="${target}" TargetMode="External"/></Relationships>`,
    },
    {
      name: 'word/document.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><w:document ${W_NS} ${R_NS}><w:body><w:p><w:r><w:t>Linked picture:</w:t></w:r></w:p><w:p><w:r>${drawing}</w:r></w:p></w:body></w:document>`,
    },
  ]);
}

/** An ODT whose picture is `<draw:image xlink:href="…">` outside the package. */
export function makeOdtLinkedImage(href: string): Buffer {
  const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.3">
<office:body><office:text><text:p>Linked picture:</text:p><text:p><draw:frame draw:name="p1" text:anchor-type="as-char" svg:width="10cm" svg:height="10cm"><draw:image xlink:href="${href}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p></office:text></office:body></office:document-content>`;
  return makeZip([
    { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text' },
    {
      name: 'META-INF/manifest.xml',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">' +
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>' +
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    },
    { name: 'content.xml', data: content },
  ]);
}

/** An RTF with a linked picture field: `INCLUDEPICTURE "path" \d` (\d: link, do not store). */
export function makeRtfIncludePicture(path: string): string {
  return `{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Arial;}}\\f0\\fs24 Linked picture:\\par {\\field{\\*\\fldinst { INCLUDEPICTURE "${path}" \\\\d }}{\\fldrslt { }}}\\par }`;
}

/** issue 25 §2's SVG bomb: a few hundred bytes whose filters would hold a core for minutes */
export const SVG_BOMB =
  '<svg xmlns="http://www.w3.org/2000/svg" width="2100" height="2100"><filter id="f" x="0" y="0" width="1" height="1"><feTurbulence baseFrequency=".01" numOctaves="10"/><feGaussianBlur stdDeviation="200"/><feMorphology radius="300"/></filter><rect width="100%" height="100%" filter="url(#f)"/></svg>';

/** `pages` pages, each drawing a Form XObject that draws the one below it 4 times, `depth` deep */
export function nestedXObjectPdf(pages = 4, depth = 11): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) + 0; // object number = index + 1
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add('PLACEHOLDER');
  const leaf = 'q 0 0 1 rg 0 0 10 10 re f Q';
  add(`<< /Type /XObject /Subtype /Form /BBox [0 0 600 800] /Length ${leaf.length} >>\nstream\n${leaf}\nendstream`);
  for (let d = 1; d <= depth; d++) {
    const below = objects.length; // the previous form
    const draw = '/X Do 1 0 0 1 1 1 cm /X Do 1 0 0 1 1 1 cm /X Do 1 0 0 1 1 1 cm /X Do';
    add(
      `<< /Type /XObject /Subtype /Form /BBox [0 0 600 800] /Resources << /XObject << /X ${below} 0 R >> >> /Length ${draw.length} >>\nstream\n${draw}\nendstream`,
    );
  }
  const top = objects.length;
  const kids: number[] = [];
  for (let p = 0; p < pages; p++) {
    const content = '/X Do';
    add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    const contentNo = objects.length;
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Resources << /XObject << /X ${top} 0 R >> >> /Contents ${contentNo} 0 R >>`,
    );
    kids.push(objects.length);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${pages} >>`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
