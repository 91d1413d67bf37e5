/** The render snapshot worker thread (renderSnapshot.ts): saved document in, render snapshot out. */
import { parentPort } from 'node:worker_threads';
import { renderSnapshotOf } from './renderSnapshot';

parentPort?.on('message', (m: { id: number; doc: Uint8Array }) => {
  try {
    const out = renderSnapshotOf(m.doc);
    parentPort!.postMessage({ id: m.id, out }, [out.buffer as ArrayBuffer]);
  } catch (err) {
    parentPort!.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) });
  }
});
