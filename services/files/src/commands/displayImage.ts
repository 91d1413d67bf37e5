/**
 * POST /display-image (profile picture): logged in, no plan feature, an image (sniffed) of at
 * most 10 MB; stored like any upload but in nobody's library or quota; the worker makes the
 * square picture while the request waits (≤ DISPLAY_IMAGE_WAIT_MS).
 */
import { AppError, displayImageKey, displayImageUrl, originalKey } from '@wb/proto';
import type { RequestActor } from '@wb/proto';
import { assertDisplayImage, requireUploader } from '../policies/uploadRules';
import { findObject, isDisplayImage, recordDisplayImage } from '../repositories/objects';
import type { FilesDeps } from './deps';
import { readHead } from './staging';

export async function registerDisplayImage(
  deps: FilesDeps,
  input: { stagingKey: string; sha256: string; size: number; name: string },
  actor: RequestActor,
): Promise<{ id: string; url: string }> {
  let staged = true;
  try {
    requireUploader(actor.userId);
    const info = await deps.store.stat(input.stagingKey);
    if (!info) {
      staged = false;
      throw new AppError('ERR_NOT_FOUND', 'The uploaded file was not found in storage');
    }
    const sniffed = deps.sniff(await readHead(deps.store, input.stagingKey, info.size), input.name);
    assertDisplayImage(info.size, sniffed);
    const id = input.sha256;
    const url = displayImageUrl(id);
    if ((await isDisplayImage(deps.pool, id)) && (await deps.store.stat(displayImageKey(id)))) {
      deps.metrics.dedupeHits.inc({ via: 'upload' });
      deps.metrics.uploads.inc({ purpose: 'displayImage', outcome: 'deduped' });
      return { id, url };
    }
    // same bytes as any document with this id: replacing its original changes nothing
    await deps.store.move(input.stagingKey, originalKey(id));
    staged = false;
    try {
      await deps.converter.runDisplayImage(
        { docId: id, format: sniffed!.format, purpose: 'displayImage' },
        deps.env.DISPLAY_IMAGE_WAIT_MS,
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : '';
      // BullMQ's waitUntilFinished: the worker did not answer in time (not the picture's fault)
      const timedOut = /timed out before finishing/.test(message);
      deps.log.warn({ err, docId: id, timedOut }, 'profile picture not made');
      // nothing records these bytes: they go now (a late worker's output is left to the orphan sweep)
      await dropUnrecordedOriginal(deps, id);
      if (timedOut)
        throw new AppError('ERR_UPLOAD_FAILED', 'The picture could not be processed in time, please try again');
      const reason = message ? `: ${message.slice(0, 200)}` : '';
      // issue 25 §5: a picture the worker cannot read is the upload's fault: a 4xx, not a 502
      throw new AppError('ERR_UNSUPPORTED_FILE', `The picture could not be read${reason}`);
    }
    await recordDisplayImage(deps.pool, id);
    deps.metrics.bytesStored.inc(info.size);
    deps.metrics.uploads.inc({ purpose: 'displayImage', outcome: 'stored' });
    return { id, url };
  } catch (err) {
    if (err instanceof AppError) deps.metrics.uploads.inc({ purpose: 'displayImage', outcome: err.code });
    throw err;
  } finally {
    if (staged)
      await deps.store
        .delete([input.stagingKey])
        .catch((err: unknown) => deps.log.warn({ err }, 'staged upload not deleted'));
  }
}

/** the original of a refused picture, unless a document or an earlier picture is made of the same bytes */
async function dropUnrecordedOriginal(deps: FilesDeps, id: string): Promise<void> {
  try {
    if ((await findObject(deps.pool, id)) || (await isDisplayImage(deps.pool, id))) return;
    await deps.store.delete([originalKey(id), displayImageKey(id)]);
  } catch (err) {
    deps.log.warn({ err, docId: id }, 'refused picture not deleted (the orphan sweep will)');
  }
}
