/**
 * Who may upload or add a file, and who pays for it (spec §5 Uploads, §9 plans):
 * - guests (userId 0) never: ERR_UPLOAD_GUEST;
 * - without a board: the caller's plan needs fileUpload; the file goes to their library and
 *   counts against their maxData;
 * - for a board: the caller needs edit access (not the fileUpload feature); the file counts
 *   against the board owner's maxData, and a caller who is not the owner needs the owner's plan
 *   to have othersUpload;
 * - a person's usage counts each distinct document once (their library plus their boards).
 * Pure functions: the commands gather the plans, the access and the usage and ask these.
 */
import { AppError } from '@wb/proto';
import type { BoardAccess, Plan } from '@wb/proto';

/** Profile pictures (POST /display-image) are at most this large. */
export const DISPLAY_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

export function isGuestId(userId: number): boolean {
  return !Number.isInteger(userId) || userId <= 0;
}

/** the caller's id when they may upload at all */
export function requireUploader(userId: number): number {
  if (isGuestId(userId)) throw new AppError('ERR_UPLOAD_GUEST');
  return userId;
}

/** What boards' access.check said about the caller and the board an upload is for. */
export interface BoardAccessFacts {
  access: BoardAccess;
  readOnlyReason: string | null;
  ownerId: number;
}

/** Where an allowed upload is recorded and whose quota it uses. */
export type UploadTarget = { kind: 'library'; userId: number } | { kind: 'board'; boardId: string; ownerId: number };

/** the person whose plan and quota an upload uses (the caller, or the board's owner) */
export function chargedUserOf(target: UploadTarget): number {
  return target.kind === 'library' ? target.userId : target.ownerId;
}

/** A library upload: the caller's plan must have fileUpload. */
export function libraryTarget(callerId: number, callerPlan: Plan): UploadTarget {
  if (!callerPlan.features.fileUpload) {
    throw new AppError(
      'ERR_UPLOAD_NOT_ENABLED',
      `Uploading files is not available on the ${callerPlan.name} plan; files for a board can still be uploaded there`,
    );
  }
  return { kind: 'library', userId: callerId };
}

/** the caller must be able to edit the board (own or edit, and the board not read-only for them) */
export function assertCanEditBoard(facts: BoardAccessFacts): void {
  if (facts.access !== 'own' && facts.access !== 'edit') {
    throw new AppError('ERR_FORBIDDEN', 'You cannot add files to this board: you may only view it');
  }
  if (facts.readOnlyReason !== null) {
    throw new AppError('ERR_FORBIDDEN', 'This board is read-only at the moment: files cannot be added to it');
  }
}

/**
 * A board upload, once the caller may edit it: charged to the owner; someone else uploading
 * needs the owner's plan to have othersUpload.
 */
export function boardTarget(callerId: number, boardId: string, facts: BoardAccessFacts, ownerPlan: Plan): UploadTarget {
  assertCanEditBoard(facts);
  if (facts.ownerId !== callerId && !ownerPlan.features.othersUpload) {
    throw new AppError(
      'ERR_UPLOAD_NOT_ENABLED',
      "The board owner's plan does not let participants upload files to their boards",
    );
  }
  return { kind: 'board', boardId, ownerId: facts.ownerId };
}

/** a single file may not exceed `maxFileBytes` */
export function assertFileSize(size: number, maxFileBytes: number): void {
  if (size > maxFileBytes) {
    throw new AppError('ERR_FILE_TOO_LARGE', `The file is too large: at most ${formatBytes(maxFileBytes)} per file`);
  }
}

/**
 * Spec §5 maxData: `usage` is what the charged person stores now; `adding` the bytes this
 * registration adds to it (0 when they already hold the document).
 */
export function assertWithinQuota(plan: Plan, usage: number, adding: number, chargedIsCaller: boolean): void {
  if (adding > 0 && usage + adding > plan.limits.maxData) {
    const left = Math.max(0, plan.limits.maxData - usage);
    throw new AppError(
      'ERR_MAX_STORAGE_REACHED',
      chargedIsCaller
        ? `You have reached the storage limit of your plan: ${formatBytes(left)} of ${formatBytes(plan.limits.maxData)} left`
        : `The board owner has reached the storage limit of their plan: ${formatBytes(left)} left`,
    );
  }
}

/**
 * upload.check: the most bytes the gateway may accept (the quota left, capped by the largest
 * file), or the error when even the announced `size` (0 = unknown) cannot fit.
 */
export function uploadAllowance(
  plan: Plan,
  usage: number,
  size: number,
  maxFileBytes: number,
  chargedIsCaller: boolean,
): number {
  assertFileSize(size, maxFileBytes);
  const left = Math.max(0, plan.limits.maxData - usage);
  // an empty file is unsupported anyway: with nothing left no upload can succeed
  assertWithinQuota(plan, usage, Math.max(size, 1), chargedIsCaller);
  return Math.min(maxFileBytes, left);
}

/** A profile picture: an image (sniffed) of at most 10 MB. */
export function assertDisplayImage(size: number, sniffed: { isImage: boolean } | null): void {
  assertFileSize(size, DISPLAY_IMAGE_MAX_BYTES);
  if (!sniffed || !sniffed.isImage)
    throw new AppError('ERR_UNSUPPORTED_FILE', 'Unsupported file: please choose an image');
}

/** 1024-based units (spec §9 byte units), for messages */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v} bytes` : `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
}
