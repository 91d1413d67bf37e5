/**
 * Deleting what object storage holds of a document, and the documents nobody holds any more.
 * Called inside the transaction that holds the object's row lock, so a parallel upload of the
 * same bytes (which inserts or locks that row first) cannot have its fresh original deleted.
 */
import { imageKey, originalKey } from '@wb/proto';
import { imageIdOf } from './possession';
import type { ObjectStore, PoolClient } from '@wb/platform';
import { deleteObjectRow, findObject, isDisplayImage } from '../repositories/objects';
import { isHeld } from '../repositories/registrations';
import type { FilesMetrics } from '../metrics';

/** what deleting stored bytes needs: the store and the key of the image ids */
export interface StoredBytesDeps {
  store: ObjectStore;
  env: { FILES_IMAGE_ID_SECRET: string };
}

/**
 * The original and every derived image of `id` (under its image id, and under the content hash
 * where images were stored before issue 25). A profile picture made from the same bytes keeps its
 * own picture (displayImageKey) and the original it was made from.
 */
export async function deleteStoredBytes(client: PoolClient, deps: StoredBytesDeps, id: string): Promise<void> {
  const { store } = deps;
  for (const name of [imageIdOf(deps.env.FILES_IMAGE_ID_SECRET, id), id]) {
    await store.deletePrefix(`docs/${name}-`);
    await store.delete([imageKey(name, 'full'), imageKey(name, 'thumb')]);
  }
  if (!(await isDisplayImage(client, id))) await store.delete([originalKey(id)]);
}

/**
 * Of `ids`, delete the rows and stored bytes of the documents no person and no board holds any
 * more (tombstones of failed conversions are left to the cleanup job). Answers the ids deleted.
 */
export async function releaseOrphans(
  deps: StoredBytesDeps & { metrics: FilesMetrics },
  client: PoolClient,
  ids: string[],
): Promise<string[]> {
  const deleted: string[] = [];
  // id order: two transactions releasing overlapping sets lock rows in the same order
  for (const id of [...new Set(ids)].sort()) {
    const row = await findObject(client, id, { lock: true });
    if (!row || row.status === 'failed' || (await isHeld(client, id))) continue;
    await deleteObjectRow(client, id);
    await deleteStoredBytes(client, deps, id);
    deps.metrics.bytesDeleted.inc(Number(row.size));
    deleted.push(id);
  }
  return deleted;
}
