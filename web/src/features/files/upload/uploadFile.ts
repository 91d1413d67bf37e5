/**
 * The one upload client of the app (files page, board drawer, images dropped on a board):
 * hash in the worker → `GET /api/docs/{hash}` → already stored: `POST /api/docs/add` (no second
 * upload, no second conversion) → else multipart `POST /docs` with upload progress → poll
 * `GET /api/docs/{id}` until the conversion is ready or failed (spec §4 upload states, §7 calls).
 */
import { cutFileName, type DocumentDto, type PossessionProof } from '@wb/proto';
import { CSRF_HEADER, callApi, csrfToken, toApiError, type ClientEffects } from '../../../app/apiClient';
import { abortError, hashFile } from './hashFile';

export type UploadPhase = 'hashing' | 'uploading' | 'processing';
export interface UploadProgress {
  phase: UploadPhase;
  /** 0..1 within the phase: bytes hashed, bytes sent, pages converted */
  progress: number;
  pagesDone?: number;
  pages?: number;
  /** processing: the converter retries after a passing fault (the file is not to blame) */
  retrying?: boolean;
}
export interface UploadOptions {
  /** an upload for a board (allowed without the fileUpload feature, spec §5) */
  boardId?: string;
  signal?: AbortSignal;
  onProgress?: (u: UploadProgress) => void;
  /** first poll delay while the document converts (tests shorten it) */
  pollMs?: number;
}

/** A refused upload: the server's readable message and its spec §8 code (ERR_UPLOAD_NOT_ENABLED…). */
export class UploadError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(message: string, code: string, status: number) {
    super(message);
    this.name = 'UploadError';
    this.code = code;
    this.status = status;
  }
}

/** Polls start quick (a small image is ready within a second) and slow down to once a second. */
const POLL_MAX_MS = 1000;
/** Transient poll failures (a gateway restart) are retried this many times in a row. */
const POLL_RETRIES = 5;

function effects(): ClientEffects {
  return {
    fetch: (url, init) => fetch(url, init),
    cookies: () => document.cookie,
    notice: () => undefined,
    // the caller shows the rejection's message; the redirect to the start page follows as elsewhere
    sessionExpired: () => undefined,
    navigate: (path) => window.location.assign(path),
    assign: (url) => window.location.assign(url),
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  };
}

async function call<T>(url: string, method = 'GET', body?: unknown): Promise<T> {
  const result = await callApi({ url, method, body }, effects());
  if ('error' in result) throw new UploadError(result.error.message, result.error.code, result.error.status);
  return result.data as T;
}

/**
 * The caller's name for the file: trimmed and cut to the server's limit (proto
 * FILE_NAME_MAX_LENGTH UTF-16 units) at a code-point boundary, never inside a surrogate pair
 * (issue 25 §5: a lone half is refused by the server).
 */
export function uploadName(file: File): string {
  return cutFileName(file.name.trim() || 'file');
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw abortError();
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Multipart POST (field `file`) through XHR: fetch cannot report upload progress. */
function postMultipart<T>(url: string, file: File, opts: UploadOptions): Promise<T> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = csrfToken(document.cookie);
    if (token) xhr.setRequestHeader(CSRF_HEADER, token);
    const onAbort = () => xhr.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => opts.signal?.removeEventListener('abort', onAbort);
    xhr.upload.onprogress = (e: ProgressEvent) => {
      if (e.lengthComputable && e.total > 0)
        opts.onProgress?.({ phase: 'uploading', progress: Math.min(1, e.loaded / e.total) });
    };
    // spec §4: processing once every byte is sent, while the server stores and converts it
    xhr.upload.onload = () => opts.onProgress?.({ phase: 'processing', progress: 0 });
    xhr.onload = () => {
      done();
      let body: unknown = xhr.responseText;
      try {
        body = xhr.responseText === '' ? null : (JSON.parse(xhr.responseText) as unknown);
      } catch {
        // not JSON (a proxy's error page): its text or status text becomes the message
      }
      if (xhr.status >= 200 && xhr.status < 300 && body && typeof body === 'object') {
        resolve(body as T);
        return;
      }
      const error = toApiError(body, xhr.status, xhr.statusText);
      reject(new UploadError(error.message, error.code, xhr.status));
    };
    xhr.onerror = () => {
      done();
      reject(new UploadError('The upload was interrupted: check your connection and try again', 'ERR_NETWORK', 0));
    };
    xhr.onabort = () => {
      done();
      reject(abortError());
    };
    const form = new FormData();
    form.append('file', file, uploadName(file));
    xhr.send(form);
  });
}

/** Polls the document until its conversion ends; pages done of total reach the caller (spec §4). */
async function untilConverted(doc: DocumentDto, opts: UploadOptions): Promise<DocumentDto> {
  let current = doc;
  let polls = 0;
  let failures = 0;
  const first = opts.pollMs ?? 250;
  for (;;) {
    if (current.status === 'ready') return current;
    if (current.status === 'failed')
      throw new UploadError(current.error || 'The file could not be converted', 'ERR_UPLOAD_FAILED', 200);
    opts.onProgress?.({
      phase: 'processing',
      progress: current.pages > 0 ? Math.min(1, current.pagesDone / current.pages) : 0,
      pagesDone: current.pagesDone,
      pages: current.pages,
      retrying: current.error !== null,
    });
    await sleep(Math.min(POLL_MAX_MS, first * 2 ** Math.min(polls, 2)), opts.signal);
    polls += 1;
    let next: DocumentDto | null;
    try {
      next = await call<DocumentDto | null>(`/api/docs/${current.id}`);
      failures = 0;
    } catch (err) {
      // a network blip or gateway restart: keep waiting a little; refusals end the upload
      if (err instanceof UploadError && err.status === 0 && ++failures <= POLL_RETRIES) continue;
      throw err;
    }
    throwIfAborted(opts.signal);
    if (!next) throw new UploadError('The file was removed while it was being processed', 'ERR_NOT_FOUND', 404);
    current = next;
  }
}

export async function uploadFile(file: File, opts: UploadOptions = {}): Promise<DocumentDto> {
  throwIfAborted(opts.signal);
  opts.onProgress?.({ phase: 'hashing', progress: 0 });
  const hash = await hashFile(file, {
    signal: opts.signal,
    onProgress: (progress) => opts.onProgress?.({ phase: 'hashing', progress }),
  });
  throwIfAborted(opts.signal);

  const stored = await call<DocumentDto | null>(`/api/docs/${hash}`);
  throwIfAborted(opts.signal);
  let doc: DocumentDto | null = null;
  if (stored && (stored.status === 'ready' || stored.status === 'processing')) {
    // spec §7: the bytes are already stored: register them for this person, no second upload,
    // once the file proves it is those bytes (issue 25 §4: the server's challenge, answered in
    // the hashing worker)
    const body: { docId: string; name: string; boardId?: string; proof?: PossessionProof } = {
      docId: hash,
      name: uploadName(file),
    };
    if (opts.boardId) body.boardId = opts.boardId;
    if (stored.challenge) {
      const digest = await hashFile(file, { signal: opts.signal, challenge: stored.challenge });
      body.proof = { nonce: stored.challenge.nonce, digest };
    }
    throwIfAborted(opts.signal);
    opts.onProgress?.({ phase: 'uploading', progress: 1 });
    try {
      doc = await call<DocumentDto>('/api/docs/add', 'POST', body);
    } catch (err) {
      // not confirmed (expired challenge, removed meanwhile): the ordinary upload
      if (!(err instanceof UploadError && err.code === 'ERR_NOT_FOUND')) throw err;
    }
  }
  if (!doc) {
    opts.onProgress?.({ phase: 'uploading', progress: 0 });
    const url = opts.boardId ? `/docs?boardId=${encodeURIComponent(opts.boardId)}` : '/docs';
    doc = await postMultipart<DocumentDto>(url, file, opts);
  }
  throwIfAborted(opts.signal);
  return untilConverted(doc, opts);
}

/**
 * A profile picture (POST /display-image): the server crops and resizes it while the request
 * waits and answers the picture's path (`/images/<id>-avatar.webp`) and id.
 */
export function uploadDisplayImage(
  file: File,
  opts: Pick<UploadOptions, 'signal' | 'onProgress'> = {},
): Promise<{ id: string; url: string }> {
  return postMultipart<{ id: string; url: string }>('/display-image', file, opts);
}
