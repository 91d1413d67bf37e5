/** Hashes a file in the hashing worker, with progress and cancellation. */
import type { HashWorkerMessage } from './hashWorker';
import { createHashWorker } from './hashWorkerFactory';

export function abortError(): Error {
  const err = new Error('The upload was cancelled');
  err.name = 'AbortError';
  return err;
}

export function hashFile(
  file: Blob,
  opts: { signal?: AbortSignal; onProgress?: (progress: number) => void } = {},
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
    worker.postMessage({ file });
  });
}
