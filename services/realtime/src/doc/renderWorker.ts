/**
 * The render worker thread (renderSnapshot.ts): saved document in, render snapshot out — or, when
 * the message names a background, the board's dashboard preview (boardPreview.ts).
 */
import { parentPort } from 'node:worker_threads';
import type { BoardBackground } from '@wb/proto';
import { previewWebp } from './boardPreview';
import { recordsOf, renderSnapshotOf } from './renderSnapshot';

async function make(m: { doc: Uint8Array; preview?: BoardBackground }): Promise<Uint8Array> {
  return m.preview ? previewWebp(recordsOf(m.doc), m.preview) : renderSnapshotOf(m.doc);
}

parentPort?.on('message', (m: { id: number; doc: Uint8Array; preview?: BoardBackground }) => {
  make(m).then(
    (out) => parentPort!.postMessage({ id: m.id, out }, [out.buffer as ArrayBuffer]),
    (err: unknown) => parentPort!.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
