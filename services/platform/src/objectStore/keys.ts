/**
 * Key rules shared by every driver, so a key one driver accepts the other accepts too: relative,
 * "/"-separated, no empty, "." or ".." segments, no backslash or NUL (no key escapes its store,
 * whatever the filesystem or the S3 server makes of it).
 */

/**
 * Name endings the filesystem driver keeps for itself (temp files of writes in progress and
 * content-type sidecars); refused in keys on every driver, so the drivers accept the same keys.
 */
export const RESERVED_SUFFIXES = ['.wbtmp', '.wbmeta'] as const;

export class UnsafeKeyError extends Error {
  constructor(key: string, why: string) {
    super(`object key escapes the store or is not allowed (${why}): ${JSON.stringify(key)}`);
    this.name = 'UnsafeKeyError';
  }
}

function checkSegments(key: string, segments: string[]): void {
  for (const s of segments) {
    if (s === '') throw new UnsafeKeyError(key, 'empty segment');
    if (s === '.' || s === '..') throw new UnsafeKeyError(key, 'dot segment');
    if (RESERVED_SUFFIXES.some((suffix) => s.endsWith(suffix))) throw new UnsafeKeyError(key, 'reserved name');
  }
}

/** Throws UnsafeKeyError unless `key` is a valid object key. */
export function assertSafeKey(key: string): void {
  if (typeof key !== 'string' || key === '') throw new UnsafeKeyError(String(key), 'empty');
  if (key.includes('\\') || key.includes('\0')) throw new UnsafeKeyError(key, 'backslash or NUL');
  // S3 caps names at 1024 bytes; refusing longer ones everywhere keeps the drivers alike
  if (Buffer.byteLength(key) > 1024) throw new UnsafeKeyError(key, 'longer than 1024 bytes');
  checkSegments(key, key.split('/'));
}

/**
 * A list/deletePrefix prefix: "" (everything), a folder ("docs/"), or the start of a key
 * ("docs/abc-"); the same rules as keys for every complete segment.
 */
export function assertSafePrefix(prefix: string): void {
  if (typeof prefix !== 'string') throw new UnsafeKeyError(String(prefix), 'not a string');
  if (prefix === '') return;
  if (prefix.includes('\\') || prefix.includes('\0')) throw new UnsafeKeyError(prefix, 'backslash or NUL');
  const segments = prefix.split('/');
  // "docs/" ends in an empty segment: the whole folder
  if (segments[segments.length - 1] === '') segments.pop();
  checkSegments(prefix, segments);
}
