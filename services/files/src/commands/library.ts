/** A person's file library: docs.list, doc.get, docs.delete, doc.original (spec §7 docs calls). */
import { AppError, originalKey } from '@wb/proto';
import type { DocumentDto, RequestActor } from '@wb/proto';
import { withTransaction } from '@wb/platform';
import { isGuestId } from '../policies/uploadRules';
import { presentDocument } from '../presenters/document';
import { lockQuota } from '../repositories/db';
import { findObject } from '../repositories/objects';
import { libraryEntry, libraryOf, possessedBy, removeFromLibrary } from '../repositories/registrations';
import type { FilesDeps } from './deps';
import { imageIdOf, issueChallenge } from './possession';
import { releaseOrphans } from './storedBytes';

function requireUserId(actor: RequestActor): number {
  if (isGuestId(actor.userId)) throw new AppError('ERR_UNAUTHORIZED');
  return actor.userId;
}

/** GET /api/docs: the caller's library, newest first */
export async function listLibrary(deps: FilesDeps, actor: RequestActor): Promise<DocumentDto[]> {
  const rows = await libraryOf(deps.pool, requireUserId(actor));
  const secret = deps.env.FILES_IMAGE_ID_SECRET;
  return rows.map((r) => presentDocument(r, { name: r.name, created_at: r.added_at }, imageIdOf(secret, r.id)));
}

/**
 * GET /api/docs/{hash}: null when these bytes are not stored (the browser uploads them), else
 * the document with the caller's name for it ('' when they do not hold it) and its state. Someone
 * who has not shown they hold the bytes gets no image id and, when they could add it, a
 * possession challenge (issue 25 §4).
 */
export async function getDocument(deps: FilesDeps, docId: string, actor: RequestActor): Promise<DocumentDto | null> {
  const secret = deps.env.FILES_IMAGE_ID_SECRET;
  if (!isGuestId(actor.userId)) {
    const entry = await libraryEntry(deps.pool, actor.userId, docId);
    if (entry)
      return presentDocument(entry, { name: entry.name, created_at: entry.added_at }, imageIdOf(secret, docId));
  }
  const row = await findObject(deps.pool, docId);
  if (!row) return null;
  if (isGuestId(actor.userId)) return presentDocument(row, null, '');
  if (await possessedBy(deps.pool, actor.userId, docId)) return presentDocument(row, null, imageIdOf(secret, docId));
  // a failed tombstone cannot be added (the bytes are gone): the client uploads them again
  if (row.status === 'failed') return presentDocument(row, null, '');
  return presentDocument(row, null, '', await issueChallenge(deps, actor.userId, docId, Number(row.size)));
}

/** POST /api/docs/delete: ids the caller does not hold are ignored; answers the ids removed */
export async function deleteDocuments(deps: FilesDeps, ids: string[], actor: RequestActor): Promise<{ ids: string[] }> {
  const userId = requireUserId(actor);
  const removed = await withTransaction(deps.pool, async (client) => {
    await lockQuota(client, userId);
    const gone = await removeFromLibrary(client, userId, [...new Set(ids)]);
    await releaseOrphans(deps, client, gone);
    return new Set(gone);
  });
  return { ids: [...new Set(ids)].filter((id) => removed.has(id)) };
}

/** GET of the original bytes (download in the file viewer): only for a document the caller holds */
export async function originalOf(
  deps: FilesDeps,
  docId: string,
  actor: RequestActor,
): Promise<{ key: string; filename: string; contentType: string; size: number }> {
  const entry = isGuestId(actor.userId) ? null : await libraryEntry(deps.pool, actor.userId, docId);
  if (!entry || entry.status === 'failed') throw new AppError('ERR_NOT_FOUND');
  return { key: originalKey(docId), filename: entry.name, contentType: entry.mime, size: Number(entry.size) };
}
