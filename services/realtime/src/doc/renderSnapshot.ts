/**
 * S9 render snapshots: the shapes of a saved document as plain records (proto's
 * encodeRenderSnapshot), so a fresh browser paints the board while its own Automerge is still
 * loading the same DOC (~1.5 s of its main thread on a 20,000-object board).
 *
 * Producing one materialises the document, which the node's event loop must never do
 * (architecture brief fact 2): it runs in a worker thread (renderWorker.ts), once per catch-up
 * DOC (S6), never per edit.
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { compareZOrder, encodeRenderSnapshot, type BoardBackground, type RenderRecord } from '@wb/proto';
import { A } from './automerge';

type StoredDoc = { shapes?: Record<string, Record<string, Record<string, unknown>>> };

/** The records of a saved board document (atomic strings as strings, the id added) in z order. */
export function recordsOf(docBytes: Uint8Array): RenderRecord[] {
  const doc = A.load<StoredDoc>(docBytes);
  const records: RenderRecord[] = [];
  for (const bucket of Object.values(doc.shapes ?? {})) {
    for (const id of Object.keys(bucket)) {
      const raw = bucket[id]!;
      const out: RenderRecord = { id };
      for (const k of Object.keys(raw)) {
        const v = raw[k];
        out[k] = A.isImmutableString(v) ? v.val : v;
      }
      records.push(out);
    }
  }
  // in the browser scene's order (z, then id): its sort then has nothing left to move
  const key = (r: RenderRecord) => (typeof r.z === 'string' ? r.z : '');
  records.sort((a, b) => compareZOrder(key(a), a.id, key(b), b.id));
  return records;
}

/**
 * The records of a saved board document gzipped: a third of the bytes (20,000 objects: 4.6 →
 * 1.5 MB) on the way to a browser that is busy booting.
 */
export function renderSnapshotOf(docBytes: Uint8Array): Uint8Array {
  return gzipSync(encodeRenderSnapshot(recordsOf(docBytes)), { level: 6 });
}

export interface RenderSnapshotMaker {
  /** the render snapshot of a saved document; rejects when it cannot be made */
  render(docBytes: Uint8Array): Promise<Uint8Array>;
  /** the dashboard preview (WebP, boardPreview.ts) of a saved document */
  preview(docBytes: Uint8Array, background: BoardBackground): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Board copies (commands/boardCopy.ts): materialising a document is the worker's job too. */
export interface DocMerger {
  /** the snapshot (null: none yet) and the journal tail after it, saved as one document */
  merge(snapshot: Uint8Array | null, tail: Uint8Array[]): Promise<Uint8Array>;
}

export type WorkerObserver = (seconds: number, outcome: 'ok' | 'failed') => void;

/**
 * One worker thread per node, one document at a time (a render costs a whole materialisation:
 * ~0.5 s for 20,000 objects; queueing keeps it to one core). Started on first use. Render
 * snapshots and dashboard previews share it.
 */
export class RenderWorker implements RenderSnapshotMaker, DocMerger {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly observe: WorkerObserver = () => undefined,
    private readonly file = join(__dirname, 'renderWorker.js'),
    private readonly observePreview: WorkerObserver = () => undefined,
  ) {}

  render(docBytes: Uint8Array): Promise<Uint8Array> {
    return this.ask({ doc: docBytes }, this.observe);
  }

  preview(docBytes: Uint8Array, background: BoardBackground): Promise<Uint8Array> {
    return this.ask({ doc: docBytes, preview: background }, this.observePreview);
  }

  merge(snapshot: Uint8Array | null, tail: Uint8Array[]): Promise<Uint8Array> {
    return this.ask({ doc: snapshot, tail }, () => undefined);
  }

  private ask(
    message: { doc: Uint8Array | null; preview?: BoardBackground; tail?: Uint8Array[] },
    observe: WorkerObserver,
  ): Promise<Uint8Array> {
    const worker = this.start();
    const id = this.nextId++;
    const started = performance.now();
    const done = (outcome: 'ok' | 'failed') => observe((performance.now() - started) / 1000, outcome);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, {
        resolve: (b) => {
          done('ok');
          resolve(b);
        },
        reject: (e) => {
          done('failed');
          reject(e);
        },
      });
      // a copy: the caller keeps its bytes (the DOC frame shares them)
      worker.postMessage({ id, ...message });
    });
  }
  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.file);
    worker.unref(); // never keeps the process alive on its own
    worker.on('message', (m: { id: number; out?: Uint8Array; error?: string }) => {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.out) w.resolve(m.out);
      else w.reject(new Error(m.error ?? 'render failed'));
    });
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`render worker exited with ${code}`)));
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}
