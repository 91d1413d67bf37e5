/**
 * upload.check, upload.register and doc.add (spec §5 Uploads, §7 POST /docs and /api/docs/add):
 * the rules of policies/uploadRules.ts with the facts they need (plans from auth, board access
 * from boards, usage from our tables), one registration per transaction under the charged
 * person's quota lock, content-hash dedupe (no second upload, no second conversion).
 */
import { AppError, originalKey } from '@wb/proto';
import type { DocumentDto, FileFormat, Plan, PossessionProof, RequestActor } from '@wb/proto';
import { withTransaction } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import {
  assertCanEditBoard,
  assertFileSize,
  assertWithinQuota,
  boardTarget,
  chargedUserOf,
  DISPLAY_IMAGE_MAX_BYTES,
  libraryTarget,
  requireUploader,
  uploadAllowance,
} from '../policies/uploadRules';
import type { UploadTarget } from '../policies/uploadRules';
import { presentDocument } from '../presenters/document';
import { lockQuota } from '../repositories/db';
import { claimObject, findObject } from '../repositories/objects';
import type { ObjectRow } from '../repositories/objects';
import { addToBoard, addToLibrary, chargedWith, possessedBy, usageOf } from '../repositories/registrations';
import { failConversion } from './conversion';
import type { FilesDeps } from './deps';
import { imageIdOf, verifyProof } from './possession';
import { readHead } from './staging';

/** the target of an upload and the plan of the person it is charged to */
export async function resolveTarget(
  deps: FilesDeps,
  callerId: number,
  boardId: string | undefined,
): Promise<{ target: UploadTarget; plan: Plan }> {
  if (boardId === undefined) {
    const plan = await deps.plans.planOf(callerId);
    return { target: libraryTarget(callerId, plan), plan };
  }
  const reply = await deps.boards.accessOf(boardId, callerId);
  const facts = { access: reply.access, readOnlyReason: reply.readOnlyReason, ownerId: reply.board.ownerId };
  // refused before the owner's plan is asked for: a viewer learns nothing about it
  assertCanEditBoard(facts);
  const ownerPlan = await deps.plans.planOf(reply.board.ownerId);
  return { target: boardTarget(callerId, boardId, facts, ownerPlan), plan: ownerPlan };
}

export async function checkUpload(
  deps: FilesDeps,
  input: { purpose: 'doc' | 'displayImage'; size: number; boardId?: string },
  actor: RequestActor,
): Promise<{ maxBytes: number }> {
  const callerId = requireUploader(actor.userId);
  if (input.purpose === 'displayImage') {
    const max = Math.min(DISPLAY_IMAGE_MAX_BYTES, deps.env.MAX_FILE_BYTES);
    assertFileSize(input.size, max);
    return { maxBytes: max };
  }
  const { target, plan } = await resolveTarget(deps, callerId, input.boardId);
  const charged = chargedUserOf(target);
  const usage = await usageOf(deps.pool, charged);
  return { maxBytes: uploadAllowance(plan, usage, input.size, deps.env.MAX_FILE_BYTES, charged === callerId) };
}

interface Registered {
  row: ObjectRow;
  entry: { name: string; created_at: Date };
}

interface Registration {
  target: UploadTarget;
  plan: Plan;
  callerId: number;
  docId: string;
  size: number;
  name: string;
}

/** in the transaction holding the quota lock: a document the charged person already holds adds nothing */
async function checkQuota(client: PoolClient, reg: Registration): Promise<void> {
  const charged = chargedUserOf(reg.target);
  if (await chargedWith(client, charged, reg.docId)) return;
  assertWithinQuota(reg.plan, await usageOf(client, charged), reg.size, charged === reg.callerId);
}

/** the entry in the library or on the board (one already there keeps its name and date) */
function addEntry(deps: FilesDeps, client: PoolClient, reg: Registration): Promise<{ name: string; created_at: Date }> {
  const now = deps.now();
  return reg.target.kind === 'library'
    ? addToLibrary(client, reg.target.userId, reg.docId, reg.name, now)
    : addToBoard(client, {
        boardId: reg.target.boardId,
        docId: reg.docId,
        ownerId: reg.target.ownerId,
        addedBy: reg.callerId,
        name: reg.name,
        now,
      });
}

/** the conversion of a stored original; a queue that cannot take it fails the upload cleanly */
async function startConversion(deps: FilesDeps, docId: string, format: FileFormat, ownerId: number): Promise<void> {
  try {
    const imageId = imageIdOf(deps.env.FILES_IMAGE_ID_SECRET, docId);
    await deps.converter.enqueue({ docId, imageId, format, purpose: 'doc', ownerId });
  } catch (err) {
    deps.log.error({ err, docId }, 'conversion could not be queued');
    await failConversion(deps, docId, 'The conversion could not be started, please try again');
    throw new AppError('ERR_UPLOAD_FAILED');
  }
}

export async function registerUpload(
  deps: FilesDeps,
  input: { stagingKey: string; sha256: string; size: number; name: string; boardId?: string },
  actor: RequestActor,
): Promise<DocumentDto> {
  let staged = true;
  try {
    const callerId = requireUploader(actor.userId);
    assertFileSize(input.size, deps.env.MAX_FILE_BYTES);
    const info = await deps.store.stat(input.stagingKey);
    if (!info) {
      staged = false;
      throw new AppError('ERR_NOT_FOUND', 'The uploaded file was not found in storage');
    }
    if (info.size !== input.size) {
      deps.log.warn(
        { stored: info.size, announced: input.size },
        'staged upload size differs from the gateway’s count',
      );
      throw new AppError('ERR_UPLOAD_FAILED');
    }
    // the rules again with the real size (the Content-Length may have been absent)
    const { target, plan } = await resolveTarget(deps, callerId, input.boardId);
    const sniffed = deps.sniff(await readHead(deps.store, input.stagingKey, input.size), input.name);
    if (!sniffed) throw new AppError('ERR_UNSUPPORTED_FILE');

    const docId = input.sha256;
    const result = await withTransaction(deps.pool, async (client): Promise<Registered & { convert: boolean }> => {
      const reg: Registration = { target, plan, callerId, docId, size: input.size, name: input.name };
      await lockQuota(client, chargedUserOf(target));
      // checked before the object is claimed: a refused upload leaves nothing behind
      await checkQuota(client, reg);
      const { row, convert } = await claimObject(client, {
        id: docId,
        format: sniffed.format,
        isImage: sniffed.isImage,
        mime: sniffed.mime,
        size: input.size,
      });
      if (convert) {
        await deps.store.move(input.stagingKey, originalKey(docId));
        staged = false;
      }
      return { row, entry: await addEntry(deps, client, reg), convert };
    });
    if (result.convert) {
      deps.metrics.bytesStored.inc(input.size);
      await startConversion(deps, docId, result.row.format, callerId);
    } else {
      deps.metrics.dedupeHits.inc({ via: 'upload' });
    }
    deps.metrics.uploads.inc({ purpose: 'doc', outcome: result.convert ? 'stored' : 'deduped' });
    return presentDocument(result.row, result.entry, imageIdOf(deps.env.FILES_IMAGE_ID_SECRET, docId));
  } catch (err) {
    deps.metrics.uploads.inc({ purpose: 'doc', outcome: err instanceof AppError ? err.code : 'ERR_UNKNOWN' });
    throw err;
  } finally {
    // refused, deduplicated or failed: the staged bytes are not needed any more
    if (staged)
      await deps.store
        .delete([input.stagingKey])
        .catch((err: unknown) => deps.log.warn({ err }, 'staged upload not deleted'));
  }
}

/**
 * POST /api/docs/add: the bytes are stored already (GET /api/docs/{hash} said so). Someone who has
 * not shown they hold them before (in their library, or put on a board by them) needs the answer
 * to doc.get's possession challenge (issue 25 §4); without it the bytes are "not stored" for
 * them, and the client uploads them (ERR_NOT_FOUND, as for bytes nobody stored).
 */
export async function addDocument(
  deps: FilesDeps,
  input: { docId: string; name: string; boardId?: string; proof?: PossessionProof },
  actor: RequestActor,
): Promise<DocumentDto> {
  const callerId = requireUploader(actor.userId);
  const { target, plan } = await resolveTarget(deps, callerId, input.boardId);
  if (
    !(await possessedBy(deps.pool, callerId, input.docId)) &&
    !(await verifyProof(deps, callerId, input.docId, input.proof))
  )
    throw new AppError('ERR_NOT_FOUND', 'This file could not be confirmed as yours: upload it');
  const result = await withTransaction(deps.pool, async (client): Promise<Registered> => {
    await lockQuota(client, chargedUserOf(target));
    const row = await findObject(client, input.docId, { lock: true });
    // a failed conversion is retried by uploading the bytes again
    if (!row || row.status === 'failed') throw new AppError('ERR_NOT_FOUND', 'This file is not stored yet: upload it');
    const reg: Registration = { target, plan, callerId, docId: row.id, size: Number(row.size), name: input.name };
    await checkQuota(client, reg);
    return { row, entry: await addEntry(deps, client, reg) };
  });
  deps.metrics.dedupeHits.inc({ via: 'add' });
  return presentDocument(result.row, result.entry, imageIdOf(deps.env.FILES_IMAGE_ID_SECRET, result.row.id));
}
