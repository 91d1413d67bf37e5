/**
 * conversion.report (worker → files): the state the browser polls (spec §4 upload states).
 * On failure the document is removed from every library and board (it never counts against a
 * quota), its stored bytes are deleted, and its row stays an hour as a tombstone with the error
 * so the uploader's poll shows "Upload failed: <error>"; uploading the bytes again retries.
 */
import { withTransaction } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import {
  deleteObjectRow,
  expiredTombstones,
  findObject,
  markFailed,
  markReady,
  recordProgress,
} from '../repositories/objects';
import { removeAllOf } from '../repositories/registrations';
import type { FilesDeps } from './deps';
import { removeExpiredChallenges } from './possession';
import { deleteStoredBytes } from './storedBytes';
import type { StoredBytesDeps } from './storedBytes';

export const DEFAULT_CONVERSION_ERROR = 'The file could not be converted';

export interface ConversionReport {
  docId: string;
  status: 'processing' | 'ready' | 'failed';
  pages: number;
  pagesDone: number;
  error: string | null;
}

export async function failConversion(
  deps: Pick<FilesDeps, 'pool' | 'store' | 'metrics' | 'now' | 'env'>,
  docId: string,
  error: string,
): Promise<void> {
  await withTransaction(deps.pool, async (client) => {
    const row = await markFailed(client, docId, error, deps.now());
    if (!row) return;
    await removeAllOf(client, docId);
    await deleteStoredBytes(client, deps, docId);
    deps.metrics.bytesDeleted.inc(Number(row.size));
  });
}

/** derived images of a document nobody holds any more (deleted while it was being converted) */
async function dropLeftovers(client: PoolClient, deps: StoredBytesDeps, docId: string): Promise<void> {
  if (await findObject(client, docId, { lock: true })) return;
  await deleteStoredBytes(client, deps, docId);
}

export async function reportConversion(deps: FilesDeps, input: ConversionReport): Promise<{ ok: true }> {
  const { docId } = input;
  if (input.status === 'processing') {
    // a late progress report after the end (or for a deleted document) changes nothing; its
    // error is the worker's notice while it retries (issue 25 §3: "retrying", not "damaged")
    const notice = input.error?.trim() || null;
    await recordProgress(deps.pool, docId, input.pages, Math.min(input.pagesDone, input.pages), notice);
    return { ok: true };
  }
  if (input.status === 'failed') {
    const error = input.error?.trim() || DEFAULT_CONVERSION_ERROR;
    deps.log.info({ docId, error }, 'conversion failed');
    await failConversion(deps, docId, error);
    await withTransaction(deps.pool, (client) => dropLeftovers(client, deps, docId));
    deps.metrics.conversions.inc({ status: 'failed' });
    return { ok: true };
  }
  await withTransaction(deps.pool, async (client) => {
    const row = await markReady(client, docId, input.pages);
    if (!row) await dropLeftovers(client, deps, docId);
  });
  deps.metrics.conversions.inc({ status: 'ready' });
  return { ok: true };
}

/**
 * The cleanup job: tombstones older than the TTL go (in batches, each its own transaction).
 * Whatever a conversion still wrote after failing is deleted with them.
 */
export async function removeExpiredTombstones(
  deps: Pick<FilesDeps, 'pool' | 'store' | 'log' | 'now' | 'env'>,
  batch = 200,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const before = new Date(deps.now().getTime() - deps.env.TOMBSTONE_TTL_MS);
    const n = await withTransaction(deps.pool, async (client) => {
      const ids = await expiredTombstones(client, before, batch);
      for (const id of ids) {
        await deleteObjectRow(client, id);
        await deleteStoredBytes(client, deps, id);
      }
      return ids.length;
    });
    removed += n;
    if (n < batch) break;
  }
  if (removed) deps.log.info({ removed }, 'expired upload tombstones removed');
  // spent or unanswered possession challenges (issue 25 §4) go with them
  await removeExpiredChallenges(deps.pool, deps.now());
  return removed;
}
