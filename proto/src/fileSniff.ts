/**
 * What an upload really is, decided from its first bytes (spec §5: "sniffed by content, not by
 * name"). The name only chooses within a family the bytes cannot tell apart (an OLE2 compound
 * file is a .doc, .xls, .ppt… by its streams, which lie past the head) and csv versus txt.
 * A `.docx` name on PNG bytes is a PNG; bytes of no accepted type are "Unsupported file" (null).
 *
 * ZIP-based kinds are decided from the local headers visible in the head only; the conversion
 * worker reads the whole archive's directory before anything opens it.
 */
import { IMAGE_FORMATS } from './files';
import type { FileFormat } from './files';

export interface SniffedFile {
  format: FileFormat;
  isImage: boolean;
  mime: string;
}

/** How much of a file the sniffer looks at (callers read this many bytes at most). */
export const SNIFF_HEAD_BYTES = 64 * 1024;

const MIME: Record<FileFormat, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  pps: 'application/vnd.ms-powerpoint',
  txt: 'text/plain',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xlt: 'application/vnd.ms-excel',
  odt: 'application/vnd.oasis.opendocument.text',
  rtf: 'application/rtf',
  epub: 'application/epub+zip',
  sdw: 'application/vnd.stardivision.writer',
  sdc: 'application/vnd.stardivision.calc',
  sda: 'application/vnd.stardivision.draw',
  sdd: 'application/vnd.stardivision.impress',
  csv: 'text/csv',
  pages: 'application/vnd.apple.pages',
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
  avif: 'image/avif',
  heic: 'image/heic',
};

const OLE2_FAMILY = ['doc', 'xls', 'ppt', 'pps', 'xlt', 'sdw', 'sdc', 'sda', 'sdd'] as const;
const OOXML_FAMILY = ['docx', 'xlsx', 'pptx'] as const;

function result(format: FileFormat): SniffedFile {
  return { format, isImage: (IMAGE_FORMATS as readonly string[]).includes(format), mime: MIME[format] };
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function startsWith(head: Uint8Array, bytes: readonly number[], at = 0): boolean {
  if (head.length < at + bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (head[at + i] !== bytes[i]) return false;
  return true;
}

function ascii(head: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < Math.min(end, head.length); i++) s += String.fromCharCode(head[i]!);
  return s;
}

function u16le(head: Uint8Array, at: number): number {
  return head[at]! | (head[at + 1]! << 8);
}
function u32le(head: Uint8Array, at: number): number {
  return (head[at]! | (head[at + 1]! << 8) | (head[at + 2]! << 16)) + head[at + 3]! * 0x1000000;
}
function u32be(head: Uint8Array, at: number): number {
  return head[at]! * 0x1000000 + ((head[at + 1]! << 16) | (head[at + 2]! << 8) | head[at + 3]!);
}

const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
const HEIF_GENERIC_BRANDS = new Set(['mif1', 'msf1']);

/** ISO-BMFF `ftyp` box: the major brand, then the compatible ones, say AVIF or HEIC. */
function sniffFtyp(head: Uint8Array): FileFormat | null {
  if (head.length < 16 || ascii(head, 4, 8) !== 'ftyp') return null;
  const boxSize = Math.min(u32be(head, 0), head.length);
  if (boxSize < 16) return null;
  const brands = [ascii(head, 8, 12)];
  for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(head, at, at + 4));
  if (brands.some((b) => AVIF_BRANDS.has(b))) return 'avif';
  if (brands.some((b) => HEIC_BRANDS.has(b))) return 'heic';
  // a generic HEIF still image: HEIC is by far the common one (iPhone photos)
  if (HEIF_GENERIC_BRANDS.has(brands[0]!)) return 'heic';
  return null;
}

const LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];

/** Names (and the stored `mimetype` content) of the ZIP local headers found in the head. */
function zipEntriesInHead(head: Uint8Array): { names: string[]; mimetype: string | null } {
  const names: string[] = [];
  let mimetype: string | null = null;
  const decoder = new TextDecoder('utf-8');
  // every local-header signature in the head: sizes may be 0 (data descriptors), so no skipping
  for (let at = 0; at + 30 <= head.length; at++) {
    if (!startsWith(head, LOCAL_HEADER, at)) continue;
    const method = u16le(head, at + 8);
    const compressedSize = u32le(head, at + 18);
    const nameLength = u16le(head, at + 26);
    const extraLength = u16le(head, at + 28);
    const nameStart = at + 30;
    if (nameLength === 0 || nameStart + nameLength > head.length) continue;
    const name = decoder.decode(head.subarray(nameStart, nameStart + nameLength));
    names.push(name);
    const dataStart = nameStart + nameLength + extraLength;
    if (name === 'mimetype' && method === 0 && compressedSize > 0 && compressedSize < 200) {
      mimetype = ascii(head, dataStart, dataStart + compressedSize).trim();
    }
    at = nameStart + nameLength - 1;
  }
  return { names, mimetype };
}

function sniffZip(head: Uint8Array, ext: string): FileFormat | null {
  const { names, mimetype } = zipEntriesInHead(head);
  if (mimetype === 'application/epub+zip') return 'epub';
  if (mimetype === 'application/vnd.oasis.opendocument.text') return 'odt';
  if (mimetype !== null) return null; // another ODF kind (spreadsheet, drawing…): not accepted
  if (names.some((n) => n.startsWith('word/'))) return 'docx';
  if (names.some((n) => n.startsWith('ppt/'))) return 'pptx';
  if (names.some((n) => n.startsWith('xl/'))) return 'xlsx';
  if (names.includes('Index/Document.iwa') || ext === 'pages') return 'pages';
  if (names.includes('[Content_Types].xml')) {
    return (OOXML_FAMILY as readonly string[]).includes(ext) ? (ext as FileFormat) : 'docx';
  }
  return null;
}

/**
 * The head as text when it is valid UTF-8 without NUL or control bytes (tab, newlines and form
 * feed allowed); a multi-byte character cut by the end of the head is not an error.
 */
function textOf(head: Uint8Array): string | null {
  let bytes = head;
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) bytes = bytes.subarray(3);
  // drop a trailing partial UTF-8 sequence (at most 3 bytes): the head may end mid-character
  let cut = bytes.length;
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (need > back) cut = bytes.length - back;
    break;
  }
  bytes = bytes.subarray(0, cut);
  for (const b of bytes) {
    if (b === 0x7f || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c)) return null;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** An XML document whose root element is <svg> (prolog, comments and doctype may come first). */
function isSvg(text: string): boolean {
  const prolog =
    /^\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>|<\?[\s\S]*?\?>)\s*)*/i;
  const rest = text.replace(prolog, '');
  return /^<svg[\s>/]/.test(rest);
}

/**
 * `head` = the first ≤ 64 KB of the file (the whole file when shorter), `name` = the name it was
 * uploaded under. Null = not an accepted type ("Unsupported file").
 */
export function sniffHead(head: Uint8Array, name: string): SniffedFile | null {
  if (head.length === 0) return null;
  const ext = extensionOf(name);

  if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return result('pdf'); // %PDF-
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return result('png');
  if (startsWith(head, [0xff, 0xd8, 0xff])) return result('jpeg');
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return result('gif');
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return result('webp');
  // "BM" alone is common in text; the DIB header size must be one of the defined ones
  if (ascii(head, 0, 2) === 'BM' && head.length >= 18 && [12, 40, 52, 56, 64, 108, 124].includes(u32le(head, 14))) {
    return result('bmp');
  }
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return result('tiff');
  const ftyp = sniffFtyp(head);
  if (ftyp) return result(ftyp);
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    return result((OLE2_FAMILY as readonly string[]).includes(ext) ? (ext as FileFormat) : 'doc');
  }
  if (startsWith(head, LOCAL_HEADER)) {
    const zip = sniffZip(head, ext);
    return zip ? result(zip) : null;
  }
  if (ascii(head, 0, 5) === '{\\rtf') return result('rtf');

  const text = textOf(head);
  if (text === null) return null;
  if (isSvg(text)) return result('svg');
  if (text.trim() === '') return null;
  return result(ext === 'csv' ? 'csv' : 'txt');
}
