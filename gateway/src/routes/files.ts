/**
 * Files routes (spec §7 docs calls). The JSON calls are plain RouteDefs forwarded to the files
 * service (`filesOperations` in proto). The calls that carry bytes — uploads (multipart, streamed
 * into object storage), the original's download and the derived images — are executed by
 * ../http/files.ts; `fileStreamRoutes` only documents them in the OpenAPI document.
 */
import { z } from 'zod';
import {
  boardIdSchema,
  displayImageReplySchema,
  docIdSchema,
  documentDtoSchema,
  filesOperations,
  THUMBNAIL_WIDTH,
} from '@wb/proto';
import type { ErrorCode, FilesOperation } from '@wb/proto';
import type { DocRoute } from '../openapi';
import { defineRoutes } from './types';
import type { HttpMethod, RouteDef } from './types';

const docParams = z.object({ docId: docIdSchema });

function route(
  method: HttpMethod,
  path: string,
  operation: FilesOperation,
  summary: string,
  extra: Partial<RouteDef> = {},
): RouteDef {
  const op = filesOperations[operation];
  return {
    method,
    path,
    summary,
    tag: 'files',
    service: 'files',
    operation,
    auth: 'required',
    ...(method === 'get' ? {} : { body: op.input }),
    response: op.output,
    ...extra,
  };
}

export const filesRoutes = defineRoutes([
  route('get', '/api/docs', 'docs.list', 'The caller’s files (documents and images), newest first'),
  route(
    'get',
    '/api/docs/:docId',
    'doc.get',
    'One document by content hash (SHA-256), or null when nobody has stored these bytes yet (then upload them)',
    { params: docParams, errors: ['ERR_INVALID_INPUT'] },
  ),
  route(
    'post',
    '/api/docs/add',
    'doc.add',
    'Add already stored bytes (a dedupe hit) to the caller’s files or to a board',
    {
      errors: [
        'ERR_NOT_FOUND',
        'ERR_UPLOAD_NOT_ENABLED',
        'ERR_MAX_STORAGE_REACHED',
        'ERR_BOARD_NOT_FOUND',
        'ERR_FORBIDDEN',
        'ERR_INVALID_INPUT',
      ],
    },
  ),
  route('post', '/api/docs/delete', 'docs.delete', 'Remove files from the caller’s library (frees their quota)', {
    errors: ['ERR_INVALID_INPUT'],
  }),
]);

/** What every upload may answer besides the service's own errors. */
export const UPLOAD_ERRORS: ErrorCode[] = [
  'ERR_UPLOAD_GUEST',
  'ERR_UPLOAD_NOT_ENABLED',
  'ERR_MAX_STORAGE_REACHED',
  'ERR_FILE_TOO_LARGE',
  'ERR_UNSUPPORTED_FILE',
  'ERR_UPLOAD_FAILED',
  'ERR_BOARD_NOT_FOUND',
  'ERR_FORBIDDEN',
  'ERR_UNSUPPORTED_MEDIA_TYPE',
  'ERR_INVALID_INPUT',
];

/** The multipart body both upload calls take (documented; busboy parses it). */
export const uploadBodySchema = z.object({
  file: z.string().meta({ format: 'binary', description: 'the file (exactly one part named "file")' }),
});
export const uploadQuerySchema = z.strictObject({ boardId: boardIdSchema.optional() });

const imageName = z.string().describe('`<sha256>-<pageIndex>-full.webp` or `<sha256>-<pageIndex>-thumb.webp`');

/**
 * The byte-carrying calls (documentation; executed by http/files.ts). `bodyType: 'multipart'`
 * and `reply: 'file'` make the OpenAPI document say multipart/form-data and a binary answer.
 */
export const fileStreamRoutes: DocRoute[] = [
  {
    method: 'post',
    path: '/docs',
    summary:
      'Upload a file (multipart/form-data, field "file"), streamed to storage while hashed; answers the stored document (status processing until its pages are made)',
    tag: 'files',
    auth: 'required',
    service: 'files',
    operation: 'upload.register',
    query: uploadQuerySchema,
    body: uploadBodySchema,
    bodyType: 'multipart',
    response: documentDtoSchema,
    errors: UPLOAD_ERRORS,
  },
  {
    method: 'post',
    path: '/display-image',
    summary: 'Upload a profile picture (multipart/form-data, field "file"); answers the cropped square image’s URL',
    tag: 'files',
    auth: 'required',
    service: 'files',
    operation: 'displayImage.register',
    body: uploadBodySchema,
    bodyType: 'multipart',
    response: displayImageReplySchema,
    errors: UPLOAD_ERRORS,
  },
  {
    method: 'get',
    path: '/api/docs/:docId/original',
    summary: 'Download the original bytes of one of the caller’s files (an attachment, never rendered inline)',
    tag: 'files',
    auth: 'required',
    service: 'files',
    operation: 'doc.original',
    params: docParams,
    response: z.unknown(),
    reply: 'file',
    fileType: 'application/octet-stream',
    errors: ['ERR_NOT_FOUND', 'ERR_INVALID_INPUT'],
  },
  {
    method: 'get',
    path: '/docs/:name',
    summary: `A page image of a converted document (full size, or a ${THUMBNAIL_WIDTH} px thumbnail): public, immutable, content-addressed`,
    tag: 'files',
    auth: 'none',
    params: z.object({ name: imageName }),
    response: z.unknown(),
    reply: 'file',
    fileType: 'image/webp',
    errors: ['ERR_NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/images/:name',
    summary:
      'An uploaded image as WebP (`<sha256>-full.webp` or `<sha256>-thumb.webp`): public, immutable, content-addressed',
    tag: 'files',
    auth: 'none',
    params: z.object({ name: z.string() }),
    response: z.unknown(),
    reply: 'file',
    fileType: 'image/webp',
    errors: ['ERR_NOT_FOUND'],
  },
];
