/**
 * Proof of possession for dedupe (issue 25 §4): knowing a file's SHA-256 is not enough to add the
 * stored bytes. `doc.get` answers a person who has not shown they hold the file with a challenge
 * (a random nonce and up to POSSESSION_RANGES random byte ranges of POSSESSION_RANGE_BYTES,
 * valid POSSESSION_TTL_MS, single use); `doc.add` accepts the bytes only with SHA-256(nonce ‖
 * ranges) computed from the file (the web's hashing worker does it). Anything else: ERR_NOT_FOUND,
 * which sends the client to the ordinary upload.
 *
 * Images are served under `imageIdOf(docId)`, an HMAC of the content hash with
 * FILES_IMAGE_ID_SECRET, so page-image URLs a viewer sees do not give the SHA-256 away.
 */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { originalKey, POSSESSION_RANGE_BYTES, POSSESSION_RANGES } from '@wb/proto';
import type { PossessionChallenge, PossessionProof } from '@wb/proto';
import type { ObjectStore } from '@wb/platform';
import { deleteExpiredChallenges, insertChallenge, takeChallenge } from '../repositories/challenges';
import type { ByteRange } from '../repositories/challenges';
import type { Db } from '../repositories/db';
import type { FilesDeps } from './deps';

export const POSSESSION_TTL_MS = 5 * 60_000;

/** the id a document's images are stored and served under (64 hex, like the content hash) */
export function imageIdOf(secret: string, docId: string): string {
  return createHmac('sha256', secret).update(`image-id:${docId}`).digest('hex');
}

/** random ranges of a file of `size` bytes: the whole file when it is small */
export function pickRanges(size: number, count = POSSESSION_RANGES, length = POSSESSION_RANGE_BYTES): ByteRange[] {
  if (size <= 0) return [];
  if (size <= length) return [{ start: 0, end: size }];
  const ranges: ByteRange[] = [];
  for (let i = 0; i < count; i++) {
    const start = randomInt(0, size - length + 1);
    ranges.push({ start, end: start + length });
  }
  return ranges;
}

/** SHA-256 of the nonce (UTF-8) followed by each range of `read` (as the client computes it) */
export async function possessionDigest(
  nonce: string,
  ranges: ByteRange[],
  read: (r: ByteRange) => Promise<Uint8Array>,
): Promise<string> {
  const hash = createHash('sha256').update(nonce, 'utf8');
  for (const r of ranges) hash.update(await read(r));
  return hash.digest('hex');
}

export async function issueChallenge(
  deps: Pick<FilesDeps, 'pool' | 'now' | 'metrics'>,
  userId: number,
  docId: string,
  size: number,
): Promise<PossessionChallenge> {
  const nonce = randomBytes(16).toString('hex');
  const ranges = pickRanges(size);
  const expiresAt = new Date(deps.now().getTime() + POSSESSION_TTL_MS);
  await insertChallenge(deps.pool, { nonce, userId, docId, ranges, expiresAt });
  deps.metrics.possession.inc({ outcome: 'issued' });
  return { nonce, ranges, expires: expiresAt.toISOString() };
}

async function readRange(store: ObjectStore, key: string, r: ByteRange): Promise<Uint8Array> {
  if (r.end <= r.start) return new Uint8Array();
  const obj = await store.getStream(key, { start: r.start, end: r.end - 1 });
  if (!obj) throw new Error('original missing');
  const chunks: Buffer[] = [];
  for await (const chunk of obj.stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** whether `proof` answers a live challenge of this person for this document (spent either way) */
export async function verifyProof(
  deps: Pick<FilesDeps, 'pool' | 'store' | 'now' | 'log' | 'metrics'>,
  userId: number,
  docId: string,
  proof: PossessionProof | undefined,
): Promise<boolean> {
  if (!proof) {
    deps.metrics.possession.inc({ outcome: 'missing' });
    return false;
  }
  const ranges = await takeChallenge(deps.pool, { nonce: proof.nonce, userId, docId, now: deps.now() });
  if (!ranges) {
    deps.metrics.possession.inc({ outcome: 'unknown' });
    return false;
  }
  let expected: string;
  try {
    expected = await possessionDigest(proof.nonce, ranges, (r) => readRange(deps.store, originalKey(docId), r));
  } catch (err) {
    deps.log.warn({ err, docId }, 'possession proof could not be checked');
    deps.metrics.possession.inc({ outcome: 'unreadable' });
    return false;
  }
  const ok = timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(proof.digest, 'hex'));
  deps.metrics.possession.inc({ outcome: ok ? 'proven' : 'wrong' });
  if (!ok) deps.log.info({ userId, docId: docId.slice(0, 12) }, 'possession proof refused');
  return ok;
}

export function removeExpiredChallenges(db: Db, now: Date): Promise<number> {
  return deleteExpiredChallenges(db, now);
}
