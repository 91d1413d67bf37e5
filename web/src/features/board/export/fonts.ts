/**
 * Unicode fonts for PDF text the standard fonts cannot show (Cyrillic, Greek, Polish, Turkish,
 * Estonian š/ž, maths symbols…): DejaVu TrueType files from the `dejavu-fonts-ttf` package. Each
 * file is a separate hashed asset (Vite `?url`), fetched only by the first export that needs it
 * and kept as base64 for the session; this module is imported by pdfExport.ts alone, so the board
 * route's JS holds three URLs at most (pdfExport is itself loaded on the first PDF export).
 */
import monoUrl from 'dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf?url';
import sansUrl from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf?url';
import serifUrl from 'dejavu-fonts-ttf/ttf/DejaVuSerif.ttf?url';

/** the three board font families, as standardFont sorts them */
export type FontFamily = 'sans' | 'serif' | 'mono';

/** the DejaVu font of each family (its file is `<name>.ttf`; also the PDF's BaseFont) */
export const UNICODE_FONTS = {
  sans: 'DejaVuSans',
  serif: 'DejaVuSerif',
  mono: 'DejaVuSansMono',
} as const satisfies Record<FontFamily, string>;

export type UnicodeFontName = (typeof UNICODE_FONTS)[FontFamily];

/** the bytes of a font file (the default fetches the built asset; tests read node_modules) */
export type FontLoader = (name: UnicodeFontName) => Promise<ArrayBuffer>;

const URLS: Record<UnicodeFontName, string> = {
  DejaVuSans: sansUrl,
  DejaVuSerif: serifUrl,
  DejaVuSansMono: monoUrl,
};

/** fetches the font's asset (same origin: the CSP's connect-src 'self' allows it) */
export const fetchFont: FontLoader = async (name) => {
  const res = await fetch(URLS[name]);
  if (!res.ok) throw new Error(`font ${name}: HTTP ${res.status}`);
  return res.arrayBuffer();
};

/** base64 of bytes: Uint8Array#toBase64 where there is one, else btoa over 8 KB chunks (~6 ms for 750 KB) */
export function toBase64(buf: ArrayBuffer): string {
  const bytes = new Uint8Array(buf) as Uint8Array & { toBase64?: () => string };
  if (typeof bytes.toBase64 === 'function') return bytes.toBase64();
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += 0x2000)
    parts.push(String.fromCharCode.apply(null, bytes.subarray(i, i + 0x2000) as unknown as number[]));
  return btoa(parts.join(''));
}

/** a TrueType file starts with 0x00010000 or 'true' (an HTML page from a bad URL does not) */
function isTrueType(buf: ArrayBuffer): boolean {
  if (buf.byteLength < 12) return false;
  const tag = new DataView(buf).getUint32(0);
  return tag === 0x00010000 || tag === 0x74727565;
}

/** base64 font data per loader and font, kept for the session (a failed load is tried again next time) */
const cache = new WeakMap<FontLoader, Map<UnicodeFontName, Promise<string>>>();

/** the font's file as base64 (for jsPDF's addFileToVFS), loaded once per session */
export function unicodeFontData(name: UnicodeFontName, load: FontLoader = fetchFont): Promise<string> {
  const byName = cache.get(load) ?? new Map<UnicodeFontName, Promise<string>>();
  cache.set(load, byName);
  let data = byName.get(name);
  if (!data) {
    data = load(name).then((buf) => {
      if (!isTrueType(buf)) throw new Error(`font ${name}: not a TrueType file`);
      return toBase64(buf);
    });
    data.catch(() => byName.delete(name));
    byName.set(name, data);
  }
  return data;
}
