/** DocumentDto (spec §3 Document/file) of a stored object as one person sees it. */
import type { DocumentDto, PossessionChallenge } from '@wb/proto';
import type { ObjectRow } from '../repositories/objects';

/**
 * `name`/`created`: the caller's own entry ('' and the object's date when they hold none);
 * `imageId`: where its images are served ('' for someone who has not shown they hold it);
 * `challenge`: the possession challenge of doc.get (issue 25 §4).
 */
export function presentDocument(
  o: ObjectRow,
  entry: { name: string; created_at: Date } | null,
  imageId: string,
  challenge?: PossessionChallenge,
): DocumentDto {
  return {
    id: o.id,
    name: entry?.name ?? '',
    isImage: o.is_image ? 1 : 0,
    created: (entry?.created_at ?? o.created_at).toISOString(),
    size: Number(o.size),
    pages: o.pages,
    format: o.format,
    status: o.status,
    pagesDone: o.pages_done,
    error:
      o.status === 'failed'
        ? (o.error ?? 'The file could not be converted')
        : o.status === 'processing'
          ? o.error
          : null,
    imageId,
    ...(challenge ? { challenge } : {}),
  };
}
