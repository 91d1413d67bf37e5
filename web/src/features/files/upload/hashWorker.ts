/**
 * The hashing Web Worker (spec §7: "Hashing of a file before upload is done in the background"):
 * the page stays responsive while a large file is read and hashed.
 * In: `{ file }`. Out: `{ type: 'progress', progress }`…, then `{ type: 'done', hash }` or
 * `{ type: 'error', message }`.
 * In: `{ file, challenge }` (issue 25 §4 proof of possession): out `{ type: 'done', hash }` with
 * hash = the answer to the server's challenge (possessionDigestOfBlob), or `{ type: 'error' }`.
 */
import { possessionDigestOfBlob, sha256OfBlob } from './sha256';

export type HashWorkerRequest = {
  file: Blob;
  challenge?: { nonce: string; ranges: { start: number; end: number }[] };
};
export type HashWorkerMessage =
  { type: 'progress'; progress: number } | { type: 'done'; hash: string } | { type: 'error'; message: string };

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<HashWorkerRequest>) => void) | null;
  postMessage: (m: HashWorkerMessage) => void;
};

scope.onmessage = (e) => {
  const { file, challenge } = e.data;
  const work = challenge
    ? possessionDigestOfBlob(file, challenge)
    : sha256OfBlob(file, { onProgress: (progress) => scope.postMessage({ type: 'progress', progress }) });
  work.then(
    (hash) => scope.postMessage({ type: 'done', hash }),
    (err: unknown) => scope.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) }),
  );
};
