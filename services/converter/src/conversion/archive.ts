/**
 * The ZIP pre-check every ZIP-based document passes before LibreOffice or mupdf opens it: the
 * central directory is read entry by entry (yauzl, lazy entries: nothing is inflated except the
 * tiny `mimetype` entry) and refused on too many entries, too many bytes once unpacked, an entry
 * compressed suspiciously well (a zip bomb), or encryption. It also says which kind the archive
 * really is, whatever the sniffed head suggested.
 */
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { ConversionError, MESSAGES } from './errors';

export type ArchiveKind = 'docx' | 'xlsx' | 'pptx' | 'odt' | 'ods' | 'odp' | 'odg' | 'epub' | 'pages';

export interface ArchiveLimits {
  maxEntries: number;
  /** sum of the declared uncompressed sizes */
  maxTotalBytes: number;
  /** uncompressed/compressed of one entry, checked on entries larger than `ratioFloorBytes` */
  maxRatio: number;
  ratioFloorBytes: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 10_000,
  maxTotalBytes: 512 * 1024 * 1024,
  // office XML compresses 5–30×; bombs compress 1000× and more
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
};

export interface ArchiveInfo {
  kind: ArchiveKind;
  entries: number;
  totalBytes: number;
  /** names of every entry (Pages documents may carry a PDF preview) */
  names: string[];
}

const ODF_MIMETYPES: Record<string, ArchiveKind> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.graphics': 'odg',
  'application/epub+zip': 'epub',
};

function openZip(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: false }, (err, zip) =>
      err ? reject(err) : resolve(zip),
    );
  });
}

function readSmallEntry(zip: ZipFile, entry: Entry, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err) return reject(err);
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > max) {
          stream.destroy();
          return reject(new Error('entry larger than expected'));
        }
        chunks.push(chunk);
      });
      stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      stream.on('error', reject);
    });
  });
}

function kindOf(names: Set<string>, mimetype: string | null): ArchiveKind | null {
  if (mimetype && ODF_MIMETYPES[mimetype]) return ODF_MIMETYPES[mimetype];
  if (names.has('[Content_Types].xml')) {
    const has = (prefix: string) => [...names].some((n) => n.startsWith(prefix));
    if (has('word/')) return 'docx';
    if (has('ppt/')) return 'pptx';
    if (has('xl/')) return 'xlsx';
  }
  if (names.has('Index/Document.iwa') || names.has('index.xml') || names.has('index.apxl')) return 'pages';
  return null;
}

/** Check the archive at `path`; throws ConversionError with the reason it is refused. */
export async function inspectArchive(
  path: string,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<ArchiveInfo> {
  let zip: ZipFile;
  try {
    zip = await openZip(path);
  } catch (err) {
    throw new ConversionError(MESSAGES.damaged, (err as Error).message);
  }
  try {
    if (zip.entryCount > limits.maxEntries) throw new ConversionError(MESSAGES.zipTooManyEntries);
    const names = new Set<string>();
    let total = 0;
    let mimetype: string | null = null;
    await new Promise<void>((resolve, reject) => {
      const fail = (err: Error) => {
        zip.removeAllListeners('entry');
        reject(err);
      };
      zip.on('error', (err: Error) => fail(new ConversionError(MESSAGES.damaged, err.message)));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: Entry) => {
        if (entry.isEncrypted()) return fail(new ConversionError(MESSAGES.encrypted));
        total += entry.uncompressedSize;
        if (total > limits.maxTotalBytes) return fail(new ConversionError(MESSAGES.zipTooBig));
        if (
          entry.uncompressedSize > limits.ratioFloorBytes &&
          entry.uncompressedSize > limits.maxRatio * Math.max(1, entry.compressedSize)
        ) {
          return fail(new ConversionError(MESSAGES.zipTooBig, `entry ${entry.fileName} ratio too high`));
        }
        names.add(entry.fileName);
        if (entry.fileName === 'mimetype' && entry.uncompressedSize < 200) {
          readSmallEntry(zip, entry, 200)
            .then((text) => {
              mimetype = text.trim();
              zip.readEntry();
            })
            .catch((err: Error) => fail(new ConversionError(MESSAGES.damaged, err.message)));
          return;
        }
        zip.readEntry();
      });
      zip.readEntry();
    });
    const kind = kindOf(names, mimetype);
    if (!kind) throw new ConversionError(MESSAGES.damaged, 'not an office, ODF, EPUB or Pages archive');
    return { kind, entries: names.size, totalBytes: total, names: [...names] };
  } finally {
    zip.close();
  }
}

/** Copy one entry (by name) of a checked archive to `dest`, at most `maxBytes`. */
export async function extractEntry(path: string, name: string, dest: string, maxBytes: number): Promise<boolean> {
  const { createWriteStream } = await import('node:fs');
  const { pipeline } = await import('node:stream/promises');
  const { Transform } = await import('node:stream');
  const zip = await openZip(path);
  try {
    const entry = await new Promise<Entry | null>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve(null));
      zip.on('entry', (e: Entry) => (e.fileName === name ? resolve(e) : zip.readEntry()));
      zip.readEntry();
    });
    if (!entry || entry.uncompressedSize > maxBytes) return false;
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
      zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
    );
    let seen = 0;
    const cap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        done(seen > maxBytes ? new Error('entry larger than declared') : null, chunk);
      },
    });
    await pipeline(stream, cap, createWriteStream(dest));
    return true;
  } finally {
    zip.close();
  }
}
