import { sniffHead } from './fileSniff';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

/** ZIP local headers (stored entries) as an archive's head shows them. */
function zipHead(entries: { name: string; data?: string }[]): Uint8Array {
  const parts: Buffer[] = [];
  for (const { name, data = '' } of entries) {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0, 8); // stored
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(Buffer.byteLength(name), 26);
    parts.push(header, Buffer.from(name), Buffer.from(data));
  }
  return Buffer.concat(parts);
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0];

function ftyp(major: string, ...compatible: string[]): Uint8Array {
  const box = Buffer.alloc(16 + compatible.length * 4);
  box.writeUInt32BE(box.length, 0);
  box.write('ftyp', 4, 'latin1');
  box.write(major, 8, 'latin1');
  compatible.forEach((b, i) => box.write(b, 16 + i * 4, 'latin1'));
  return box;
}

describe('sniffHead', () => {
  it.each([
    ['a.pdf', bytes('%PDF-1.7\n'), 'pdf', false, 'application/pdf'],
    ['a.png', bytes(PNG), 'png', true, 'image/png'],
    ['a.jpg', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16]), 'jpeg', true, 'image/jpeg'],
    ['a.gif', bytes('GIF89a', [1, 0, 1, 0]), 'gif', true, 'image/gif'],
    ['a.gif', bytes('GIF87a', [1, 0, 1, 0]), 'gif', true, 'image/gif'],
    ['a.webp', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'webp', true, 'image/webp'],
    ['a.bmp', bytes('BM', [0, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0]), 'bmp', true, 'image/bmp'],
    ['a.tif', bytes([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]), 'tiff', true, 'image/tiff'],
    ['a.tif', bytes([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]), 'tiff', true, 'image/tiff'],
    ['a.avif', ftyp('avif', 'mif1', 'miaf'), 'avif', true, 'image/avif'],
    ['a.heic', ftyp('heic', 'mif1', 'heic'), 'heic', true, 'image/heic'],
    ['a.avif', ftyp('mif1', 'avif'), 'avif', true, 'image/avif'],
    ['a.rtf', bytes('{\\rtf1\\ansi hello}'), 'rtf', false, 'application/rtf'],
    ['notes.txt', bytes('Hello, world\nsecond line\t€\n'), 'txt', false, 'text/plain'],
    ['data.csv', bytes('a,b,c\n1,2,3\n'), 'csv', false, 'text/csv'],
    ['noext', bytes('plain words'), 'txt', false, 'text/plain'],
  ])('%s → %s', (name, head, format, isImage, mime) => {
    expect(sniffHead(head, name)).toEqual({ format, isImage, mime });
  });

  it('goes by the content, not the name', () => {
    expect(sniffHead(bytes(PNG), 'report.docx')?.format).toBe('png');
    expect(sniffHead(bytes('%PDF-1.4'), 'photo.png')?.format).toBe('pdf');
    expect(sniffHead(bytes('a,b\n'), 'image.png')?.format).toBe('txt');
  });

  it('recognises SVG by an <svg> root after prolog, comments and doctype', () => {
    const svg =
      '<?xml version="1.0"?>\n<!-- made by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg xmlns="http://www.w3.org/2000/svg"></svg>';
    expect(sniffHead(bytes(svg), 'x.txt')).toEqual({ format: 'svg', isImage: true, mime: 'image/svg+xml' });
    expect(sniffHead(bytes([0xef, 0xbb, 0xbf], '<svg width="1"/>'), 'a')?.format).toBe('svg');
    // svg mentioned in text or a different root is not SVG
    expect(sniffHead(bytes('<html><svg></svg></html>'), 'a.svg')?.format).toBe('txt');
    expect(sniffHead(bytes('about <svg> tags'), 'a.svg')?.format).toBe('txt');
  });

  it('takes the OLE2 family from the magic and the member from the extension (default doc)', () => {
    for (const ext of ['doc', 'xls', 'ppt', 'pps', 'xlt', 'sdw', 'sdc', 'sda', 'sdd']) {
      expect(sniffHead(bytes(OLE2), `file.${ext.toUpperCase()}`)?.format).toBe(ext);
    }
    expect(sniffHead(bytes(OLE2), 'file.exe')?.format).toBe('doc');
    expect(sniffHead(bytes(OLE2), 'no-extension')?.format).toBe('doc');
  });

  it('tells ZIP-based formats apart by their entries', () => {
    const ct = { name: '[Content_Types].xml', data: '<Types/>' };
    expect(sniffHead(zipHead([ct, { name: 'word/document.xml' }]), 'a.zip')?.format).toBe('docx');
    expect(sniffHead(zipHead([ct, { name: 'ppt/presentation.xml' }]), 'a.docx')?.format).toBe('pptx');
    expect(sniffHead(zipHead([ct, { name: 'xl/workbook.xml' }]), 'a')?.format).toBe('xlsx');
    // only the content types in the head: the extension picks among docx/xlsx/pptx
    expect(sniffHead(zipHead([ct]), 'sheet.xlsx')?.format).toBe('xlsx');
    expect(sniffHead(zipHead([ct]), 'sheet.bin')?.format).toBe('docx');
    expect(
      sniffHead(zipHead([{ name: 'mimetype', data: 'application/vnd.oasis.opendocument.text' }]), 'a.docx')?.format,
    ).toBe('odt');
    expect(sniffHead(zipHead([{ name: 'mimetype', data: 'application/epub+zip' }]), 'book')).toEqual({
      format: 'epub',
      isImage: false,
      mime: 'application/epub+zip',
    });
    expect(sniffHead(zipHead([{ name: 'Index/Document.iwa' }]), 'a.zip')?.format).toBe('pages');
    expect(sniffHead(zipHead([{ name: 'preview.jpg' }]), 'Essay.pages')?.format).toBe('pages');
  });

  it('refuses what is not accepted', () => {
    expect(sniffHead(new Uint8Array(0), 'a.txt')).toBeNull();
    expect(sniffHead(zipHead([{ name: 'random.bin' }]), 'a.docx')).toBeNull();
    expect(
      sniffHead(zipHead([{ name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet' }]), 'a.odt'),
    ).toBeNull();
    expect(sniffHead(bytes([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), 'a.pdf')).toBeNull(); // ELF
    expect(sniffHead(bytes('text with a NUL\0 byte'), 'a.txt')).toBeNull();
    expect(sniffHead(bytes([0x68, 0x69, 0xc3, 0x28]), 'a.txt')).toBeNull(); // invalid UTF-8
    expect(sniffHead(bytes('   \n\n'), 'a.txt')).toBeNull();
    expect(sniffHead(bytes('BMP is a bitmap format'), 'a.bmp')?.format).toBe('txt');
    expect(sniffHead(bytes([0, 0, 0, 16], 'ftypisom', [0, 0, 0, 0]), 'a.heic')).toBeNull(); // MP4 video
  });

  it('accepts text whose head ends inside a multi-byte character', () => {
    const text = Buffer.from('é'.repeat(40000));
    expect(sniffHead(text.subarray(0, 64 * 1024 - 1), 'a.txt')?.format).toBe('txt');
  });
});
