import { describe, expect, it } from '@jest/globals';
import { AppError, PLANS } from '@wb/proto';
import type { Plan } from '@wb/proto';
import {
  assertCanEditBoard,
  assertDisplayImage,
  assertFileSize,
  assertWithinQuota,
  boardTarget,
  chargedUserOf,
  DISPLAY_IMAGE_MAX_BYTES,
  formatBytes,
  libraryTarget,
  requireUploader,
  uploadAllowance,
} from './uploadRules';

const MB = 1024 * 1024;
const { starter, standard, premium } = PLANS;

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
  return undefined;
}

describe('who may upload', () => {
  it('refuses guests', () => {
    expect(codeOf(() => requireUploader(0))).toBe('ERR_UPLOAD_GUEST');
    expect(codeOf(() => requireUploader(-1))).toBe('ERR_UPLOAD_GUEST');
    expect(requireUploader(7)).toBe(7);
  });

  it('library uploads need fileUpload and are charged to the caller', () => {
    expect(codeOf(() => libraryTarget(7, starter))).toBe('ERR_UPLOAD_NOT_ENABLED');
    const target = libraryTarget(7, standard);
    expect(target).toEqual({ kind: 'library', userId: 7 });
    expect(chargedUserOf(target)).toBe(7);
  });
});

describe('board uploads', () => {
  const owner = 1;
  const facts = (access: 'own' | 'edit' | 'view' | 'none', readOnlyReason: string | null = null) => ({
    access,
    readOnlyReason,
    ownerId: owner,
  });

  it('need edit access on a board that is not read-only', () => {
    expect(codeOf(() => assertCanEditBoard(facts('view')))).toBe('ERR_FORBIDDEN');
    expect(codeOf(() => assertCanEditBoard(facts('none')))).toBe('ERR_FORBIDDEN');
    expect(codeOf(() => assertCanEditBoard(facts('edit', 'planLimits')))).toBe('ERR_FORBIDDEN');
    expect(codeOf(() => assertCanEditBoard(facts('own')))).toBeUndefined();
    expect(codeOf(() => assertCanEditBoard(facts('edit')))).toBeUndefined();
  });

  it('the owner uploads to their board whatever their plan, charged to themselves', () => {
    const target = boardTarget(owner, 'b1', facts('own'), starter);
    expect(target).toEqual({ kind: 'board', boardId: 'b1', ownerId: owner });
    expect(chargedUserOf(target)).toBe(owner);
  });

  it("a participant needs the owner's othersUpload and is charged to the owner", () => {
    expect(codeOf(() => boardTarget(2, 'b1', facts('edit'), standard))).toBe('ERR_UPLOAD_NOT_ENABLED');
    const target = boardTarget(2, 'b1', facts('edit'), premium);
    expect(chargedUserOf(target)).toBe(owner);
  });

  it('a viewer is refused before the plan matters', () => {
    expect(codeOf(() => boardTarget(2, 'b1', facts('view'), premium))).toBe('ERR_FORBIDDEN');
  });
});

describe('sizes and quota', () => {
  const plan: Plan = { ...standard, limits: { ...standard.limits, maxData: 10 * MB } };

  it('refuses a file over the largest size', () => {
    expect(codeOf(() => assertFileSize(5 * MB + 1, 5 * MB))).toBe('ERR_FILE_TOO_LARGE');
    expect(codeOf(() => assertFileSize(5 * MB, 5 * MB))).toBeUndefined();
  });

  it('usage + size may reach maxData but not pass it', () => {
    expect(codeOf(() => assertWithinQuota(plan, 6 * MB, 4 * MB, true))).toBeUndefined();
    expect(codeOf(() => assertWithinQuota(plan, 6 * MB, 4 * MB + 1, true))).toBe('ERR_MAX_STORAGE_REACHED');
  });

  it('a document already counted adds nothing, even over the limit', () => {
    expect(codeOf(() => assertWithinQuota(plan, 12 * MB, 0, true))).toBeUndefined();
  });

  it('says whose limit it is', () => {
    expect(() => assertWithinQuota(plan, 10 * MB, 1, false)).toThrow(/board owner/);
    expect(() => assertWithinQuota(plan, 10 * MB, 1, true)).toThrow(/0 bytes of 10 MB left/);
  });

  it('upload.check allows the quota left, capped by the largest file', () => {
    expect(uploadAllowance(plan, 4 * MB, 0, 100 * MB, true)).toBe(6 * MB);
    expect(uploadAllowance(plan, 4 * MB, 0, 2 * MB, true)).toBe(2 * MB);
    expect(uploadAllowance(plan, 4 * MB, 6 * MB, 100 * MB, true)).toBe(6 * MB);
    expect(codeOf(() => uploadAllowance(plan, 4 * MB, 6 * MB + 1, 100 * MB, true))).toBe('ERR_MAX_STORAGE_REACHED');
    expect(codeOf(() => uploadAllowance(plan, 4 * MB, 3 * MB, 2 * MB, true))).toBe('ERR_FILE_TOO_LARGE');
    // nothing left: even an unknown size cannot fit
    expect(codeOf(() => uploadAllowance(plan, 10 * MB, 0, 100 * MB, true))).toBe('ERR_MAX_STORAGE_REACHED');
  });
});

describe('profile pictures', () => {
  it('take images of at most 10 MB', () => {
    expect(codeOf(() => assertDisplayImage(1000, { isImage: true }))).toBeUndefined();
    expect(codeOf(() => assertDisplayImage(DISPLAY_IMAGE_MAX_BYTES + 1, { isImage: true }))).toBe('ERR_FILE_TOO_LARGE');
    expect(codeOf(() => assertDisplayImage(1000, { isImage: false }))).toBe('ERR_UNSUPPORTED_FILE');
    expect(codeOf(() => assertDisplayImage(1000, null))).toBe('ERR_UNSUPPORTED_FILE');
  });
});

it('formats bytes in 1024-based units', () => {
  expect(formatBytes(0)).toBe('0 bytes');
  expect(formatBytes(1536)).toBe('1.5 KB');
  expect(formatBytes(50 * MB)).toBe('50 MB');
});
