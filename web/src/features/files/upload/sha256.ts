/**
 * SHA-256 of a Blob read piece by piece (spec §7/§9: hashed in the background in 64 KB chunks),
 * so a large file never sits in memory whole. Runs in the hashing worker; pure enough for tests.
 */
import { createSHA256 } from 'hash-wasm';

/** Spec §9: the hash is fed 64 KB at a time. */
export const HASH_CHUNK_BYTES = 64 * 1024;
/** Spec §9 "worker default block 4 MB": one read from the file, then hashed chunk by chunk. */
export const HASH_BLOCK_BYTES = 4 * 1024 * 1024;

export interface HashOptions {
  /** fraction of the bytes hashed so far, 0..1 (called once per block read and at the end) */
  onProgress?: (progress: number) => void;
  /** checked between blocks: a cancelled upload stops reading */
  isCancelled?: () => boolean;
  blockBytes?: number;
}

export class HashCancelledError extends Error {
  constructor() {
    super('Hashing was cancelled');
    this.name = 'AbortError';
  }
}

async function readBlock(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  // older engines (and jsdom) without Blob#arrayBuffer
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsArrayBuffer(blob);
  });
}

/** Lowercase hex SHA-256, the document id the server verifies (proto DOC_ID_PATTERN). */
export async function sha256OfBlob(blob: Blob, opts: HashOptions = {}): Promise<string> {
  const hasher = await createSHA256();
  hasher.init();
  const block = Math.max(HASH_CHUNK_BYTES, opts.blockBytes ?? HASH_BLOCK_BYTES);
  const total = blob.size;
  for (let offset = 0; offset < total; offset += block) {
    if (opts.isCancelled?.()) throw new HashCancelledError();
    const bytes = new Uint8Array(await readBlock(blob.slice(offset, Math.min(total, offset + block))));
    for (let i = 0; i < bytes.length; i += HASH_CHUNK_BYTES) {
      hasher.update(bytes.subarray(i, Math.min(bytes.length, i + HASH_CHUNK_BYTES)));
    }
    opts.onProgress?.(Math.min(1, (offset + bytes.length) / total));
  }
  if (total === 0) opts.onProgress?.(1);
  return hasher.digest('hex');
}

/**
 * Issue 25 §4 proof of possession: SHA-256 of the challenge's nonce (UTF-8) followed by the
 * file's bytes in each range (`start` inclusive, `end` exclusive), as the files service computes
 * it from the stored original. Only the ranges are read.
 */
export async function possessionDigestOfBlob(
  blob: Blob,
  challenge: { nonce: string; ranges: readonly { start: number; end: number }[] },
): Promise<string> {
  const hasher = await createSHA256();
  hasher.init();
  hasher.update(new TextEncoder().encode(challenge.nonce));
  for (const r of challenge.ranges) {
    if (r.end <= r.start) continue;
    hasher.update(new Uint8Array(await readBlock(blob.slice(r.start, r.end))));
  }
  return hasher.digest('hex');
}
