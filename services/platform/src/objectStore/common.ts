/** Small pieces both drivers share, so they answer alike. */

/** Thrown by `move` when the source is missing (the only call that throws for a missing key). */
export class ObjectNotFoundError extends Error {
  readonly code = 'NoSuchKey';
  constructor(readonly key: string) {
    super(`object not found: ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

/**
 * "application/octet-stream" says nothing (S3 servers answer it for objects stored without a
 * type), so both drivers store and report it as no content type.
 */
export function meaningfulContentType(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const base = contentType.split(';')[0]!.trim().toLowerCase();
  return base === 'application/octet-stream' || base === 'binary/octet-stream' ? undefined : contentType;
}

/**
 * The inclusive byte range to read from an object of `size` bytes: `end` past the object is cut
 * to its last byte (as HTTP ranges are); a range that starts past the end, or is reversed or not
 * whole numbers, throws RangeError (HTTP 416 for the caller).
 */
export function clampRange(range: { start: number; end: number }, size: number): { start: number; end: number } {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || start >= size) {
    throw new RangeError(`range ${start}-${end} is not satisfiable for an object of ${size} bytes`);
  }
  return { start, end: Math.min(end, size - 1) };
}
