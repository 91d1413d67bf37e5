/**
 * The render worker thread (renderSnapshot.ts): saved document in, render snapshot out — or, when
 * the message names a background, the board's dashboard preview (boardPreview.ts), or with
 * `tail`, the document and its journal tail saved as one document (a board copy).
 */
import { parentPort } from 'node:worker_threads';
import type { BoardBackground } from '@wb/proto';
import { genesisChange, loadHandle, newHandle } from './automerge';
import { previewWebp } from './boardPreview';
import { recordsOf, renderSnapshotOf } from './renderSnapshot';

type Message = { doc: Uint8Array | null; preview?: BoardBackground; tail?: Uint8Array[] };

/** snapshot (or genesis, SPEC D1) + journal tail → one saved document, as boardStore loads it */
function merged(doc: Uint8Array | null, tail: Uint8Array[]): Uint8Array {
  const h = doc ? loadHandle(doc) : newHandle();
  try {
    if (!doc) h.applyChanges([genesisChange()]);
    if (tail.length) h.loadIncremental(Buffer.concat(tail));
    return h.saveNoCompress();
  } finally {
    h.free();
  }
}

async function make(m: Message): Promise<Uint8Array> {
  if (m.tail) return merged(m.doc, m.tail);
  return m.preview ? previewWebp(recordsOf(m.doc!), m.preview) : renderSnapshotOf(m.doc!);
}

parentPort?.on('message', (m: Message & { id: number }) => {
  make(m).then(
    (out) => parentPort!.postMessage({ id: m.id, out }, [out.buffer as ArrayBuffer]),
    (err: unknown) => parentPort!.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
