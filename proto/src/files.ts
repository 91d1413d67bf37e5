/**
 * Files service contracts (spec §3 Document/file, §5 Uploads, §7 docs calls): a person's file
 * library, uploads for a board, content-hash dedupe and the conversion state the browser polls.
 *
 * The bytes never travel over NATS: the gateway streams an upload into object storage under a
 * staging key while hashing it, then asks `upload.register` about the stored object. Derived
 * images are served by the gateway straight from object storage under content-addressed URLs
 * (`docPageUrl`, `imageUrl`), so they are cached for ever.
 * (Owned by the files service; the gateway, the conversion worker and the web import these.)
 */
import { z } from 'zod';
import { emptyInputSchema } from './auth';
import { boardIdSchema } from './boards';

/** A document's id is the lowercase hex SHA-256 of its bytes (spec §7: "looks up a document by content hash"). */
export const DOC_ID_PATTERN = /^[0-9a-f]{64}$/;
export const docIdSchema = z.string().regex(DOC_ID_PATTERN, 'must be a SHA-256 content hash (64 lowercase hex digits)');

export const FILE_NAME_MAX_LENGTH = 255;
/**
 * A file name cut to at most `max` UTF-16 units at a code-point boundary (issue 25 §5): a cut
 * that would split a surrogate pair drops the whole pair, so no lone half is left (which every
 * boundary refuses as "lone surrogate"). Trailing white space left by the cut is trimmed.
 */
export function cutFileName(name: string, max = FILE_NAME_MAX_LENGTH): string {
  if (name.length <= max) return name;
  let end = max;
  const last = name.charCodeAt(end - 1);
  // the unit before the cut is a high surrogate whose low half would be cut off
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return name.slice(0, end).trimEnd();
}
/** What the upload rules (spec §5) accept, named by the format sniffed from the content. */
export const DOCUMENT_FORMATS = [
  'pdf',
  'doc',
  'docx',
  'ppt',
  'pptx',
  'pps',
  'txt',
  'xls',
  'xlsx',
  'xlt',
  'odt',
  'rtf',
  'epub',
  'sdw',
  'sdc',
  'sda',
  'sdd',
  'csv',
  'pages',
] as const;
export const IMAGE_FORMATS = ['png', 'jpeg', 'gif', 'webp', 'bmp', 'tiff', 'svg', 'avif', 'heic'] as const;
export const FILE_FORMATS = [...DOCUMENT_FORMATS, ...IMAGE_FORMATS] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/**
 * Issue 25 §4: before `doc.add` registers stored bytes for someone who did not upload them, they
 * prove they hold the file: SHA-256 over the nonce (as UTF-8) followed by the bytes of each range
 * in order (`start` inclusive, `end` exclusive). Short-lived and single-use on the server.
 */
export const POSSESSION_RANGES = 4;
export const POSSESSION_RANGE_BYTES = 64 * 1024;
export const possessionChallengeSchema = z.object({
  nonce: z.string().regex(/^[0-9a-f]{32}$/),
  ranges: z
    .array(z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }))
    .max(POSSESSION_RANGES),
  /** ISO 8601: after this the answer is refused (the client uploads instead) */
  expires: z.string(),
});
export type PossessionChallenge = z.infer<typeof possessionChallengeSchema>;
export const possessionProofSchema = z.strictObject({
  nonce: z.string().regex(/^[0-9a-f]{32}$/),
  /** lowercase hex SHA-256 of nonce + the challenge's ranges */
  digest: z.string().regex(/^[0-9a-f]{64}$/),
});
export type PossessionProof = z.infer<typeof possessionProofSchema>;

/** Spec §4 upload states after the bytes are in: processing (pages being made), ready, failed. */
export const DOC_STATUSES = ['processing', 'ready', 'failed'] as const;
export type DocStatus = (typeof DOC_STATUSES)[number];

/** Caps a converted document is held to (a page bomb stops here; the worker fails it with a message). */
export const MAX_DOCUMENT_PAGES = 300;
/** Thumbnails are this wide (spec §2 thumbnail URLs; the research notes measured 320 px). */
export const THUMBNAIL_WIDTH = 320;

/**
 * Spec §3 Document/file, as the caller sees it: `name` is the caller's own name for it (two people
 * may name one stored file differently); `created` is when the caller added it (ISO 8601).
 * `status`/`pagesDone`/`error` are the conversion's state (spec §4 upload states).
 */
export const documentDtoSchema = z.object({
  id: docIdSchema,
  name: z.string(),
  isImage: z.union([z.literal(0), z.literal(1)]),
  created: z.string(),
  size: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative(),
  format: z.enum(FILE_FORMATS),
  status: z.enum(DOC_STATUSES),
  pagesDone: z.number().int().nonnegative(),
  /**
   * failed: the reason, readable by the person; processing: the worker's notice while it retries
   * after a passing fault ("we could not convert this file right now, retrying"), else null
   */
  error: z.string().nullable(),
  /**
   * Issue 25 §4: the opaque id its images are served under (`docPageUrl(imageId, …)`,
   * `imageUrl(imageId, …)`), a keyed hash of the content that does not reveal the SHA-256 (the
   * SHA-256 is what `doc.add` needs). '' when the caller does not hold the document.
   */
  imageId: z.union([z.literal(''), z.string().regex(DOC_ID_PATTERN)]),
  /**
   * Issue 25 §4 proof of possession: present on `doc.get` when the bytes are stored and the
   * caller has not proven they hold them yet; `doc.add` needs `proofOfPossession(challenge, file)`.
   */
  challenge: possessionChallengeSchema.optional(),
});
export type DocumentDto = z.infer<typeof documentDtoSchema>;

/** Where the derived images of a document or image are served (spec §2; pageIndex = page number − 1). */
export function docPageUrl(docId: string, pageIndex: number, size: 'full' | 'thumb'): string {
  return `/docs/${docId}-${pageIndex}-${size}.webp`;
}
export function imageUrl(docId: string, size: 'full' | 'thumb'): string {
  return `/images/${docId}-${size}.webp`;
}
/** Object-storage keys of the same images: the URL path without its leading slash. */
export function docPageKey(docId: string, pageIndex: number, size: 'full' | 'thumb'): string {
  return docPageUrl(docId, pageIndex, size).slice(1);
}
export function imageKey(docId: string, size: 'full' | 'thumb'): string {
  return imageUrl(docId, size).slice(1);
}
/**
 * The square profile picture made from an upload (POST /display-image). Its own name, so the same
 * bytes used as a document image and as a picture keep both renderings.
 */
export function displayImageUrl(docId: string): string {
  return `/images/${docId}-avatar.webp`;
}
export function displayImageKey(docId: string): string {
  return displayImageUrl(docId).slice(1);
}
/** The uploaded bytes, as received. */
export function originalKey(docId: string): string {
  return `originals/${docId}`;
}
/** Where the gateway streams an upload before the files service has looked at it. */
export const STAGING_KEY_PATTERN = /^staging\/[0-9a-f]{32}$/;

const fileNameSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(FILE_NAME_MAX_LENGTH, `at most ${FILE_NAME_MAX_LENGTH} characters`);

export const docRefSchema = z.strictObject({ docId: docIdSchema });
export const docAddInputSchema = z.strictObject({
  docId: docIdSchema,
  name: fileNameSchema,
  boardId: boardIdSchema.optional(),
  /** the answer to `doc.get`'s challenge; without a valid one the bytes are ERR_NOT_FOUND (upload them) */
  proof: possessionProofSchema.optional(),
});
export const DOCS_BATCH_MAX = 100;
export const docsDeleteInputSchema = z.strictObject({
  ids: z.array(docIdSchema).min(1).max(DOCS_BATCH_MAX),
});

/** Gateway → files, before reading an upload's body: may this person upload `size` bytes here? */
export const uploadCheckInputSchema = z.strictObject({
  purpose: z.enum(['doc', 'displayImage']),
  /** Content-Length of the request when known (0 when not): refused early when it cannot fit */
  size: z.number().int().nonnegative(),
  boardId: boardIdSchema.optional(),
});
export const uploadCheckReplySchema = z.object({
  /** the most bytes the gateway may accept for this upload (quota left, capped by the largest file) */
  maxBytes: z.number().int().nonnegative(),
});

/** Gateway → files, once the bytes are stored under `stagingKey`: sha256 and size as the gateway measured them. */
export const uploadRegisterInputSchema = z.strictObject({
  purpose: z.enum(['doc', 'displayImage']),
  stagingKey: z.string().regex(STAGING_KEY_PATTERN),
  sha256: docIdSchema,
  size: z.number().int().nonnegative(),
  name: fileNameSchema,
  boardId: boardIdSchema.optional(),
});
/** POST /display-image: the cropped square picture's URL (absolute path on this origin). */
export const displayImageReplySchema = z.object({ id: docIdSchema, url: z.string() });

/** Gateway → files: may the caller download the original bytes, and as what? */
export const docOriginalReplySchema = z.object({
  key: z.string(),
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
});

/**
 * Conversion worker → files: how a conversion goes. Sent as pages are made (processing, at most
 * a few times a second) and once at the end (ready or failed); the files service keeps the state
 * the browser polls. Only the worker calls it (NATS only, no gateway route).
 */
export const conversionReportInputSchema = z.strictObject({
  docId: docIdSchema,
  status: z.enum(DOC_STATUSES),
  pages: z.number().int().nonnegative().max(MAX_DOCUMENT_PAGES),
  pagesDone: z.number().int().nonnegative().max(MAX_DOCUMENT_PAGES),
  /** readable reason when failed ("The document has more than 300 pages"), else null */
  error: z.string().max(500).nullable(),
});

export const filesOperations = {
  'docs.list': { input: emptyInputSchema, output: z.array(documentDtoSchema) },
  /** spec §7: null when nobody has stored these bytes yet (the browser then uploads them) */
  'doc.get': { input: docRefSchema, output: documentDtoSchema.nullable() },
  'doc.add': { input: docAddInputSchema, output: documentDtoSchema },
  'docs.delete': { input: docsDeleteInputSchema, output: z.object({ ids: z.array(docIdSchema) }) },
  'doc.original': { input: docRefSchema, output: docOriginalReplySchema },
  'upload.check': { input: uploadCheckInputSchema, output: uploadCheckReplySchema },
  'upload.register': { input: uploadRegisterInputSchema, output: documentDtoSchema },
  'displayImage.register': { input: uploadRegisterInputSchema, output: displayImageReplySchema },
  'conversion.report': { input: conversionReportInputSchema, output: z.object({ ok: z.literal(true) }) },
} as const;
export type FilesOperation = keyof typeof filesOperations;

/** BullMQ queue of the conversion worker (prefixed per deployment like every queue). */
export const FILES_CONVERT_QUEUE = 'files-convert';
/**
 * One job per stored original: `doc` makes page images (documents) or full/thumb (images) and
 * reports through `conversion.report`; `displayImage` makes the square profile picture
 * (`imageKey(id, 'full')`, 256 px) and its result is awaited by the files service.
 */
export const filesConvertJobSchema = z.object({
  docId: docIdSchema,
  /** the id its images are stored under (DocumentDto.imageId; issue 25 §4); docId for older jobs */
  imageId: docIdSchema.optional(),
  format: z.enum(FILE_FORMATS),
  purpose: z.enum(['doc', 'displayImage']),
  /** who uploaded it: the converter runs one job per owner at a time (issue 25 §2 fairness) */
  ownerId: z.number().int().nonnegative().optional(),
});
export type FilesConvertJob = z.infer<typeof filesConvertJobSchema>;
