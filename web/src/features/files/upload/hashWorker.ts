/**
 * The hashing Web Worker (spec §7: "Hashing of a file before upload is done in the background"):
 * the page stays responsive while a large file is read and hashed.
 * In: `{ file }`. Out: `{ type: 'progress', progress }`…, then `{ type: 'done', hash }` or
 * `{ type: 'error', message }`.
 */
import { sha256OfBlob } from './sha256';

export type HashWorkerRequest = { file: Blob };
export type HashWorkerMessage =
  { type: 'progress'; progress: number } | { type: 'done'; hash: string } | { type: 'error'; message: string };

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<HashWorkerRequest>) => void) | null;
  postMessage: (m: HashWorkerMessage) => void;
};

scope.onmessage = (e) => {
  sha256OfBlob(e.data.file, { onProgress: (progress) => scope.postMessage({ type: 'progress', progress }) }).then(
    (hash) => scope.postMessage({ type: 'done', hash }),
    (err: unknown) => scope.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) }),
  );
};
