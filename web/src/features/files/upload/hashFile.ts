/** Hashes a file (or answers a possession challenge) in the hashing worker, with progress and cancellation. */
import type { HashWorkerMessage } from './hashWorker';
import { createHashWorker } from './hashWorkerFactory';

export function abortError(): Error {
  const err = new Error('The upload was cancelled');
  err.name = 'AbortError';
  return err;
}

export function hashFile(
  file: Blob,
  opts: {
    signal?: AbortSignal;
    onProgress?: (progress: number) => void;
    /** answer this possession challenge (issue 25 §4) instead of hashing the whole file */
    challenge?: { nonce: string; ranges: { start: number; end: number }[] };
  } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(abortError());
      return;
    }
    const worker = createHashWorker();
    const finish = () => {
      worker.terminate();
      opts.signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      finish();
      reject(abortError());
    };
    opts.signal?.addEventListener('abort', onAbort);
    worker.onmessage = (e: MessageEvent<HashWorkerMessage>) => {
      const m = e.data;
      if (m.type === 'progress') opts.onProgress?.(m.progress);
      else {
        finish();
        if (m.type === 'done') resolve(m.hash);
        else reject(new Error(m.message));
      }
    };
    worker.onerror = (e: ErrorEvent) => {
      finish();
      reject(new Error(e.message || 'The file could not be read'));
    };
    worker.postMessage(opts.challenge ? { file, challenge: opts.challenge } : { file });
  });
}
